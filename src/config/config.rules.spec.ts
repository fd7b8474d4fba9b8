import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfigWithWarnings } from './config.loader';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flagpole-rules-'));
  writeFileSync(join(dir, 'cert.pem'), 'x');
  writeFileSync(join(dir, 'key.pem'), 'x');
  writeFileSync(join(dir, 'jwt.pub'), 'x');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (env: NodeJS.ProcessEnv) => loadConfigWithWarnings({ argv: [], env, cwd: dir });

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    load(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return e.message.split('\n').slice(1).map((line) => line.trim());
  }
  return [];
}

const M = 'FLAGPOLE_AUTHENTICATION_METHODS_';

describe('cross-field rules', () => {
  it.each<[string, NodeJS.ProcessEnv, string[]]>([
    [
      'git storage reads over HTTP only, a static ref, no SSH',
      { FLAGPOLE_STORAGE_TYPE: 'git', FLAGPOLE_STORAGE_GIT_REPOSITORY: 'git@github.com:o/flags.git', FLAGPOLE_STORAGE_GIT_REF_TYPE: 'semver', FLAGPOLE_STORAGE_GIT_AUTHENTICATION_SSH_PRIVATE_KEY_PATH: '/k' },
      [
        'storage.git.repository (FLAGPOLE_STORAGE_GIT_REPOSITORY): must be an http:// or https:// URL (Flagpole reads Git over HTTP only; SSH is not supported)',
        'storage.git.ref_type (FLAGPOLE_STORAGE_GIT_REF_TYPE): only "static" is supported (the ref as named)',
        'storage.git.authentication.ssh (FLAGPOLE_STORAGE_GIT_AUTHENTICATION_SSH): SSH is not supported: use basic or token authentication over HTTPS',
      ],
    ],
    [
      'https needs cert_file and cert_key',
      { FLAGPOLE_SERVER_PROTOCOL: 'https' },
      [
        'server.cert_file (FLAGPOLE_SERVER_CERT_FILE): is required when server.protocol is https',
        'server.cert_key (FLAGPOLE_SERVER_CERT_KEY): is required when server.protocol is https',
      ],
    ],
    [
      'https needs the certificate files to exist',
      { FLAGPOLE_SERVER_PROTOCOL: 'https', FLAGPOLE_SERVER_CERT_FILE: 'cert.pem', FLAGPOLE_SERVER_CERT_KEY: 'nope.pem' },
      ['server.cert_key (FLAGPOLE_SERVER_CERT_KEY): file nope.pem does not exist'],
    ],
    [
      'without db.url the protocol, host and name are required',
      { FLAGPOLE_DB_USER: 'flagpole' },
      [
        'db.protocol (FLAGPOLE_DB_PROTOCOL): is required when db.url is not set',
        'db.host (FLAGPOLE_DB_HOST): is required when db.url is not set',
        'db.name (FLAGPOLE_DB_NAME): is required when db.url is not set',
      ],
    ],
    [
      'redis CA certificate bytes and path are mutually exclusive',
      {
        FLAGPOLE_CACHE_ENABLED: 'true',
        FLAGPOLE_CACHE_BACKEND: 'redis',
        FLAGPOLE_CACHE_REDIS_CA_CERT_BYTES: 'pem',
        FLAGPOLE_CACHE_REDIS_CA_CERT_PATH: '/ca.pem',
      },
      ['cache.redis.ca_cert_path (FLAGPOLE_CACHE_REDIS_CA_CERT_PATH): cannot be set together with cache.redis.ca_cert_bytes; set exactly one'],
    ],
    [
      'a redis url must be one',
      { FLAGPOLE_CACHE_ENABLED: 'true', FLAGPOLE_CACHE_BACKEND: 'redis', FLAGPOLE_CACHE_REDIS_URL: 'localhost:6379' },
      ['cache.redis.url (FLAGPOLE_CACHE_REDIS_URL): must be a redis:// or rediss:// URL such as redis://redis.internal:6379/0'],
    ],
    [
      'redis cluster mode with a database other than 0, which Redis Cluster does not have',
      { FLAGPOLE_CACHE_ENABLED: 'true', FLAGPOLE_CACHE_BACKEND: 'redis', FLAGPOLE_CACHE_REDIS_MODE: 'cluster', FLAGPOLE_CACHE_REDIS_DB: '2' },
      ['cache.redis.db (FLAGPOLE_CACHE_REDIS_DB): must be 0 with cache.redis.mode cluster (Redis Cluster has database 0 only); use cache.redis.prefix to keep deployments apart'],
    ],
    [
      'redis cluster mode with a URL naming a database other than 0',
      { FLAGPOLE_CACHE_ENABLED: 'true', FLAGPOLE_CACHE_BACKEND: 'redis', FLAGPOLE_CACHE_REDIS_MODE: 'cluster', FLAGPOLE_CACHE_REDIS_URL: 'redis://node-1:7000/3' },
      ['cache.redis.url (FLAGPOLE_CACHE_REDIS_URL): must name database 0 or none with cache.redis.mode cluster (Redis Cluster has database 0 only), such as redis://redis.internal:6379'],
    ],
    [
      'session.domain is required when oidc is enabled',
      { [`${M}OIDC_ENABLED`]: 'true' },
      ['authentication.session.domain (FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN): is required when the oidc or github method is enabled'],
    ],
    [
      'cleanup interval and grace period must be > 0 for an enabled method',
      { [`${M}TOKEN_ENABLED`]: 'true', [`${M}TOKEN_CLEANUP_INTERVAL`]: '0', [`${M}TOKEN_CLEANUP_GRACE_PERIOD`]: '0s' },
      [
        'authentication.methods.token.cleanup.interval (FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_CLEANUP_INTERVAL): must be greater than 0',
        'authentication.methods.token.cleanup.grace_period (FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_CLEANUP_GRACE_PERIOD): must be greater than 0',
      ],
    ],
    [
      'oidc providers need client_id, client_secret and redirect_address',
      {
        [`${M}OIDC_ENABLED`]: 'true',
        FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'flags.example',
        [`${M}OIDC_PROVIDERS_GOOGLE_CLIENT_ID`]: 'id',
      },
      [
        'authentication.methods.oidc.providers.google.client_secret (FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_CLIENT_SECRET): is required',
        'authentication.methods.oidc.providers.google.redirect_address (FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_REDIRECT_ADDRESS): is required',
      ],
    ],
    [
      'github allowed_organizations needs the read:org scope, allowed_teams orgs must be allowed',
      {
        [`${M}GITHUB_ENABLED`]: 'true',
        FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'flags.example',
        [`${M}GITHUB_CLIENT_ID`]: 'id',
        [`${M}GITHUB_CLIENT_SECRET`]: 'secret',
        [`${M}GITHUB_REDIRECT_ADDRESS`]: 'https://flags.example',
        [`${M}GITHUB_ALLOWED_ORGANIZATIONS`]: 'Acme',
        [`${M}GITHUB_ALLOWED_TEAMS_ACME`]: 'core',
        [`${M}GITHUB_ALLOWED_TEAMS_OTHER`]: 'ops',
      },
      [
        'authentication.methods.github.scopes (FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_SCOPES): must include read:org when allowed_organizations is set',
        'authentication.methods.github.allowed_teams.other (FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_ALLOWED_TEAMS_OTHER): organization "other" is not listed in allowed_organizations',
      ],
    ],
    [
      'jwt needs one of jwks_url / public_key_file',
      { [`${M}JWT_ENABLED`]: 'true' },
      ['authentication.methods.jwt.jwks_url (FLAGPOLE_AUTHENTICATION_METHODS_JWT_JWKS_URL): one of jwks_url or public_key_file is required when the jwt method is enabled'],
    ],
    [
      'jwt takes only one of jwks_url / public_key_file',
      { [`${M}JWT_ENABLED`]: 'true', [`${M}JWT_JWKS_URL`]: 'https://idp.example/jwks', [`${M}JWT_PUBLIC_KEY_FILE`]: 'jwt.pub' },
      ['authentication.methods.jwt.public_key_file (FLAGPOLE_AUTHENTICATION_METHODS_JWT_PUBLIC_KEY_FILE): cannot be set together with jwks_url; set exactly one'],
    ],
    [
      'jwt public key file must exist',
      { [`${M}JWT_ENABLED`]: 'true', [`${M}JWT_PUBLIC_KEY_FILE`]: 'missing.pub' },
      ['authentication.methods.jwt.public_key_file (FLAGPOLE_AUTHENTICATION_METHODS_JWT_PUBLIC_KEY_FILE): file missing.pub does not exist'],
    ],
    [
      'jwt jwks_url must be a URL',
      { [`${M}JWT_ENABLED`]: 'true', [`${M}JWT_JWKS_URL`]: 'not a url' },
      ['authentication.methods.jwt.jwks_url (FLAGPOLE_AUTHENTICATION_METHODS_JWT_JWKS_URL): must be an absolute URL'],
    ],
    [
      'kubernetes allow-list entries are namespace/name patterns',
      { [`${M}KUBERNETES_ALLOWED_SERVICE_ACCOUNTS`]: 'prod/* reader Prod/x' },
      [
        'authentication.methods.kubernetes.allowed_service_accounts (FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ALLOWED_SERVICE_ACCOUNTS): item must be "<namespace>/<service account>" (either part may use *), got "reader"; item may contain only lower-case letters, digits, ".", "-" and "*", got "Prod/x"',
      ],
    ],
    [
      'oidc email_matches must be regular expressions',
      { [`${M}OIDC_EMAIL_MATCHES`]: '^.*@example\\.com$ (' },
      [expect.stringMatching(/^authentication\.methods\.oidc\.email_matches \(FLAGPOLE_AUTHENTICATION_METHODS_OIDC_EMAIL_MATCHES\): item is not a valid regular expression/) as unknown as string],
    ],
    [
      'authorization needs authentication and a policy file',
      { FLAGPOLE_AUTHORIZATION_REQUIRED: 'true' },
      [
        'authorization.required (FLAGPOLE_AUTHORIZATION_REQUIRED): needs authentication.required: true (a policy applies to authenticated credentials)',
        'authorization.local.policy.path (FLAGPOLE_AUTHORIZATION_LOCAL_POLICY_PATH): must name the policy file when authorization.required is true',
      ],
    ],
    [
      "authorization refuses OPA's bundles and Rego data",
      {
        FLAGPOLE_AUTHORIZATION_REQUIRED: 'true',
        FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
        FLAGPOLE_AUTHORIZATION_BACKEND: 'bundle',
        FLAGPOLE_AUTHORIZATION_LOCAL_POLICY_PATH: '/etc/flagpole/policy.yml',
        FLAGPOLE_AUTHORIZATION_LOCAL_DATA_PATH: '/etc/flagpole/data.json',
      },
      [
        'authorization.backend (FLAGPOLE_AUTHORIZATION_BACKEND): "bundle" (OPA bundles) is not supported: Flagpole reads its own policy file (backend "local"; docs/authorization.md)',
        'authorization.local.data.path (FLAGPOLE_AUTHORIZATION_LOCAL_DATA_PATH): is Rego data, which Flagpole does not run: its policy file holds roles and bindings itself (docs/authorization.md)',
      ],
    ],
    [
      'audit sinks must be complete when enabled',
      { FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true', FLAGPOLE_AUDIT_SINKS_KAFKA_ENABLED: 'true' },
      [
        'audit.sinks.webhook.url (FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL): or audit.sinks.webhook.templates is required when the webhook sink is enabled',
        'audit.sinks.kafka.enabled (FLAGPOLE_AUDIT_SINKS_KAFKA_ENABLED): the kafka sink is not supported by Flagpole; use audit.sinks.webhook or audit.sinks.log',
      ],
    ],
    [
      'audit webhook templates need an http(s) URL (their bodies and the event patterns: audit/audit.config-rules.spec.ts)',
      {
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES: JSON.stringify([{ url: 'ftp://hook.example', body: '{}' }]),
      },
      [
        'audit.sinks.webhook.templates.0.url (FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES_0_URL): must be an http or https URL, got "ftp://hook.example"',
      ],
    ],
    [
      'analytics storage in ClickHouse is refused',
      { FLAGPOLE_ANALYTICS_STORAGE_CLICKHOUSE_ENABLED: 'true' },
      [
        "analytics.storage.clickhouse.enabled (FLAGPOLE_ANALYTICS_STORAGE_CLICKHOUSE_ENABLED): ClickHouse analytics is not supported by Flagpole; set analytics.enabled to count evaluations in Flagpole's own database, or analytics.storage.prometheus.enabled to read them from Prometheus",
      ],
    ],
    [
      'Prometheus analytics: one storage, metrics served, a usable URL',
      { FLAGPOLE_ANALYTICS_ENABLED: 'true', FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_ENABLED: 'true', FLAGPOLE_METRICS_ENABLED: 'false' },
      [
        "analytics.storage.prometheus.enabled (FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_ENABLED): choose one storage: analytics.enabled keeps the counts in Flagpole's database, analytics.storage.prometheus.enabled reads them from Prometheus; not both",
        'analytics.storage.prometheus.enabled (FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_ENABLED): needs metrics.enabled: Prometheus reads the counts from the /metrics Flagpole serves',
        'analytics.storage.prometheus.url (FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_URL): is required with analytics.storage.prometheus.enabled',
      ],
    ],
    [
      'a Prometheus URL that is not http(s) is refused without repeating it',
      { FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_ENABLED: 'true', FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_URL: 'prom://user:secret@prom' },
      ['analytics.storage.prometheus.url (FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_URL): must be an http or https URL'],
    ],
    [
      'analytics flush period below Flipt\'s minimum',
      { FLAGPOLE_ANALYTICS_BUFFER_FLUSH_PERIOD: '5s' },
      ['analytics.buffer.flush_period (FLAGPOLE_ANALYTICS_BUFFER_FLUSH_PERIOD): must be at least 10s, got "5s"'],
    ],
  ])('%s', (_, env, expected) => {
    expect(problems(env)).toEqual(expected);
  });

  it('report type errors and rule violations together', () => {
    expect(problems({ FLAGPOLE_SERVER_HTTP_PORT: 'x', FLAGPOLE_STORAGE_TYPE: 'oci', [`${M}GITHUB_ENABLED`]: 'yes' })).toEqual([
      'authentication.methods.github.enabled (FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_ENABLED): must be true or false, got "yes"',
      'server.http_port (FLAGPOLE_SERVER_HTTP_PORT): must be an integer between 0 and 65535, got "x"',
      'storage.type (FLAGPOLE_STORAGE_TYPE): "oci" storage is not supported by Flagpole; "database" (flag state in db.url), "local" and "git" (read-only, from files) are',
    ]);
  });
});

describe('what the rules accept', () => {
  it('a complete oidc + github + jwt + kubernetes setup, normalising the session domain', () => {
    const { config } = load({
      FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
      FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'https://flags.example.com:8443/ui',
      [`${M}OIDC_ENABLED`]: 'true',
      [`${M}OIDC_PROVIDERS_GOOGLE_CLIENT_ID`]: 'id',
      [`${M}OIDC_PROVIDERS_GOOGLE_CLIENT_SECRET`]: 'secret',
      [`${M}OIDC_PROVIDERS_GOOGLE_REDIRECT_ADDRESS`]: 'https://flags.example.com',
      [`${M}GITHUB_ENABLED`]: 'true',
      [`${M}GITHUB_CLIENT_ID`]: 'id',
      [`${M}GITHUB_CLIENT_SECRET`]: 'secret',
      [`${M}GITHUB_REDIRECT_ADDRESS`]: 'https://flags.example.com',
      [`${M}GITHUB_SCOPES`]: 'user:email read:org',
      [`${M}GITHUB_ALLOWED_ORGANIZATIONS`]: 'Acme-Corp',
      [`${M}GITHUB_ALLOWED_TEAMS_ACME-CORP`]: 'core',
      [`${M}JWT_ENABLED`]: 'true',
      [`${M}JWT_PUBLIC_KEY_FILE`]: 'jwt.pub',
      [`${M}KUBERNETES_ENABLED`]: 'true',
    });
    expect(config.authentication.session.domain).toBe('flags.example.com');
    // The environment lower-cases map keys; the organization's spelling comes back from allowed_organizations.
    expect(config.authentication.methods.github.allowedTeams).toEqual({ 'Acme-Corp': ['core'] });
  });

  it.each([
    ['localhost:8080', 'localhost'],
    ['flags.example.com', 'flags.example.com'],
    ['http://user@flags.example.com:80', 'flags.example.com'],
  ])('session domain %s → %s', (domain, host) => {
    expect(load({ FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: domain }).config.authentication.session.domain).toBe(host);
  });

  it("redis cluster mode with Flipt's keys (a seed node's host and port) or a URL without a database is accepted", () => {
    const cluster = { FLAGPOLE_CACHE_ENABLED: 'true', FLAGPOLE_CACHE_BACKEND: 'redis', FLAGPOLE_CACHE_REDIS_MODE: 'cluster' };
    expect(problems({ ...cluster, FLAGPOLE_CACHE_REDIS_HOST: 'redis-cluster', FLAGPOLE_CACHE_REDIS_PORT: '7000' })).toEqual([]);
    expect(problems({ ...cluster, FLAGPOLE_CACHE_REDIS_URL: 'rediss://app:pw@redis-cluster:7000/0' })).toEqual([]);
  });

  it('redis CA settings both set while the redis cache is off (Flipt checks only the cache in use)', () => {
    expect(problems({ FLAGPOLE_CACHE_REDIS_CA_CERT_BYTES: 'pem', FLAGPOLE_CACHE_REDIS_CA_CERT_PATH: '/ca.pem' })).toEqual([]);
  });

  it('builds db.url from the alternative keys', () => {
    const { config } = load({
      FLAGPOLE_DB_PROTOCOL: 'postgres',
      FLAGPOLE_DB_HOST: 'db.internal',
      FLAGPOLE_DB_PORT: '5433',
      FLAGPOLE_DB_NAME: 'flags',
      FLAGPOLE_DB_USER: 'flag pole',
      FLAGPOLE_DB_PASSWORD: 'p@ss:word',
    });
    expect(config.db.url).toBe('postgres://flag%20pole:p%40ss%3Aword@db.internal:5433/flags');
    expect(load({ FLAGPOLE_DB_PROTOCOL: 'mysql', FLAGPOLE_DB_HOST: 'h', FLAGPOLE_DB_NAME: 'n' }).config.db.url).toBe('mysql://h/n');
  });

  it('keeps an explicit db.url over the alternative keys', () => {
    expect(load({ FLAGPOLE_DB_URL: 'mysql://u@h/db', FLAGPOLE_DB_HOST: 'ignored' }).config.db.url).toBe('mysql://u@h/db');
  });
});

describe('warnings', () => {
  it('name settings Flagpole accepts but does not act on, one line per section', () => {
    const { warnings } = load({
      FLAGPOLE_TRACING_JAEGER_PORT: '6832',
      FLAGPOLE_META_TELEMETRY_ENABLED: 'false',
      FLAGPOLE_AUDIT_BUFFER_CAPACITY: '5',
      FLAGPOLE_ANALYTICS_STORAGE_CLICKHOUSE_URL: 'http://clickhouse:8123',
      FLAGPOLE_DIAGNOSTICS_PROFILING_ENABLED: 'false',
    });
    expect(warnings).toEqual([
      'audit.buffer.capacity: accepted for compatibility with Flipt, but Flagpole does not act on audit settings yet',
      'diagnostics.profiling.enabled: accepted for compatibility with Flipt, but Flagpole does not act on diagnostics settings yet',
      'meta.telemetry_enabled: accepted for compatibility with Flipt, but Flagpole does not act on meta settings yet',
      'analytics.storage.clickhouse.url: accepted for compatibility with Flipt, but Flagpole does not act on analytics settings yet',
      'tracing.jaeger.port: accepted for compatibility with Flipt, but Flagpole does not act on tracing settings yet',
    ]);
  });

  it('mention the deprecated exclude.metadata and an oidc method without providers', () => {
    const { warnings } = load({
      FLAGPOLE_AUTHENTICATION_EXCLUDE_METADATA: 'true',
      [`${M}OIDC_ENABLED`]: 'true',
      FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'flags.example',
    });
    expect(warnings).toEqual([
      'authentication.methods.oidc is enabled without providers: nobody can log in with OIDC',
      'authentication.exclude.metadata is deprecated and has no effect: /meta cannot be excluded from authentication',
    ]);
  });
});

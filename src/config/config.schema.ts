/**
 * Every configuration key: Flipt v1's keys, nesting and defaults (flipt-v1-facts §7.4, §7b, §8.2) plus Flagpole's
 * additions. Property names are the `/meta/config` names; YAML keys and `FLAGPOLE_` variables derive from them.
 * This is the one declaration of the configuration: its TypeScript type (config.types.ts), the loader's defaults,
 * `FLAGPOLE_` names and validation messages, the `/meta/config` view and docs/configuration.md all come from it.
 */
import {
  bool,
  duration,
  float,
  int,
  list,
  listMap,
  mapOf,
  objectList,
  oneOf,
  port,
  section,
  secret,
  str,
  stringMap,
  when,
} from './config.fields';
import { checkServiceAccountPattern } from './service-account-allow-list';
import { FLAG_KINDS } from '../wire/flag-kinds';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'DPANIC', 'PANIC', 'FATAL'] as const;
export const STORAGE_TYPES = ['database', 'local', 'git', 'object', 'oci'] as const;
const PROPAGATORS = ['tracecontext', 'baggage', 'b3', 'b3multi', 'jaeger', 'xray', 'ottrace', 'none'] as const;

type MethodName = 'token' | 'github' | 'oidc' | 'kubernetes' | 'jwt';
const enabled = (method: MethodName) => when(`authentication.methods.${method}.enabled`);

/** Stored authentications of an enabled method are deleted `grace_period` after they expire, every `interval`. */
const cleanup = (method: MethodName, stored = true) =>
  section(
    stored
      ? {
          interval: duration('1h', 'How often expired authentications of this method are deleted; must be > 0.', {
            defaultWhen: enabled(method),
          }),
          gracePeriod: duration('30m', 'How long after expiry an authentication is kept before deletion; must be > 0.', {
            defaultWhen: enabled(method),
          }),
        }
      : {
          interval: duration('0s', 'Accepted for symmetry; JWT authentications are not stored, so nothing is cleaned up.'),
          gracePeriod: duration('0s', 'Accepted for symmetry; see `interval`.'),
        },
    { viewIf: enabled(method) },
  );

/** The expected lifetime of each temporary kind; kill switches and permissions are permanent. */
const lifetimes = (release: string, experiment: string, operational: string, what: string, zero = ' 0 = no lifetime.') =>
  section({
    release: duration(release, `${what} release flag (a feature being rolled out).${zero}`),
    experiment: duration(experiment, `${what}n experiment flag (an A/B test).${zero}`),
    operational: duration(operational, `${what}n operational flag (a migration or a temporary switch).${zero}`),
  });

const otlp = (what: string, inert: boolean, defaultEndpoint = '') => ({
  endpoint: str(defaultEndpoint, `OTLP endpoint for ${what}.`, { inert }),
  headers: stringMap('<HEADER>', `Headers sent to the OTLP endpoint (may carry API keys, so never shown).`, {
    inert,
    json: false,
  }),
});

const audit = {
  sinks: section({
    log: section({
      enabled: bool(false, 'Write each audit event to a log, one line per event.'),
      file: str('', 'File the audit log is appended to (the event\'s JSON per line); empty = into the main log, as an `audit event` entry.'),
      encoding: oneOf(['', 'console', 'json'], '', 'Audit log file encoding: `json` (the event alone per line; also when empty) or `console` (time, type:action, actor, then the JSON). Without a file, the main log\'s encoding applies.'),
    }),
    webhook: section({
      enabled: bool(false, 'POST each audit event to a webhook (or to each template).', { keepEmpty: true }),
      url: str('', 'Webhook URL; receives the event\'s JSON (exclusive with `templates`).'),
      maxBackoffDuration: duration('15s', 'Longest wait between two tries of an event the receiver did not take (5xx, 408, 429, no answer); tries go on while the process lives.', { min: 1 }),
      signingSecret: secret('HMAC-SHA256 key; the hex signature of the body goes in `x-flipt-webhook-signature` and `x-flagpole-webhook-signature`. Empty = unsigned.'),
      templates: objectList(
        {
          url: str('', 'Destination URL.'),
          body: str('', "Body in Go template syntax over the event (`{{ .Type }}`, `{{ toJson .Payload }}`); must render JSON (checked at start-up)."),
          headers: stringMap('<HEADER>', 'Headers to send.'),
        },
        'Webhook templates `[{url, body, headers}]` (exclusive with `url`; not signed); from the environment as a JSON array.',
      ),
    }),
    kafka: section({
      enabled: bool(false, 'Send audit events to Kafka. Refused by Flagpole (no Kafka sink): use the webhook or log sink.'),
      topic: str('', 'Kafka topic.', { inert: true }),
      bootstrapServers: list([], 'Kafka bootstrap servers.', { inert: true }),
      encoding: oneOf(['protobuf', 'avro'], 'protobuf', 'Message encoding.', { inert: true }),
      authentication: section(
        {
          username: secret('Kafka SASL user name.', { inert: true }),
          password: secret('Kafka SASL password.', { inert: true }),
        },
        { json: false },
      ),
      schemaRegistry: section({ url: secret('Schema registry URL (avro).', { inert: true }) }, { json: false }),
      requireTLS: bool(false, 'Connect to Kafka over TLS.', { inert: true }),
      insecureSkipTLS: bool(false, 'Skip TLS certificate verification.', { inert: true, json: false }),
    }),
  }),
  buffer: section({
    capacity: int(2, 'Accepted for compatibility (2..10): Flipt batches events for its sinks; Flagpole sends each event on as its write commits.', { inert: true, min: 2, max: 10 }),
    flushPeriod: duration('2m', 'Accepted for compatibility (2m..5m); see `capacity`.', {
      inert: true,
      min: 120_000,
      max: 300_000,
    }),
  }),
  events: list(['*:*'], 'Events the sinks receive, as `noun:verb` patterns (`flag:created`, `*:deleted`, `*:*`). The stored trail keeps every event.'),
  storage: section({
    enabled: bool(true, 'Store every audit event in the database, listed at `GET /api/v1/audit/events` and in the UI\'s history (Flagpole addition).'),
    retention: duration('2160h', 'Stored events older than this are deleted (default 90 days); 0 = kept forever.'),
    cleanupInterval: duration('1h', 'How often events past the retention are deleted (one instance per round).', { min: 1 }),
  }),
};

const authorization = {
  required: bool(false, "Enforce the policy file's roles and bindings on every authenticated route (needs `authentication.required`; docs/authorization.md)."),
  backend: oneOf(['', 'local', 'bundle', 'object'], '', 'Policy source: `local` (the policy file; the default). `bundle` and `object` (OPA) are refused.'),
  local: section(
    {
      policy: section({
        path: str('', 'The policy file (YAML or JSON: roles, bindings, default_role); re-read when it changes.'),
        pollInterval: duration('30s', 'How often the policy file is checked besides the file watcher (a backstop for file systems that send no events).', { min: 1 }),
      }),
      data: section({
        path: str('', "Rego data file (Flipt's OPA policies). Refused: Flagpole's policy file holds its roles itself.", { inert: true }),
        pollInterval: duration('30s', 'How often the data file is re-read.', { inert: true }),
      }),
    },
    { viewIf: when('authorization.required') },
  ),
  bundle: section(
    { configuration: str('', 'OPA bundle configuration.', { inert: true, json: false }) },
    { viewIf: when('authorization.backend', 'bundle') },
  ),
  object: section(
    {
      type: oneOf(['s3'], 's3', 'Object store type.', { inert: true }),
      s3: section({
        bucket: str('', 'Bucket holding `bundle.tar.gz`.', { inert: true }),
        prefix: str('', 'Key prefix in the bucket.', { inert: true }),
        region: str('', 'Bucket region.', { inert: true }),
        endpoint: str('', 'S3 endpoint override.', { inert: true }),
      }),
    },
    { viewIf: when('authorization.backend', 'object') },
  ),
};

const authentication = {
  required: bool(false, 'Require a credential on every API call except health, auth-method listing and login flows.', {
    keepEmpty: true,
  }),
  exclude: section({
    management: bool(false, 'Do not require authentication on the management API (`/api/v1/**`).'),
    metadata: bool(false, 'Deprecated in Flipt and without effect: `/meta/*` cannot be excluded (a warning says so).'),
    evaluation: bool(false, 'Do not require authentication on evaluation (`/evaluate/v1/**`, snapshots).'),
    ofrep: bool(false, 'Do not require authentication on OFREP (`/ofrep/**`).'),
  }),
  session: section({
    domain: str('', 'Cookie domain for browser sessions; required when `oidc` or `github` is enabled. Scheme and port are dropped.'),
    secure: bool(false, 'Set the Secure flag on the session cookies (serve over HTTPS).'),
    tokenLifetime: duration('24h', 'Lifetime of a client token created by a browser login (oidc, github).'),
    stateLifetime: duration('10m', 'Lifetime of the login state cookie.'),
    csrf: section({
      key: secret('Turns cross-origin protection of the API on when non-empty (the value itself is not used).'),
      secure: bool(true, 'Unused since Flipt 1.60; accepted for compatibility.', { inert: true }),
      trustedOrigins: list([], 'Origins allowed to make cross-origin unsafe requests (e.g. `https://admin.example.com`).'),
    }),
  }),
  methods: section({
    token: section({
      enabled: bool(false, 'Enable static client tokens (`/auth/v1/method/token`).'),
      cleanup: cleanup('token'),
      bootstrap: section(
        {
          token: secret('Client token created at first start when no token exists yet; empty = random (logged once).'),
          expiration: duration('0s', 'Lifetime of the bootstrap token; 0 = never expires.'),
          metadata: stringMap('<KEY>', 'Extra metadata on the bootstrap token (keys lower-cased).'),
        },
        { keepEmpty: true },
      ),
    }),
    github: section({
      enabled: bool(false, 'Enable GitHub OAuth login (`/auth/v1/method/github`).'),
      cleanup: cleanup('github'),
      serverUrl: str('https://github.com', 'GitHub server (GitHub Enterprise: its URL).'),
      apiUrl: str('https://api.github.com', 'GitHub API URL.'),
      clientId: secret('OAuth app client id (required when enabled).'),
      clientSecret: secret('OAuth app client secret (required when enabled).'),
      redirectAddress: str('', 'Public address of Flagpole that GitHub redirects back to (required when enabled).'),
      scopes: list([], 'OAuth scopes to request; must include `read:org` when `allowed_organizations` is set.'),
      allowedOrganizations: list([], 'Only members of these organizations may log in; empty = anyone.'),
      allowedTeams: listMap('<ORG>', 'Per organization, the team slugs allowed to log in; each organization must be in `allowed_organizations`.'),
    }),
    oidc: section({
      enabled: bool(false, 'Enable OpenID Connect login (`/auth/v1/method/oidc/{provider}`).'),
      cleanup: cleanup('oidc'),
      emailMatches: list([], 'Regular expressions; when set, an OIDC login is accepted only if its email matches one.', {
        checkItem: (re) => {
          try {
            new RegExp(re);
            return undefined;
          } catch (e) {
            return `is not a valid regular expression (${(e as Error).message})`;
          }
        },
      }),
      providers: mapOf(
        '<PROVIDER>',
        {
          issuerURL: str('', 'The provider\'s issuer URL (OIDC discovery).'),
          clientId: secret('Client id (required).'),
          clientSecret: secret('Client secret (required).'),
          redirectAddress: str('', 'Public address of Flagpole the provider redirects back to (required).'),
          nonce: str('static', 'Accepted for Flipt compatibility and ignored: every login sends a fresh nonce (an HMAC of its state) and checks it in the ID token.'),
          scopes: list([], 'Scopes to request from the provider.'),
          usePKCE: bool(false, 'Use PKCE (S256) in the code exchange.'),
        },
        'OIDC providers by name; the name is lower-cased and appears in the login URLs.',
      ),
    }),
    kubernetes: section({
      enabled: bool(false, 'Enable Kubernetes service-account login (`/auth/v1/method/kubernetes/serviceaccount`).'),
      cleanup: cleanup('kubernetes'),
      discoveryURL: str('https://kubernetes.default.svc.cluster.local', 'Cluster API server serving OIDC discovery.', {
        defaultWhen: enabled('kubernetes'),
      }),
      caPath: str('/var/run/secrets/kubernetes.io/serviceaccount/ca.crt', 'CA certificate trusted for the API server.', {
        defaultWhen: enabled('kubernetes'),
      }),
      serviceAccountTokenPath: str(
        '/var/run/secrets/kubernetes.io/serviceaccount/token',
        'Flagpole\'s own service-account token, sent to the API server.',
        { defaultWhen: enabled('kubernetes') },
      ),
      allowedServiceAccounts: list(
        [],
        'Flagpole addition: only service accounts matching one of these `namespace/name` patterns may log in (`*` = any run of characters within a part, e.g. `prod/*`, `*/flag-reader`); empty = any.',
        { checkItem: checkServiceAccountPattern },
      ),
    }),
    jwt: section({
      enabled: bool(false, 'Accept externally issued JWTs (`Authorization: JWT <token>`); only checked when authentication is required.'),
      cleanup: cleanup('jwt', false),
      jwksUrl: secret('JWKS endpoint with the signing keys (exactly one of `jwks_url` / `public_key_file`).'),
      publicKeyFile: secret('PEM public key file (exactly one of `jwks_url` / `public_key_file`).'),
      validateClaims: section(
        {
          issuer: secret('Required `iss` claim, if set.'),
          subject: secret('Required `sub` claim, if set.'),
          audiences: list([], 'Accepted `aud` values (any of), if set.', { json: false }),
        },
        { json: false },
      ),
    }),
  }),
};

export const CONFIG_SCHEMA = {
  version: str('', 'Configuration format version; if set, must be `1.0`.', {
    fromNumber: (n) => (Number.isInteger(n) ? n.toFixed(1) : String(n)),
  }),
  audit: section(audit),
  authentication: section(authentication),
  authorization: section(authorization),
  cache: section({
    enabled: bool(false, 'Cache evaluation data (snapshots, rules, flags).', { keepEmpty: true }),
    backend: oneOf(['memory', 'redis'], 'memory', 'Cache backend; with `redis`, changes reach every instance within 1 s.'),
    ttl: duration('1m', 'Lifetime of a cache entry.'),
    memory: section({
      evictionInterval: duration('5m', 'How often expired entries are evicted from the memory cache.'),
    }),
    redis: section({
      url: secret('`redis://[user:password@]host:port/db` or `rediss://…` (TLS); replaces host, port, username, password, db and require_tls when set.'),
      host: str('localhost', 'Redis host.'),
      port: port(6379, 'Redis port.'),
      requireTLS: bool(false, 'Connect to Redis over TLS.'),
      username: secret('Redis user name.'),
      password: secret('Redis password.'),
      db: int(0, 'Redis database number.'),
      prefix: str('', 'Key prefix; empty = `flagpole`.'),
      poolSize: int(0, 'Connection pool size; 0 = client default.', { keepEmpty: true }),
      minIdleConn: int(0, 'Idle connections kept open; 0 = none.', { keepEmpty: true }),
      connMaxIdleTime: duration('0s', 'Close connections idle this long; 0 = never.', { keepEmpty: true }),
      netTimeout: duration('0s', 'Network read/write timeout; 0 = client default.', { keepEmpty: true }),
      caCertBytes: secret('PEM CA certificate(s) to trust (exclusive with `ca_cert_path`).'),
      caCertPath: secret('File with PEM CA certificate(s) to trust (exclusive with `ca_cert_bytes`).'),
      insecureSkipTLS: bool(false, 'Skip TLS certificate verification.', { json: false }),
      mode: oneOf(['single', 'cluster'], 'single', 'Single Redis server or Redis Cluster; a cluster is found from the node at `host`:`port` (or `url`) and uses database 0 only.'),
    }),
  }),
  cors: section({
    enabled: bool(false, 'Answer CORS preflights and add CORS headers.', { keepEmpty: true }),
    allowedOrigins: list(['*'], 'Origins allowed by CORS.'),
    allowedHeaders: list(
      [
        'Accept',
        'Authorization',
        'Content-Type',
        'X-CSRF-Token',
        'X-Fern-Language',
        'X-Fern-SDK-Name',
        'X-Fern-SDK-Version',
        'X-Flipt-Namespace',
        'X-Flipt-Accept-Server-Version',
        'X-Flagpole-Namespace',
        'If-None-Match',
        'Last-Event-ID',
      ],
      'Request headers allowed by CORS (Flipt\'s list, plus `X-Flagpole-Namespace`, `If-None-Match` and `Last-Event-ID` for OFREP and snapshot clients and event streams in browsers).',
    ),
  }),
  db: section({
    url: secret(
      'Database URL: `file:/path/x.db` (SQLite), `postgres://…`, `mysql://…` (MySQL, MariaDB), `cockroach://…`. Default only when none of name/user/password/host/port/protocol is set.',
      { defaultDoc: '`file:<data dir>/flagpole.db`' },
    ),
    maxIdleConn: int(2, 'Idle connections kept in the pool.'),
    maxOpenConn: int(0, 'Most open connections; 0 = the pool default (SQLite always uses one).'),
    connMaxLifetime: duration('0s', 'Retire pooled connections after this long; 0 = never.'),
    name: str('', 'Database name (when `url` is empty).'),
    user: secret('Database user (when `url` is empty).'),
    password: secret('Database password (when `url` is empty).'),
    host: str('', 'Database host (when `url` is empty).'),
    port: port(0, 'Database port (when `url` is empty); 0 = the protocol\'s default.'),
    protocol: oneOf(
      ['', 'sqlite', 'file', 'libsql', 'postgres', 'mysql', 'cockroach', 'cockroachdb'],
      '',
      'Database protocol (when `url` is empty).',
    ),
    preparedStatementsEnabled: bool(true, 'Use prepared statements (turn off behind PgBouncer in transaction mode).'),
  }),
  diagnostics: section({
    profiling: section({
      enabled: bool(true, 'Flipt mounts Go pprof at `/debug`; Flagpole has no profiling endpoint.', { inert: true }),
    }),
  }),
  experimental: section({}),
  log: section({
    level: oneOf(LOG_LEVELS, 'INFO', 'Log level (case-insensitive).'),
    file: str('', 'Log to this file instead of standard error.'),
    encoding: oneOf(['console', 'json'], 'console', 'Log line format.'),
    grpcLevel: oneOf(LOG_LEVELS, 'ERROR', 'Log level of the gRPC server.'),
    keys: section(
      {
        time: str('T', 'Name of the time field in JSON log lines.', { keepEmpty: true }),
        level: str('L', 'Name of the level field in JSON log lines.', { keepEmpty: true }),
        message: str('M', 'Name of the message field in JSON log lines.', { keepEmpty: true }),
      },
      { keepEmpty: true },
    ),
  }),
  meta: section({
    checkForUpdates: bool(true, 'Flipt checks GitHub for new releases; Flagpole never phones home.', {
      inert: true,
      keepEmpty: true,
    }),
    telemetryEnabled: bool(true, 'Flipt sends anonymous telemetry; Flagpole never phones home.', {
      inert: true,
      keepEmpty: true,
    }),
    stateDirectory: str('', 'Flipt keeps its telemetry state here; unused by Flagpole.', { inert: true }),
  }),
  analytics: section({
    enabled: bool(false, 'Flagpole addition: count evaluations per minute, namespace, flag, variant and reason in Flagpole\'s own database (`db.url`) and serve them at `/internal/v1/analytics` (docs/api.md, Analytics). `analytics.storage.prometheus.enabled` is the other way: counts read from Prometheus.'),
    retention: duration('720h', 'Flagpole addition: counts older than this are deleted (default 30 days), by a scheduled task on one instance at a time; 0 = kept forever. With Prometheus storage: how far back `lastEvaluatedAt` looks (0 = a year); Prometheus keeps the counts.'),
    cleanupInterval: duration('1h', 'Flagpole addition: how often counts past the retention are deleted (one instance per round).', { min: 1 }),
    storage: section({
      clickhouse: section({
        enabled: bool(false, 'Store evaluation counts in ClickHouse. Refused by Flagpole: use `analytics.enabled` (counts in its own database).'),
        url: secret('ClickHouse URL.', { inert: true }),
      }),
      prometheus: section({
        enabled: bool(false, 'Turn analytics on with the counts read back from Prometheus, which scrapes every instance\'s `/metrics`, instead of kept in Flagpole\'s database (docs/api.md, Analytics). Needs `metrics.enabled`; not with `analytics.enabled` (choose one storage).'),
        url: secret('Prometheus\'s base URL (`http://prometheus:9090`; a path prefix is kept, as for Mimir or Thanos). Required with `enabled`; may carry credentials.'),
        headers: stringMap('<HEADER>', 'Headers sent with every query (authorization, a tenant ID); `_` in a name is sent as `-` (`X_SCOPE_ORGID` is `X-Scope-OrgID`). Never logged.', { json: false }),
        timeout: duration('5s', 'Flagpole addition: how long one query may take, answer included; past it the route answers 503.', { min: 1 }),
      }),
    }),
    buffer: section({
      flushPeriod: duration('10s', 'How often each instance writes the counts it holds to the database (one transaction); at least 10s, as in Flipt.', { min: 10_000 }),
    }),
  }),
  server: section({
    host: str('0.0.0.0', 'Address to listen on.'),
    protocol: oneOf(['http', 'https'], 'http', 'Serve HTTP, or HTTPS with `cert_file`/`cert_key`.'),
    httpPort: port(8080, 'HTTP port (protocol `http`).'),
    httpsPort: port(443, 'HTTPS port (protocol `https`).'),
    grpcPort: port(9000, 'gRPC port (gRPC health service).'),
    writeWorker: bool(false, 'Run the REST API\'s writes in a worker thread with its own database connection, so that their ORM and database work never holds up evaluations (Flagpole addition; docs/architecture.md, Writes). Costs about 90 MiB and 1.5–2 s of start-up; SQLite is switched to WAL (docs/deployment.md).', { json: false }),
    writeWorkerNice: int(10, 'The write worker thread\'s Linux nice value (0 = the process\'s priority, up to 19): when it and the evaluations want the same core, the evaluations run first. Never below the process\'s own (docs/deployment.md).', { json: false, min: 0, max: 19 }),
    certFile: secret('TLS certificate file (required, and must exist, for `https`).'),
    certKey: secret('TLS key file (required, and must exist, for `https`).'),
    grpcConnMaxIdleTime: duration('0s', 'Close idle gRPC connections after this long; 0 = never.', { json: false }),
    grpcConnMaxAge: duration('0s', 'Close gRPC connections older than this; 0 = never.', { json: false }),
    grpcConnMaxAgeGrace: duration('0s', 'Grace period for in-flight calls when a connection is closed by age.', {
      json: false,
    }),
  }),
  storage: section({
    type: oneOf(STORAGE_TYPES, 'database', 'Where flag state lives: `database` (db.url, written through the API); `local` or `git` (read-only, from Flipt-format files in `storage.local.path` or a Git repository; docs/flags-as-code.md). `object` and `oci` are refused.'),
    readOnly: bool(false, 'Flag state cannot be changed through the API (Flipt\'s read-only error) and the UI shows it read-only; always so with `local` and `git`.', { yaml: 'read_only', json: 'read_only' }),
    local: section(
      {
        path: str('.', 'Directory of Flipt-format files (`features.yml`, `*.features.yml`, or what a `.flipt.yml` index includes); changes are picked up within a second.'),
        pollInterval: duration('5s', 'Flagpole addition: how often the files are also checked for changes, besides the file watcher (for file systems that do not report changes).', { min: 200 }),
      },
      { viewIf: when('storage.type', 'local') },
    ),
    git: section(
      {
        repository: secret('Git repository URL, `http://` or `https://` (Flagpole reads Git over HTTP only). Not shown in `/meta/config` (a URL may carry credentials); `/health` shows it without them.'),
        ref: str('main', 'Branch or tag to track.'),
        refType: oneOf(['static', 'semver'], 'static', 'How `ref` is resolved; only `static` (the ref as named) is supported.'),
        directory: str('', 'Sub-directory of the repository holding the state files (and its `.flipt.yml`).'),
        pollInterval: duration('30s', 'How often the repository is fetched; a new commit is served within this.', { min: 200 }),
        backend: section({
          type: oneOf(['memory', 'local'], 'memory', 'Where the fetched objects live: `memory`, a temporary directory removed at exit; `local`, `backend.path`.'),
          path: str('', 'Directory for the fetched objects with backend `local`.'),
        }),
        authentication: section(
          {
            basic: section({
              username: secret('Git basic-auth user.'),
              password: secret('Git basic-auth password.'),
            }),
            token: section({ accessToken: secret('Git access token, sent as `Authorization: Bearer` (as Flipt does).') }),
            ssh: section({
              user: str('git', 'SSH user.', { inert: true, json: false }),
              password: secret('SSH key password.', { inert: true }),
              privateKeyBytes: secret('SSH private key.', { inert: true }),
              privateKeyPath: secret('SSH private key file.', { inert: true }),
              insecureIgnoreHostKey: bool(false, 'Skip SSH host key verification.', { inert: true, json: false }),
            }),
          },
          { json: false },
        ),
        caCertBytes: secret('PEM CA certificate(s) for the Git server.'),
        caCertPath: secret('File with PEM CA certificate(s) for the Git server.'),
        insecureSkipTLS: bool(false, 'Skip TLS verification of the Git server.', { json: false }),
      },
      { viewIf: when('storage.type', 'git') },
    ),
    object: section(
      {
        type: oneOf(['', 's3', 'azblob', 'googlecloud'], '', 'Object store type.', { inert: true }),
        s3: section({
          endpoint: str('', 'S3 endpoint override.', { inert: true }),
          bucket: str('', 'Bucket.', { inert: true }),
          prefix: str('', 'Key prefix.', { inert: true }),
          region: str('', 'Region.', { inert: true }),
          pollInterval: duration('1m', 'How often the bucket is read.', { inert: true }),
        }),
        azblob: section({
          container: str('', 'Container.', { inert: true }),
          endpoint: str('', 'Endpoint.', { inert: true }),
          pollInterval: duration('1m', 'How often the container is read.', { inert: true }),
        }),
        googlecloud: section({
          bucket: str('', 'Bucket.', { inert: true }),
          prefix: str('', 'Key prefix.', { inert: true }),
          pollInterval: duration('1m', 'How often the bucket is read.', { inert: true }),
        }),
      },
      { viewIf: when('storage.type', 'object') },
    ),
    oci: section(
      {
        repository: str('', 'OCI repository `[<registry>/]<bundle>[:<tag>]`.', { inert: true }),
        bundlesDirectory: str('', 'Local bundle directory.', { inert: true, json: 'bundles_directory' }),
        authentication: section(
          {
            type: oneOf(['static', 'aws-ecr'], 'static', 'Registry credential type.', { inert: true }),
            username: secret('Registry user.', { inert: true }),
            password: secret('Registry password.', { inert: true }),
          },
          { json: false },
        ),
        pollInterval: duration('30s', 'How often the registry is polled.', { inert: true }),
        manifestVersion: oneOf(['1.0', '1.1'], '1.1', 'OCI manifest version of pushed bundles.', { inert: true }),
      },
      { viewIf: when('storage.type', 'oci') },
    ),
  }),
  metrics: section({
    enabled: bool(true, 'Serve Prometheus metrics at `/metrics`.', { keepEmpty: true }),
    requireAuthentication: bool(
      false,
      'Flagpole addition: with `authentication.required`, `/metrics` needs a credential like any API route (it names namespaces, flags and variants).',
      { json: false },
    ),
    exporter: oneOf(['prometheus', 'otlp'], 'prometheus', 'Metrics exporter: `prometheus` (served at `/metrics`) or `otlp` (the same metrics also pushed to `metrics.otlp.endpoint`).'),
    otlp: section(otlp('metrics (exporter `otlp`): `http(s)://` = OTLP/HTTP protobuf, `grpc://` or no scheme = OTLP/gRPC', false, 'localhost:4317'), { viewIf: when('metrics.exporter', 'otlp') }),
    exportInterval: duration('60s', 'Flagpole addition: how often the metrics are pushed with exporter `otlp`.', { min: 100, json: false }),
  }),
  tracing: section({
    enabled: bool(false, 'Export OpenTelemetry traces (docs/deployment.md, Tracing).'),
    exporter: oneOf(['jaeger', 'zipkin', 'otlp'], 'jaeger', 'Trace exporter. `jaeger` is deprecated (as in Flipt): Flagpole sends OTLP/gRPC to `tracing.jaeger.host`, port 4317 (Jaeger\'s OTLP receiver).'),
    samplingRatio: float(1, 'Fraction of traces sampled (0..1), decided by trace id, for continued traces too (as Flipt samples): 0 sends nothing.', { min: 0, max: 1 }),
    propagators: list(['tracecontext', 'baggage'], 'Context propagators read from requests: `tracecontext`, `baggage`, `b3`, `b3multi`, `none` (`jaeger`, `xray`, `ottrace` are ignored with a warning).', { values: PROPAGATORS }),
    jaeger: section({
      host: str('localhost', 'Jaeger host (exporter `jaeger`); its OTLP/gRPC port 4317 receives the spans.'),
      port: port(6831, 'Jaeger agent UDP port: not used (the Thrift agent protocol has no OpenTelemetry JS exporter).', { inert: true }),
    }),
    zipkin: section({
      endpoint: str('http://localhost:9411/api/v2/spans', 'Zipkin collector URL (JSON v2).'),
    }),
    otlp: section(otlp('traces: `http(s)://` = OTLP/HTTP protobuf, `grpc://` or no scheme = OTLP/gRPC', false, 'localhost:4317')),
    serviceName: str('flagpole', 'Flagpole addition: the `service.name` resource attribute of every span (`OTEL_SERVICE_NAME` wins when set).', { json: false }),
    resourceAttributes: stringMap('<ATTRIBUTE>', 'Flagpole addition: further resource attributes of every span and metric (`deployment.environment.name: prod`); `OTEL_RESOURCE_ATTRIBUTES` adds to them.', { json: false }),
  }),
  ui: section({
    enabled: bool(true, 'Serve the web UI.', { keepEmpty: true }),
    defaultTheme: oneOf(['system', 'dark', 'light'], 'system', 'Initial UI theme.'),
    topbar: section({
      color: str('', 'Top bar colour of the UI, `#rgb` or `#rrggbb`.', {
        check: (v) => (/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(v) ? undefined : 'must be a colour like #aabbcc or #abc'),
      }),
      label: str('', 'Top bar label of the UI (e.g. the environment name).'),
    }),
  }),
  streams: section(
    {
      heartbeatInterval: duration('15s', 'How often an open event stream gets a comment line, so that proxies and load balancers keep it open (at most half of `limits.idle_timeout` is used).', { min: 1000 }),
      inactivityDelay: duration('2m', 'The `inactivityDelaySec` OFREP bulk answers advertise: how long a web client hidden in the background keeps its event stream open.', { min: 1000 }),
      ticketTtl: duration('5m', 'How long the stream ticket in an authenticated OFREP bulk answer\'s stream URL admits its stream (at least this long, at most twice: tickets issued within one period are the same, so the URL is stable; docs/api.md "Stream tickets").', { min: 1000 }),
      ticketSecret: secret('Key stream tickets are signed with. Empty = a random key per process, so a ticket is accepted only by the instance that issued it: behind a load balancer, give every instance the same secret (32+ random characters).'),
    },
    { json: false },
  ),
  schedules: section(
    {
      pollInterval: duration('500ms', 'How often each instance looks for scheduled changes that are due (one indexed query); a change applies within about this long of its time.', { min: 10 }),
      lease: duration('10s', 'How long an instance holds a due schedule while it applies it; another instance takes a schedule over only after this (its holder stopped mid-way).', { min: 1000 }),
      maxSteps: int(50, 'Most steps of one schedule (a progressive rollout\'s percentages).', { min: 1, max: 1000 }),
      maxActivePerFlag: int(20, 'Most schedules of one flag that are active or paused at once; one more is refused (400).', { min: 1, max: 10000 }),
      retention: duration('720h', 'How long a closed schedule (completed, failed or cancelled) is kept after its last change; 0 = forever. Open schedules are never deleted; what a schedule changed stays in the audit trail.'),
      cleanupInterval: duration('1h', 'How often closed schedules past `schedules.retention` are deleted (one instance per round).', { min: 1000 }),
    },
    { json: false },
  ),
  lifecycle: section(
    {
      enabled: bool(true, 'Check every flag\'s lifecycle (new, live, potentially stale, archived) every `check_interval`, on one instance per round, and serve the flag-health routes (docs/api.md, Flag lifecycle).'),
      checkInterval: duration('1h', 'How often the flags\' lifecycle states are worked out and stored (the `?stale` filter, the flag-health report and the gauge read them); the first check runs at start.', { min: 1000 }),
      defaultKind: oneOf(FLAG_KINDS, 'release', 'Kind of a flag whose metadata names none (`metadata.flagpole.kind`).'),
      lifetimes: lifetimes('960h', '960h', '168h', 'Expected lifetime of a'),
      unusedAfter: duration('720h', 'A flag not evaluated for this long (30 days) is potentially stale (reason `unused`). Needs analytics; 0 = never for this reason.'),
      rolledOutAfter: duration('336h', 'A flag whose every evaluation for this long (14 days) returned one and the same value, and which did not change in that time, is potentially stale (reason `rolled_out`). Needs analytics; 0 = never for this reason.'),
      namespaces: mapOf(
        '<NAMESPACE>',
        {
          defaultKind: oneOf(['', ...FLAG_KINDS] as const, '', 'The namespace\'s default kind; empty = `lifecycle.default_kind`.'),
          lifetimes: lifetimes('0s', '0s', '0s', 'The namespace\'s lifetime of a', ' 0 = the global `lifecycle.lifetimes` value.'),
        },
        'Per namespace (its key in lower case; namespaces whose key has capitals or `-` are set in YAML): its own default kind and lifetimes.',
      ),
    },
    { json: false },
  ),
  limits: section(
    {
      maxBodyBytes: int(4 * 1024 * 1024, 'Largest request body in bytes (Flipt\'s gRPC message limit); larger → 413.', { min: 1024 }),
      maxEvaluationBodyBytes: int(1024 * 1024, 'Largest request body of the evaluation routes (`/evaluate/v1/*`, `/api/v1/evaluate`, `/api/v1/batch-evaluate` and OFREP\'s two evaluation routes) in bytes; larger → 413. A batch of 1,000 requests with three-key contexts is about 150 KiB.', { min: 1024 }),
      maxBodyBytesInFlight: int(64 * 1024 * 1024, 'Most bytes of request bodies held while they are received, across all requests; a body that would take them past it → 503 (Unavailable), and the connection is closed. Keep it above `max_import_bytes`.', { min: 1024 }),
      minBodyRate: int(4096, 'Slowest a request body may arrive once `body_rate_grace` is over, in bytes per second averaged from the start of the body beyond the grace (as Apache\'s mod_reqtimeout `MinRate`); slower → 408 and the connection is closed. 0 = no minimum.'),
      bodyRateGrace: duration('5s', 'How long a request body may take before `min_body_rate` applies to it.'),
      lingerTimeout: duration('2s', 'How long the rest of a refused body (413, 503, 408) is read and thrown away after the answer, so that a client still sending reads the answer instead of a reset connection; then the connection is closed.'),
      maxLingerBytes: int(16 * 1024 * 1024, 'Most bytes of a refused body read and thrown away after the answer (see `linger_timeout`); then the connection is closed.'),
      maxImportBytes: int(8 * 1024 * 1024, 'Largest document an import request may send, in bytes (`POST /api/v1/namespaces/{key}/import`; 10,000 flags take about 2.5 MiB); larger → 413. It is read on the event loop: every request waits while it is.', { min: 1024 }),
      importReadTimeout: duration('10s', 'Longest an import\'s document may take to be read (in a process of its own, beside the event loop); past it the import is refused (400) and the process killed.', { min: 1000 }),
      maxImportsWaiting: int(4, 'Most imports whose documents wait to be read while another is (one is read at a time); past it → 503.', { min: 1 }),
      importReadHeapMb: int(256, 'Heap of the process that reads import documents, in MiB (its own --max-old-space-size, whatever the server\'s); a document that needs more is refused (400) and the server goes on.', { min: 32 }),
      maxJsonDepth: int(64, 'Deepest nesting of arrays and objects in a JSON body; deeper → 400.', { min: 2, max: 1000 }),
      maxYamlAliasNodes: int(10000, 'Most nodes (mappings, lists, scalars) the YAML aliases of one text may stand for, nested aliases expanded: an import body, a declarative storage file, the authorization policy. Past it the text is refused (400 for an import) naming the alias; counting takes one pass over the text, however many aliases it has.', { min: 0 }),
      maxBatchRequests: int(1000, 'Most evaluations in one batch request; more → 400.', { min: 1 }),
      maxBatchNamespaces: int(10, 'Most distinct namespaces in one batch request; more → 400.', { min: 1 }),
      unknownNamespaceTtl: duration('5s', 'How long a namespace found not to exist is remembered by evaluation (no query per request); 0 = not remembered.'),
      unknownNamespaceEntries: int(10000, 'Most unknown namespaces remembered at once (oldest forgotten first).'),
      maxMetricSeries: int(10000, 'Most label combinations per evaluation metric; past it new ones share the `_other` series.', { min: 1 }),
      requestTimeout: duration('30s', 'Longest time to receive a whole request (headers and body); slower → the connection is closed. 0 = none.'),
      idleTimeout: duration('2m', 'Close a connection that sends nothing for this long (keep-alive connections too). 0 = never.'),
      maxConnections: int(20000, 'Most open HTTP connections (event streams included); past it new ones are closed at once. 0 = unlimited.'),
      maxGrpcWatchStreams: int(1000, 'Most open gRPC health `Watch` streams; past it new ones fail with RESOURCE_EXHAUSTED.'),
      maxSnapshotLoads: int(4, 'Most namespace snapshots loaded from the database at once (start-up, missed changes); others queue, and evaluations of namespaces already loaded never wait for them.', { min: 1 }),
      maxEventStreams: int(10000, 'Most event streams (OFREP and snapshot change streams) open on this instance; past it new ones get 503 with Retry-After. Each is an open connection: keep `max_connections` above it.', { min: 0 }),
      maxEventStreamsPerCredential: int(100, 'Most event streams one caller may hold open on this instance: one authentication (a static token, a session), one JWT subject, or, without a credential, one client address (behind a proxy, the proxy\'s: raise it there); past it its new ones get 429 with Retry-After. 0 = no limit but `max_event_streams`.', { min: 0 }),
      eventStreamWriteTimeout: duration('30s', 'Longest an event stream\'s written bytes may wait unsent (its client stopped reading and the connection\'s buffers are full); then it is closed and its slot freed. A stream with more than 64 KiB unsent is closed at once.', { min: 1000 }),
      maxAuditBacklog: int(10000, 'Most audit events waiting for one destination (a webhook, a template, the stored trail) while it is down or slow; past it the oldest waiting event is dropped, logged and counted in `flagpole_audit_events_dropped_total`.', { min: 1 }),
      maxAnalyticsBacklog: int(100000, 'Most evaluation counts (one per minute, namespace, flag, variant and reason; about 200 bytes each) one instance holds while its flushes fail (database down); past it the oldest minutes are dropped, logged and counted in `flagpole_analytics_counts_dropped_total`, and new combinations are not counted until a flush succeeds.', { min: 100 }),
      maxAuditBacklogBytes: int(16 * 1024 * 1024, 'Most bytes of audit events (their JSON) waiting for one destination (a webhook, a template, the stored trail, the log file); past it the oldest waiting events are dropped, logged and counted in `flagpole_audit_events_dropped_total`, and an event larger than this on its own is dropped at once.', { min: 64 * 1024 }),
      maxChangeMessageBytes: int(1024 * 1024, 'Largest write delta sent to the other instances over Redis; a larger write is announced without its content and they reload the namespace.', { min: 1024 }),
    },
    { json: false },
  ),
};

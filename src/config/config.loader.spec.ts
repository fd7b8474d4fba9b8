import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig, loadConfigWithWarnings, resolveEnvPath } from './config.loader';
import { CONFIG_SCHEMA } from './config.schema';
import type { AnySchema } from './config.fields';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flagpole-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function yamlFile(text: string, name = `config-${Math.random().toString(36).slice(2)}.yml`): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function load(env: NodeJS.ProcessEnv = {}, argv: string[] = []) {
  return loadConfigWithWarnings({ argv, env, cwd: dir });
}

/** The lines of the ConfigError a load throws (without the heading). */
function problems(env: NodeJS.ProcessEnv = {}, argv: string[] = []): string[] {
  try {
    load(env, argv);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const [heading, ...lines] = (e as ConfigError).message.split('\n');
    expect(heading).toBe('invalid configuration:');
    return lines.map((line) => line.trim());
  }
  throw new Error('expected the configuration to be refused');
}

describe('defaults', () => {
  it('are Flipt v1 defaults, with the database under ./data', () => {
    const { config, warnings, file } = load();
    expect(warnings).toEqual([]);
    expect(file).toBeUndefined();
    expect(config.version).toBe('');
    expect(config.log).toEqual({
      level: 'INFO',
      file: '',
      encoding: 'console',
      grpcLevel: 'ERROR',
      keys: { time: 'T', level: 'L', message: 'M' },
    });
    expect(config.server).toMatchObject({ host: '0.0.0.0', protocol: 'http', httpPort: 8080, httpsPort: 443, grpcPort: 9000 });
    expect(config.db).toMatchObject({
      url: `file:${join(dir, 'data', 'flagpole.db')}`,
      maxIdleConn: 2,
      maxOpenConn: 0,
      connMaxLifetime: 0,
      preparedStatementsEnabled: true,
    });
    expect(config.cache).toMatchObject({ enabled: false, backend: 'memory', ttl: 60_000, memory: { evictionInterval: 300_000 } });
    expect(config.cache.redis).toMatchObject({ host: 'localhost', port: 6379, db: 0, prefix: '', mode: 'single', poolSize: 0 });
    expect(config.cors.allowedOrigins).toEqual(['*']);
    expect(config.cors.allowedHeaders).toContain('X-Flipt-Namespace');
    expect(config.storage.type).toBe('database');
    expect(config.diagnostics.profiling.enabled).toBe(true);
    expect(config.meta).toEqual({ checkForUpdates: true, telemetryEnabled: true, stateDirectory: '' });
    expect(config.metrics).toMatchObject({ enabled: true, exporter: 'prometheus' });
    expect(config.tracing).toMatchObject({
      enabled: false,
      exporter: 'jaeger',
      samplingRatio: 1,
      propagators: ['tracecontext', 'baggage'],
      jaeger: { host: 'localhost', port: 6831 },
      zipkin: { endpoint: 'http://localhost:9411/api/v2/spans' },
      otlp: { endpoint: 'localhost:4317', headers: {} },
    });
    expect(config.audit).toMatchObject({ buffer: { capacity: 2, flushPeriod: 120_000 }, events: ['*:*'] });
    expect(config.audit.sinks.kafka.encoding).toBe('protobuf');
    expect(config.analytics.buffer.flushPeriod).toBe(10_000);
    expect(config.ui).toEqual({ enabled: true, defaultTheme: 'system', topbar: { color: '', label: '' } });
    expect(config.authentication.required).toBe(false);
    expect(config.authentication.session).toEqual({
      domain: '',
      secure: false,
      tokenLifetime: 86_400_000,
      stateLifetime: 600_000,
      csrf: { key: '', secure: true, trustedOrigins: [] },
    });
    expect(config.authorization.required).toBe(false);
    expect(config.experimental).toEqual({});
  });

  it('leave method defaults out until the method is enabled, as Flipt does', () => {
    const { methods } = load().config.authentication;
    expect(methods.token.cleanup).toEqual({ interval: 0, gracePeriod: 0 });
    expect(methods.kubernetes.discoveryURL).toBe('');
    expect(methods.github.serverUrl).toBe('https://github.com');

    const enabled = load({
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ENABLED: 'true',
    }).config.authentication.methods;
    expect(enabled.token.cleanup).toEqual({ interval: 3_600_000, gracePeriod: 1_800_000 });
    expect(enabled.kubernetes).toMatchObject({
      cleanup: { interval: 3_600_000, gracePeriod: 1_800_000 },
      discoveryURL: 'https://kubernetes.default.svc.cluster.local',
      caPath: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
      serviceAccountTokenPath: '/var/run/secrets/kubernetes.io/serviceaccount/token',
      allowedServiceAccounts: [],
    });
  });

  it('put the default database under FLAGPOLE_DATA_DIR, relative to the working directory', () => {
    expect(load({ FLAGPOLE_DATA_DIR: 'state' }).config.db.url).toBe(`file:${join(dir, 'state', 'flagpole.db')}`);
    expect(load({ FLAGPOLE_DATA_DIR: '/var/lib/flagpole' }).config.db.url).toBe('file:/var/lib/flagpole/flagpole.db');
  });

  it('give each load its own objects', () => {
    const a = loadConfig({ argv: [], env: {}, cwd: dir });
    a.cors.allowedOrigins.push('https://x.example');
    expect(loadConfig({ argv: [], env: {}, cwd: dir }).cors.allowedOrigins).toEqual(['*']);
  });
});

describe('the configuration file', () => {
  const yaml = `
version: "1.0"
log:
  level: debug
  encoding: json
server:
  http_port: 8081
  grpc_port: 9001
db:
  url: postgres://flagpole@db:5432/flagpole
cache:
  enabled: true
  ttl: 5m
cors:
  allowed_origins: [https://a.example, https://b.example]
`;

  it('is read from --config PATH, --config=PATH or FLAGPOLE_CONFIG', () => {
    const path = yamlFile(yaml);
    for (const [env, argv] of [
      [{}, ['--config', path]],
      [{}, ['migrate', `--config=${path}`]],
      [{ FLAGPOLE_CONFIG: path }, []],
    ] as Array<[NodeJS.ProcessEnv, string[]]>) {
      const { config, file } = load(env, argv);
      expect(file).toBe(path);
      expect(config.log).toMatchObject({ level: 'DEBUG', encoding: 'json' });
      expect(config.server).toMatchObject({ httpPort: 8081, grpcPort: 9001, httpsPort: 443 });
      expect(config.db.url).toBe('postgres://flagpole@db:5432/flagpole');
      expect(config.cache).toMatchObject({ enabled: true, ttl: 300_000 });
      expect(config.cors.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    }
  });

  it('given on the command line wins over FLAGPOLE_CONFIG, and resolves against the working directory', () => {
    yamlFile('server:\n  http_port: 7000\n', 'relative.yml');
    const other = yamlFile('server:\n  http_port: 7001\n');
    expect(load({ FLAGPOLE_CONFIG: other }, ['--config', 'relative.yml']).config.server.httpPort).toBe(7000);
  });

  it('must exist when named', () => {
    expect(problems({}, ['--config', join(dir, 'missing.yml')])).toEqual([
      `config file ${join(dir, 'missing.yml')} (given by --config) does not exist`,
    ]);
    expect(problems({ FLAGPOLE_CONFIG: join(dir, 'nope.yml') })[0]).toContain('(given by FLAGPOLE_CONFIG) does not exist');
    expect(problems({}, ['--config'])).toEqual(['--config needs the path of a YAML file']);
  });

  it('must be YAML holding a mapping', () => {
    const broken = yamlFile('server:\n  http_port: [8080\n');
    expect(problems({}, ['--config', broken])[0]).toMatch(new RegExp(`^config file ${broken} is not valid YAML at line \\d+, column \\d+: `));
    const list = yamlFile('- a\n- b\n');
    expect(problems({}, ['--config', list])).toEqual([`config file ${list} must hold a mapping of settings, got a list`]);
    expect(load({}, ['--config', yamlFile('')]).config.server.httpPort).toBe(8080);
  });

  it('may have unknown keys, reported as warnings', () => {
    const path = yamlFile('server:\n  htp_port: 1\n  http_port: 8082\nfeatures: {}\n');
    const { config, warnings } = load({}, ['--config', path]);
    expect(config.server.httpPort).toBe(8082);
    expect(warnings).toEqual([
      `unknown key "server.htp_port" in ${path} (ignored)`,
      `unknown key "features" in ${path} (ignored)`,
    ]);
  });

  it('matches keys case-insensitively and lower-cases map keys, as Flipt (viper) does', () => {
    const path = yamlFile(`
Server:
  HTTP_PORT: 8083
authentication:
  methods:
    token:
      bootstrap:
        metadata:
          Is_Bootstrap: "yes"
    oidc:
      providers:
        Google:
          client_id: abc
`);
    const { config } = load({}, ['--config', path]);
    expect(config.server.httpPort).toBe(8083);
    expect(config.authentication.methods.token.bootstrap.metadata).toEqual({ is_bootstrap: 'yes' });
    expect(Object.keys(config.authentication.methods.oidc.providers)).toEqual(['google']);
  });

  it('accepts version 1.0 written as a number, and nothing else', () => {
    expect(load({}, ['--config', yamlFile('version: 1.0\n')]).config.version).toBe('1.0');
    expect(problems({}, ['--config', yamlFile('version: "2.0"\n')])).toEqual(['version (FLAGPOLE_VERSION): must be "1.0", got "2.0"']);
  });
});

describe('environment variables', () => {
  it('override the file', () => {
    const path = yamlFile('server:\n  http_port: 8081\n  host: 127.0.0.1\nlog:\n  level: WARN\n');
    const { config } = load({ FLAGPOLE_SERVER_HTTP_PORT: '9090', FLAGPOLE_LOG_LEVEL: 'error' }, ['--config', path]);
    expect(config.server).toMatchObject({ httpPort: 9090, host: '127.0.0.1' });
    expect(config.log.level).toBe('ERROR');
  });

  it('are resolved against the schema, not split at every underscore', () => {
    const schema = CONFIG_SCHEMA as unknown as AnySchema;
    const resolve = (name: string) => resolveEnvPath(name.split('_'), schema)?.join('.');
    expect(resolve('SERVER_HTTP_PORT')).toBe('server.http_port');
    expect(resolve('DB_MAX_IDLE_CONN')).toBe('db.max_idle_conn');
    expect(resolve('DB_PREPARED_STATEMENTS_ENABLED')).toBe('db.prepared_statements_enabled');
    expect(resolve('CACHE_REDIS_CA_CERT_PATH')).toBe('cache.redis.ca_cert_path');
    expect(resolve('AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN')).toBe('authentication.methods.token.bootstrap.token');
    expect(resolve('AUTHENTICATION_SESSION_CSRF_TRUSTED_ORIGINS')).toBe('authentication.session.csrf.trusted_origins');
    expect(resolve('AUTHENTICATION_METHODS_KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH')).toBe(
      'authentication.methods.kubernetes.service_account_token_path',
    );
    expect(resolve('STORAGE_READ_ONLY')).toBe('storage.read_only');
    expect(resolve('SERVER_HTTP')).toBeUndefined();
    expect(resolve('SERVER_HTTP_PORT_X')).toBeUndefined();
    expect(resolve('SERVER')).toBeUndefined();
  });

  it('name map entries', () => {
    const { config } = load({
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_CLIENT_ID: 'id-1',
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_CLIENT_SECRET: 'secret-1',
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_MY_IDP_ISSUER_URL: 'https://idp.example',
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_MY_IDP_USE_PKCE: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_METADATA_IS_BOOTSTRAP: 'true',
      FLAGPOLE_TRACING_OTLP_HEADERS_API_KEY: 'k',
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_ALLOWED_TEAMS_ACME: 'core  platform',
    });
    const { oidc, token, github } = config.authentication.methods;
    expect(oidc.providers.google).toMatchObject({ clientId: 'id-1', clientSecret: 'secret-1', nonce: 'static' });
    expect(oidc.providers.my_idp).toMatchObject({ issuerURL: 'https://idp.example', usePKCE: true, clientId: '' });
    expect(token.bootstrap.metadata).toEqual({ is_bootstrap: 'true' });
    expect(config.tracing.otlp.headers).toEqual({ api_key: 'k' });
    expect(github.allowedTeams).toEqual({ acme: ['core', 'platform'] });
  });

  it('merge into map entries of the file', () => {
    const path = yamlFile(`
authentication:
  methods:
    oidc:
      providers:
        google:
          client_id: from-file
          redirect_address: https://flags.example
`);
    const { config } = load({ FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_CLIENT_ID: 'from-env' }, ['--config', path]);
    expect(config.authentication.methods.oidc.providers.google).toMatchObject({
      clientId: 'from-env',
      redirectAddress: 'https://flags.example',
    });
  });

  it('split lists on whitespace', () => {
    const { config } = load({
      FLAGPOLE_CORS_ALLOWED_ORIGINS: ' https://a.example\thttps://b.example  https://c.example ',
      FLAGPOLE_TRACING_PROPAGATORS: 'b3 jaeger',
      FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ALLOWED_SERVICE_ACCOUNTS: 'prod/* staging/reader',
    });
    expect(config.cors.allowedOrigins).toEqual(['https://a.example', 'https://b.example', 'https://c.example']);
    expect(config.tracing.propagators).toEqual(['b3', 'jaeger']);
    expect(config.authentication.methods.kubernetes.allowedServiceAccounts).toEqual(['prod/*', 'staging/reader']);
    expect(load({}, ['--config', yamlFile('cors:\n  allowed_origins: "a b"\n')]).config.cors.allowedOrigins).toEqual(['a', 'b']);
  });

  it('read booleans as true/false/1/0 and numbers from strings', () => {
    const on = load({ FLAGPOLE_CACHE_ENABLED: '1', FLAGPOLE_UI_ENABLED: 'FALSE', FLAGPOLE_CORS_ENABLED: 't' }).config;
    expect([on.cache.enabled, on.ui.enabled, on.cors.enabled]).toEqual([true, false, true]);
    const off = load({ FLAGPOLE_METRICS_ENABLED: '0', FLAGPOLE_TRACING_SAMPLING_RATIO: '0.25', FLAGPOLE_DB_MAX_OPEN_CONN: ' 12 ' });
    expect(off.config.metrics.enabled).toBe(false);
    expect(off.config.tracing.samplingRatio).toBe(0.25);
    expect(off.config.db.maxOpenConn).toBe(12);
  });

  it('count as unset when empty, and are warned about when they name no key', () => {
    const { config, warnings } = load({
      FLAGPOLE_LOG_LEVEL: '',
      FLAGPOLE_SERVER_HTTP_PROT: '1',
      FLAGPOLE_TEST_POSTGRES_URL: 'postgres://x',
      FLAGPOLE_DATA_DIR: 'data',
      OTHER: 'x',
    });
    expect(config.log.level).toBe('INFO');
    expect(warnings).toEqual(['FLAGPOLE_SERVER_HTTP_PROT does not name a configuration key (ignored)']);
  });

  it('set webhook templates as a JSON array', () => {
    const { config } = load({
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES: '[{"url": "https://hook.example", "body": "{}", "headers": {"X-Key": "v"}}]',
    });
    expect(config.audit.sinks.webhook.templates).toEqual([{ url: 'https://hook.example', body: '{}', headers: { 'X-Key': 'v' } }]);
  });
});

describe('${NAME} substitution', () => {
  it('replaces whole values, in the file and in variables, lists and maps included', () => {
    const path = yamlFile(`
server:
  http_port: \${HTTP_PORT}
log:
  encoding: \${LOG_FORMAT}
  file: prefix-\${LOG_FORMAT}
cors:
  allowed_origins:
    - \${ORIGIN}
    - https://static.example
authentication:
  methods:
    token:
      bootstrap:
        metadata:
          team: \${TEAM}
`);
    const { config } = load(
      {
        HTTP_PORT: '18080',
        LOG_FORMAT: 'json',
        ORIGIN: 'https://dyn.example',
        TEAM: 'core',
        SECRET_TOKEN: 's3cr3t',
        FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: '${SECRET_TOKEN}',
      },
      ['--config', path],
    );
    expect(config.server.httpPort).toBe(18080);
    expect(config.log.encoding).toBe('json');
    expect(config.log.file).toBe('prefix-${LOG_FORMAT}');
    expect(config.cors.allowedOrigins).toEqual(['https://dyn.example', 'https://static.example']);
    expect(config.authentication.methods.token.bootstrap).toMatchObject({ token: 's3cr3t', metadata: { team: 'core' } });
  });

  it('gives an empty value for an unset variable', () => {
    const path = yamlFile('log:\n  file: ${NOT_SET_ANYWHERE}\n');
    expect(load({}, ['--config', path]).config.log.file).toBe('');
  });
});

describe('durations', () => {
  it('take Go syntax from the file and from variables', () => {
    const path = yamlFile('cache:\n  ttl: 1h30m\nauthentication:\n  session:\n    token_lifetime: 2h45m10s\n');
    const { config } = load({ FLAGPOLE_CACHE_MEMORY_EVICTION_INTERVAL: '500ms', FLAGPOLE_DB_CONN_MAX_LIFETIME: '0' }, ['--config', path]);
    expect(config.cache.ttl).toBe(5_400_000);
    expect(config.cache.memory.evictionInterval).toBe(500);
    expect(config.authentication.session.tokenLifetime).toBe(9_910_000);
    expect(config.db.connMaxLifetime).toBe(0);
  });

  it('refuse bare numbers, negative values and garbage', () => {
    const path = yamlFile('cache:\n  ttl: 60\n');
    expect(problems({ FLAGPOLE_AUTHENTICATION_SESSION_STATE_LIFETIME: '-5m', FLAGPOLE_CACHE_MEMORY_EVICTION_INTERVAL: 'soon' }, ['--config', path])).toEqual([
      'authentication.session.state_lifetime (FLAGPOLE_AUTHENTICATION_SESSION_STATE_LIFETIME): must not be negative, got "-5m"',
      'cache.ttl (FLAGPOLE_CACHE_TTL): must be a duration with a unit, such as 30s, 5m or 1h30m, got 60 (a bare number is ambiguous: Flipt reads it as nanoseconds)',
      'cache.memory.eviction_interval (FLAGPOLE_CACHE_MEMORY_EVICTION_INTERVAL): must be a duration such as 30s, 5m or 1h30m, got "soon"',
    ]);
  });
});

describe('a bad configuration', () => {
  it('is refused with one ConfigError naming every bad key, its variable and the reason', () => {
    const path = yamlFile(`
log:
  level: LOUD
server:
  protocol: gopher
cache:
  redis:
    port: 70000
ui:
  topbar:
    color: red
tracing:
  sampling_ratio: 2
  propagators: [b3, carrier-pigeon]
cors:
  allowed_origins: {a: 1}
audit:
  buffer:
    capacity: 11
    flush_period: 1m
`);
    expect(
      problems({ FLAGPOLE_SERVER_HTTP_PORT: 'abc', FLAGPOLE_CACHE_ENABLED: 'yes', FLAGPOLE_DB_MAX_IDLE_CONN: '-1' }, ['--config', path]),
    ).toEqual([
      'audit.buffer.capacity (FLAGPOLE_AUDIT_BUFFER_CAPACITY): must be an integer between 2 and 10, got 11',
      'audit.buffer.flush_period (FLAGPOLE_AUDIT_BUFFER_FLUSH_PERIOD): must be between 2m and 5m, got "1m"',
      'cache.enabled (FLAGPOLE_CACHE_ENABLED): must be true or false, got "yes"',
      'cache.redis.port (FLAGPOLE_CACHE_REDIS_PORT): must be an integer between 0 and 65535, got 70000',
      'cors.allowed_origins (FLAGPOLE_CORS_ALLOWED_ORIGINS): must be a list (or one whitespace-separated string), got a mapping',
      'db.max_idle_conn (FLAGPOLE_DB_MAX_IDLE_CONN): must be a non-negative integer, got "-1"',
      'log.level (FLAGPOLE_LOG_LEVEL): must be one of DEBUG, INFO, WARN, ERROR, DPANIC, PANIC, FATAL, got "LOUD"',
      'server.protocol (FLAGPOLE_SERVER_PROTOCOL): must be one of http, https, got "gopher"',
      'server.http_port (FLAGPOLE_SERVER_HTTP_PORT): must be an integer between 0 and 65535, got "abc"',
      'tracing.sampling_ratio (FLAGPOLE_TRACING_SAMPLING_RATIO): must be a number between 0 and 1, got 2',
      'tracing.propagators (FLAGPOLE_TRACING_PROPAGATORS): item "carrier-pigeon" must be one of tracecontext, baggage, b3, b3multi, jaeger, xray, ottrace, none',
      'ui.topbar.color (FLAGPOLE_UI_TOPBAR_COLOR): must be a colour like #aabbcc or #abc, got "red"',
    ]);
  });

  it('names map entries and never echoes secrets', () => {
    const path = yamlFile(`
cache:
  redis:
    password: [hunter2]
authentication:
  methods:
    oidc:
      providers:
        google:
          use_pkce: maybe
`);
    expect(problems({}, ['--config', path])).toEqual([
      'authentication.methods.oidc.providers.google.use_pkce (FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_GOOGLE_USE_PKCE): must be true or false, got "maybe"',
      'cache.redis.password (FLAGPOLE_CACHE_REDIS_PASSWORD): must be a string, got a list',
    ]);
  });

  it('reports a section that is not a mapping', () => {
    const path = yamlFile('server: 8080\n');
    expect(problems({}, ['--config', path])).toEqual(['server (FLAGPOLE_SERVER): must be a mapping of settings, got 8080']);
  });

  it('carries the issues for programmatic use', () => {
    try {
      load({ FLAGPOLE_SERVER_GRPC_PORT: '-1' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).name).toBe('ConfigError');
      expect((e as ConfigError).issues).toEqual([
        { key: 'server.grpc_port', env: 'FLAGPOLE_SERVER_GRPC_PORT', reason: 'must be an integer between 0 and 65535, got "-1"' },
      ]);
    }
  });
});

describe('working directory', () => {
  it('is where relative certificate paths are looked up', () => {
    mkdirSync(join(dir, 'tls'), { recursive: true });
    writeFileSync(join(dir, 'tls', 'cert.pem'), 'x');
    writeFileSync(join(dir, 'tls', 'key.pem'), 'x');
    const { config } = load({
      FLAGPOLE_SERVER_PROTOCOL: 'https',
      FLAGPOLE_SERVER_CERT_FILE: 'tls/cert.pem',
      FLAGPOLE_SERVER_CERT_KEY: 'tls/key.pem',
    });
    expect(config.server.protocol).toBe('https');
  });
});

import { AnySchema, yamlKey } from './config.fields';
import { envName, loadConfig } from './config.loader';
import { redactConfig } from './config.redact';
import { CONFIG_SCHEMA } from './config.schema';

const load = (env: NodeJS.ProcessEnv = {}) => loadConfig({ argv: [], env, cwd: '/srv/flagpole' });

describe('redactConfig (the /meta/config view)', () => {
  it('has Flipt\'s top-level keys in Flipt\'s order, version only when set', () => {
    expect(Object.keys(redactConfig(load()))).toEqual([
      'audit',
      'authentication',
      'authorization',
      'cache',
      'cors',
      'db',
      'diagnostics',
      'experimental',
      'log',
      'meta',
      'analytics',
      'server',
      'storage',
      'metrics',
      'tracing',
      'ui',
    ]);
    expect(redactConfig(load({ FLAGPOLE_VERSION: '1.0' })).version).toBe('1.0');
  });

  it('uses Flipt\'s camelCase names, drops empty omitempty fields and shows durations in nanoseconds', () => {
    const view = redactConfig(load());
    expect(view.server).toEqual({ host: '0.0.0.0', protocol: 'http', httpPort: 8080, httpsPort: 443, grpcPort: 9000 });
    expect(view.db).toEqual({ maxIdleConn: 2, preparedStatementsEnabled: true });
    expect(view.log).toEqual({ level: 'INFO', encoding: 'console', grpcLevel: 'ERROR', keys: { time: 'T', level: 'L', message: 'M' } });
    expect(view.cache).toEqual({
      enabled: false,
      backend: 'memory',
      ttl: 60_000_000_000,
      memory: { evictionInterval: 300_000_000_000 },
      redis: { host: 'localhost', port: 6379, poolSize: 0, minIdleConn: 0, connMaxIdleTime: 0, netTimeout: 0, mode: 'single' },
    });
    expect(view.storage).toEqual({ type: 'database' });
    expect(view.experimental).toEqual({});
    expect(view.meta).toEqual({ checkForUpdates: true, telemetryEnabled: true });
    expect(view.ui).toEqual({ enabled: true, defaultTheme: 'system', topbar: {} });
    expect(view.authentication).toEqual({
      required: false,
      exclude: {},
      session: { tokenLifetime: 86_400_000_000_000, stateLifetime: 600_000_000_000, csrf: { secure: true } },
      methods: { token: { bootstrap: {} }, github: { serverUrl: 'https://github.com', apiUrl: 'https://api.github.com' }, oidc: {}, kubernetes: {}, jwt: {} },
    });
    expect(view.metrics).toEqual({ enabled: true, exporter: 'prometheus' });
  });

  it('has the sections Flipt\'s integration test expects to be non-empty (facts §13.1)', () => {
    const view = redactConfig(load());
    for (const section of ['log', 'ui', 'authentication', 'audit', 'cache', 'cors', 'server', 'storage', 'db', 'tracing']) {
      expect(Object.keys(view[section] as object).length).toBeGreaterThan(0);
    }
  });

  it('shows enabled methods with their cleanup schedule, providers sorted by name', () => {
    const view = redactConfig(
      load({
        FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
        FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'flags.example',
        FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
        FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_EXPIRATION: '24h',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_ENABLED: 'true',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ZITADEL_CLIENT_ID: 'id',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ZITADEL_CLIENT_SECRET: 'secret',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ZITADEL_REDIRECT_ADDRESS: 'https://flags.example',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_AUTH0_CLIENT_ID: 'id',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_AUTH0_CLIENT_SECRET: 'secret',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_AUTH0_REDIRECT_ADDRESS: 'https://flags.example',
        FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_AUTH0_SCOPES: 'email profile',
        FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ENABLED: 'true',
        FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ALLOWED_SERVICE_ACCOUNTS: 'prod/*',
      }),
    );
    const authentication = view.authentication as Record<string, Record<string, unknown>>;
    const methods = authentication.methods as Record<string, Record<string, unknown>>;
    const cleanup = { interval: 3_600_000_000_000, gracePeriod: 1_800_000_000_000 };
    expect(authentication.required).toBe(true);
    expect(authentication.session.domain).toBe('flags.example');
    expect(methods.token).toEqual({ enabled: true, cleanup, bootstrap: { expiration: 86_400_000_000_000 } });
    expect(methods.oidc).toEqual({
      enabled: true,
      cleanup,
      providers: {
        auth0: { redirectAddress: 'https://flags.example', nonce: 'static', scopes: ['email', 'profile'] },
        zitadel: { redirectAddress: 'https://flags.example', nonce: 'static' },
      },
    });
    expect(Object.keys(methods.oidc.providers as object)).toEqual(['auth0', 'zitadel']);
    expect(methods.kubernetes).toEqual({
      enabled: true,
      cleanup,
      discoveryURL: 'https://kubernetes.default.svc.cluster.local',
      caPath: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
      serviceAccountTokenPath: '/var/run/secrets/kubernetes.io/serviceaccount/token',
      allowedServiceAccounts: ['prod/*'],
    });
  });

  it('never shows a secret, a credential or a path, wherever it is set', () => {
    const env: NodeJS.ProcessEnv = {};
    collectHiddenVariables(CONFIG_SCHEMA as unknown as AnySchema, [], false, env);
    expect(Object.keys(env).length).toBeGreaterThan(40);
    const config = load(env);
    // Every sentinel reached the loaded configuration…
    expect(JSON.stringify(config).match(/SENTINEL/g)?.length).toBeGreaterThanOrEqual(Object.keys(env).length);
    // …and none of them reaches the view.
    const json = JSON.stringify(redactConfig(config));
    expect(json).not.toContain('SENTINEL');
    expect(keysOf(redactConfig(config)).filter((key) => /password|secret|credential|user(name)?$|^key$|cert|jwks|publickey|privatekey|accesstoken/i.test(key))).toEqual(
      [],
    );
  });
});

/** Sets every key that must stay hidden (json: false, or inside a hidden section) to a sentinel through its variable. */
function collectHiddenVariables(schema: AnySchema, path: string[], hidden: boolean, env: NodeJS.ProcessEnv): void {
  for (const [property, field] of Object.entries(schema)) {
    const fieldPath = [...path, yamlKey(property, field)];
    const isHidden = hidden || field.json === false;
    if (field.kind === 'section') collectHiddenVariables(field.fields, fieldPath, isHidden, env);
    else if (field.kind === 'map') collectHiddenVariables(field.of, [...fieldPath, 'p'], isHidden, env);
    else if (!isHidden) continue;
    else if (field.kind === 'string' || field.kind === 'list') env[envName(fieldPath)] = `SENTINEL-${fieldPath.join('-')}`;
    else if (field.kind === 'stringMap') env[envName([...fieldPath, 'x'])] = `SENTINEL-${fieldPath.join('-')}`;
  }
}

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [key, ...keysOf(child)]);
}

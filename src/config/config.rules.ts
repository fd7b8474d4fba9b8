/**
 * Rules that involve more than one key (Flipt's `validate()` methods, flipt-v1-facts §7.4, §7b, §8) plus Flagpole's
 * own: storage types and authorization it does not run are refused, settings it accepts but ignores are warned
 * about. Runs after every key has been decoded, so it reports alongside the type errors, in the same ConfigError.
 */
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { AnySchema, yamlKey } from './config.fields';
import type { RuleContext } from './config.rule';
import { CONFIG_SCHEMA } from './config.schema';
import type { FlagpoleConfig } from './config.types';
import { defaultDataDir } from './data-dir';
import { checkTelemetry } from './telemetry.rules';

export function applyRules(config: FlagpoleConfig, ctx: RuleContext): void {
  checkVersion(config, ctx);
  checkStorage(config, ctx);
  checkServer(config, ctx);
  checkDatabase(config, ctx);
  checkCache(config, ctx);
  checkAuthentication(config, ctx);
  checkAuthorization(config, ctx);
  checkAudit(config, ctx);
  checkAnalytics(config, ctx);
  checkTelemetry(config, ctx);
  warnAboutInertSettings(config, ctx);
}

const SUPPORTED_CONFIG_VERSION = '1.0';

function checkVersion(config: FlagpoleConfig, ctx: RuleContext): void {
  if (config.version !== '' && config.version.trim() !== SUPPORTED_CONFIG_VERSION) {
    ctx.issue(['version'], `must be "${SUPPORTED_CONFIG_VERSION}", got ${JSON.stringify(config.version)}`);
  }
}

function checkStorage(config: FlagpoleConfig, ctx: RuleContext): void {
  if (!['database', 'local', 'git'].includes(config.storage.type)) {
    ctx.issue(
      ['storage', 'type'],
      `"${config.storage.type}" storage is not supported by Flagpole; "database" (flag state in db.url), "local" and "git" (read-only, from files) are`,
    );
  }
  if (config.storage.type === 'git') checkGitStorage(config.storage.git, ctx);
  if (config.storage.type === 'local' && config.storage.local.path.trim() === '') {
    ctx.issue(['storage', 'local', 'path'], 'must name the directory of the flag state files');
  }
}

function checkGitStorage(git: FlagpoleConfig['storage']['git'], ctx: RuleContext): void {
  if (!/^https?:\/\/[^/]/i.test(git.repository)) {
    ctx.issue(['storage', 'git', 'repository'], git.repository ? 'must be an http:// or https:// URL (Flagpole reads Git over HTTP only; SSH is not supported)' : 'is required with storage.type git');
  }
  if (git.refType !== 'static') ctx.issue(['storage', 'git', 'ref_type'], 'only "static" is supported (the ref as named)');
  if (git.ref.trim() === '') ctx.issue(['storage', 'git', 'ref'], 'must name a branch or tag');
  const ssh = git.authentication.ssh;
  if (ssh.password || ssh.privateKeyBytes || ssh.privateKeyPath) ctx.issue(['storage', 'git', 'authentication', 'ssh'], 'SSH is not supported: use basic or token authentication over HTTPS');
  if (git.backend.type === 'local' && git.backend.path.trim() === '') ctx.issue(['storage', 'git', 'backend', 'path'], 'is required with backend type local');
}

function checkServer(config: FlagpoleConfig, ctx: RuleContext): void {
  const server = config.server;
  if (server.protocol !== 'https') return;
  for (const [key, file] of [
    ['cert_file', server.certFile],
    ['cert_key', server.certKey],
  ] as const) {
    if (file === '') ctx.issue(['server', key], 'is required when server.protocol is https');
    else if (!existsSync(resolve(ctx.cwd, file))) ctx.issue(['server', key], `file ${file} does not exist`);
  }
}

/** Flipt applies the default URL only when none of the alternative connection keys is set. */
const DB_PARTS = ['name', 'user', 'password', 'host', 'port', 'protocol'] as const;

function checkDatabase(config: FlagpoleConfig, ctx: RuleContext): void {
  const db = config.db;
  if (db.url !== '') return;
  const rawDb = (ctx.raw.db ?? {}) as Record<string, unknown>;
  if (DB_PARTS.every((part) => rawDb[part] === undefined)) {
    const file = join(defaultDataDir(ctx.env, ctx.cwd), 'flagpole.db').split(sep).join('/');
    db.url = `file:${file}`;
    return;
  }
  const missing = (['protocol', 'host', 'name'] as const).filter((part) => db[part] === '');
  for (const part of missing) ctx.issue(['db', part], 'is required when db.url is not set');
  if (missing.length === 0) db.url = databaseUrl(db);
}

/** The URL the alternative keys describe, so that storage reads one setting. */
function databaseUrl(db: FlagpoleConfig['db']): string {
  if (db.protocol === 'sqlite' || db.protocol === 'file') return `file:${db.name}`;
  const credentials = db.user
    ? `${encodeURIComponent(db.user)}${db.password ? `:${encodeURIComponent(db.password)}` : ''}@`
    : '';
  const port = db.port ? `:${db.port}` : '';
  return `${db.protocol}://${credentials}${db.host}${port}/${encodeURIComponent(db.name)}`;
}

function checkCache(config: FlagpoleConfig, ctx: RuleContext): void {
  const { enabled, backend, redis } = config.cache;
  if (enabled && backend === 'redis' && redis.caCertBytes !== '' && redis.caCertPath !== '') {
    ctx.issue(['cache', 'redis', 'ca_cert_path'], 'cannot be set together with cache.redis.ca_cert_bytes; set exactly one');
  }
  if (enabled && backend === 'redis' && redis.url !== '' && !isRedisUrl(redis.url)) {
    ctx.issue(['cache', 'redis', 'url'], 'must be a redis:// or rediss:// URL such as redis://redis.internal:6379/0');
  }
  // Redis Cluster serves database 0 only: another number would be ignored (as Flipt does) and the keys would mix
  // with those of whoever uses database 0; cache.redis.prefix keeps deployments apart instead.
  if (enabled && backend === 'redis' && redis.mode === 'cluster') {
    if (redis.url === '' && redis.db !== 0) {
      ctx.issue(['cache', 'redis', 'db'], 'must be 0 with cache.redis.mode cluster (Redis Cluster has database 0 only); use cache.redis.prefix to keep deployments apart');
    }
    if (isRedisUrl(redis.url) && !['', '/', '/0'].includes(new URL(redis.url).pathname)) {
      ctx.issue(['cache', 'redis', 'url'], 'must name database 0 or none with cache.redis.mode cluster (Redis Cluster has database 0 only), such as redis://redis.internal:6379');
    }
  }
}

function isRedisUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== '';
  } catch {
    return false;
  }
}

function checkAuthentication(config: FlagpoleConfig, ctx: RuleContext): void {
  const authn = config.authentication;
  const { token, oidc, github, kubernetes, jwt } = authn.methods;
  const methods = ['authentication', 'methods'];

  const session = authn.session;
  if (session.domain !== '') {
    const host = hostOf(session.domain);
    if (host) session.domain = host;
    else ctx.issue(['authentication', 'session', 'domain'], `must be a host name such as flags.example.com, got ${JSON.stringify(session.domain)}`);
  } else if (oidc.enabled || github.enabled) {
    ctx.issue(['authentication', 'session', 'domain'], 'is required when the oidc or github method is enabled');
  }

  for (const [name, method] of Object.entries({ token, oidc, github, kubernetes })) {
    if (!method.enabled) continue;
    if (method.cleanup.interval <= 0) ctx.issue([...methods, name, 'cleanup', 'interval'], 'must be greater than 0');
    if (method.cleanup.gracePeriod <= 0) ctx.issue([...methods, name, 'cleanup', 'grace_period'], 'must be greater than 0');
  }

  if (oidc.enabled) {
    if (Object.keys(oidc.providers).length === 0) {
      ctx.warn('authentication.methods.oidc is enabled without providers: nobody can log in with OIDC');
    }
    for (const [name, provider] of Object.entries(oidc.providers)) {
      const path = [...methods, 'oidc', 'providers', name];
      if (provider.clientId === '') ctx.issue([...path, 'client_id'], 'is required');
      if (provider.clientSecret === '') ctx.issue([...path, 'client_secret'], 'is required');
      if (provider.redirectAddress === '') ctx.issue([...path, 'redirect_address'], 'is required');
    }
  }

  // Organization names are case-sensitive at GitHub but map keys lose their case on the way in (as in Flipt):
  // take each key's spelling from allowed_organizations.
  github.allowedTeams = Object.fromEntries(
    Object.entries(github.allowedTeams).map(([org, teams]) => [
      github.allowedOrganizations.find((allowed) => allowed.toLowerCase() === org.toLowerCase()) ?? org,
      teams,
    ]),
  );
  if (github.enabled) {
    const path = [...methods, 'github'];
    if (github.clientId === '') ctx.issue([...path, 'client_id'], 'is required when the github method is enabled');
    if (github.clientSecret === '') ctx.issue([...path, 'client_secret'], 'is required when the github method is enabled');
    if (github.redirectAddress === '') ctx.issue([...path, 'redirect_address'], 'is required when the github method is enabled');
    if (github.allowedOrganizations.length > 0 && !github.scopes.includes('read:org')) {
      ctx.issue([...path, 'scopes'], 'must include read:org when allowed_organizations is set');
    }
    for (const org of Object.keys(github.allowedTeams)) {
      if (!github.allowedOrganizations.includes(org)) {
        ctx.issue([...path, 'allowed_teams', org.toLowerCase()], `organization "${org}" is not listed in allowed_organizations`);
      }
    }
  }

  if (jwt.enabled) {
    const path = [...methods, 'jwt'];
    if (jwt.jwksUrl === '' && jwt.publicKeyFile === '') {
      ctx.issue([...path, 'jwks_url'], 'one of jwks_url or public_key_file is required when the jwt method is enabled');
    } else if (jwt.jwksUrl !== '' && jwt.publicKeyFile !== '') {
      ctx.issue([...path, 'public_key_file'], 'cannot be set together with jwks_url; set exactly one');
    } else if (jwt.jwksUrl !== '' && !URL.canParse(jwt.jwksUrl)) {
      ctx.issue([...path, 'jwks_url'], 'must be an absolute URL');
    } else if (jwt.publicKeyFile !== '' && !existsSync(resolve(ctx.cwd, jwt.publicKeyFile))) {
      ctx.issue([...path, 'public_key_file'], `file ${jwt.publicKeyFile} does not exist`);
    }
  }

  if (authn.exclude.metadata) {
    ctx.warn(
      'authentication.exclude.metadata is deprecated and has no effect: /meta cannot be excluded from authentication',
    );
  }
}

/** Go's url.Parse + split on ":" as Flipt does: scheme, port, path and user info dropped. */
function hostOf(domain: string): string | undefined {
  const rest = domain.includes('://') ? domain.slice(domain.indexOf('://') + 3) : domain;
  const authority = rest.split(/[/?#]/)[0];
  const host = authority.slice(authority.lastIndexOf('@') + 1).split(':')[0];
  return host || undefined;
}

function checkAuthorization(config: FlagpoleConfig, ctx: RuleContext): void {
  const authz = config.authorization;
  if (!authz.required) return;
  if (!config.authentication.required) ctx.issue(['authorization', 'required'], 'needs authentication.required: true (a policy applies to authenticated credentials)');
  if (authz.backend === 'bundle' || authz.backend === 'object') {
    ctx.issue(['authorization', 'backend'], `"${authz.backend}" (OPA bundles) is not supported: Flagpole reads its own policy file (backend "local"; docs/authorization.md)`);
  }
  if (authz.local.policy.path.trim() === '') ctx.issue(['authorization', 'local', 'policy', 'path'], 'must name the policy file when authorization.required is true');
  if (authz.local.data.path.trim() !== '') {
    ctx.issue(['authorization', 'local', 'data', 'path'], "is Rego data, which Flagpole does not run: its policy file holds roles and bindings itself (docs/authorization.md)");
  }
}

function checkAudit(config: FlagpoleConfig, ctx: RuleContext): void {
  const { webhook, kafka } = config.audit.sinks;
  const sinks = ['audit', 'sinks'];
  if (webhook.enabled) {
    if (webhook.url === '' && webhook.templates.length === 0) {
      ctx.issue([...sinks, 'webhook', 'url'], 'or audit.sinks.webhook.templates is required when the webhook sink is enabled');
    } else if (webhook.url !== '' && webhook.templates.length > 0) {
      ctx.issue([...sinks, 'webhook', 'url'], 'cannot be set together with audit.sinks.webhook.templates');
    }
  }
  if (webhook.enabled && webhook.url !== '') {
    const problem = urlProblem(webhook.url);
    if (problem) ctx.issue([...sinks, 'webhook', 'url'], problem);
  }
  webhook.templates.forEach((t, i) => {
    const urlIssue = t.url === '' ? 'is required' : urlProblem(t.url);
    if (urlIssue) ctx.issue([...sinks, 'webhook', 'templates', String(i), 'url'], urlIssue);
  });
  if (kafka.enabled) {
    ctx.issue([...sinks, 'kafka', 'enabled'], 'the kafka sink is not supported by Flagpole; use audit.sinks.webhook or audit.sinks.log');
  }
  // Event patterns and template bodies are checked by the audit module's rule (audit/audit.config-rules.ts).
}

/** Webhooks are posted over HTTP(S): anything else is refused when the configuration loads. */
function urlProblem(url: string): string | null {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? null : `must be an http or https URL, got ${JSON.stringify(url)}`;
  } catch {
    return `must be an http or https URL, got ${JSON.stringify(url)}`;
  }
}

/**
 * Flagpole counts evaluations in its own database (`analytics.enabled`) or reads them back from Prometheus
 * (`analytics.storage.prometheus.enabled`): one storage at a time, and Prometheus only has them when `/metrics` is
 * served. ClickHouse is out of scope (decisions.md item 7): refused rather than accepted and ignored, so that an
 * operator moving from Flipt does not lose the chart without being told.
 */
function checkAnalytics(config: FlagpoleConfig, ctx: RuleContext): void {
  const { clickhouse, prometheus } = config.analytics.storage;
  if (clickhouse.enabled) {
    ctx.issue(['analytics', 'storage', 'clickhouse', 'enabled'], 'ClickHouse analytics is not supported by Flagpole; set analytics.enabled to count evaluations in Flagpole\'s own database, or analytics.storage.prometheus.enabled to read them from Prometheus');
  }
  if (!prometheus.enabled) return;
  const at = ['analytics', 'storage', 'prometheus'];
  if (config.analytics.enabled) {
    ctx.issue([...at, 'enabled'], 'choose one storage: analytics.enabled keeps the counts in Flagpole\'s database, analytics.storage.prometheus.enabled reads them from Prometheus; not both');
  }
  if (!config.metrics.enabled) {
    ctx.issue([...at, 'enabled'], 'needs metrics.enabled: Prometheus reads the counts from the /metrics Flagpole serves');
  }
  // The URL may carry credentials: the message does not repeat it.
  if (prometheus.url.trim() === '') ctx.issue([...at, 'url'], 'is required with analytics.storage.prometheus.enabled');
  else if (urlProblem(prometheus.url)) ctx.issue([...at, 'url'], 'must be an http or https URL');
}

/** One warning per section naming the keys that were changed from their defaults but do nothing in Flagpole. */
function warnAboutInertSettings(config: FlagpoleConfig, ctx: RuleContext): void {
  const bySection = new Map<string, string[]>();
  collectInert(CONFIG_SCHEMA as unknown as AnySchema, config as unknown as Record<string, unknown>, [], bySection);
  for (const [section, keys] of bySection) {
    ctx.warn(`${keys.join(', ')}: accepted for compatibility with Flipt, but Flagpole does not act on ${section} settings yet`);
  }
}

function collectInert(schema: AnySchema, values: Record<string, unknown>, path: string[], out: Map<string, string[]>): void {
  for (const [property, field] of Object.entries(schema)) {
    const fieldPath = [...path, yamlKey(property, field)];
    const value = values[property];
    if (field.kind === 'section') {
      collectInert(field.fields, value as Record<string, unknown>, fieldPath, out);
    } else if (field.kind !== 'map' && field.inert && JSON.stringify(value) !== JSON.stringify(field.default)) {
      const section = fieldPath[0];
      out.set(section, [...(out.get(section) ?? []), fieldPath.join('.')]);
    }
  }
}

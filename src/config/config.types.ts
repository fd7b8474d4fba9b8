/**
 * The typed configuration, read off the schema: every key is declared once, in config.schema.ts, with its type,
 * default, YAML and `/meta/config` names and description; its type here follows from its descriptor (ConfigOf in
 * config.fields.ts). Property names are the camelCase names Flipt v1 uses in `/meta/config`. Every value is present:
 * unset keys hold their default or Go's zero value ('' / 0 / false / []). Durations are milliseconds.
 *
 * The names below are the sections other modules take as parameters.
 */
import type { ConfigOf } from './config.fields';
import type { CONFIG_SCHEMA } from './config.schema';

export type FlagpoleConfig = ConfigOf<typeof CONFIG_SCHEMA>;

/** A duration in milliseconds (config files and variables write Go syntax: `30s`, `1h30m`, `500ms`). */
export type Duration = number;

type Methods = FlagpoleConfig['authentication']['methods'];

export type AuthenticationSessionConfig = FlagpoleConfig['authentication']['session'];
export type AuthenticationCsrfConfig = AuthenticationSessionConfig['csrf'];
export type AuthenticationCleanupConfig = Methods['token']['cleanup'];
export type GithubMethodConfig = Methods['github'];
export type OidcProviderConfig = Methods['oidc']['providers'][string];
export type KubernetesMethodConfig = Methods['kubernetes'];
export type JwtMethodConfig = Methods['jwt'];
export type CacheConfig = FlagpoleConfig['cache'];
export type RedisCacheConfig = CacheConfig['redis'];
export type CorsConfig = FlagpoleConfig['cors'];
export type LogConfig = FlagpoleConfig['log'];
export type LogLevel = LogConfig['level'];
export type ServerConfig = FlagpoleConfig['server'];
export type GitStorageConfig = FlagpoleConfig['storage']['git'];
export type MetricsConfig = FlagpoleConfig['metrics'];
export type OtlpExporterConfig = MetricsConfig['otlp'];
export type TracingConfig = FlagpoleConfig['tracing'];
export type TracingPropagator = TracingConfig['propagators'][number];
export type LimitsConfig = FlagpoleConfig['limits'];
export type LifecycleConfig = FlagpoleConfig['lifecycle'];

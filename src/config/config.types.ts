/**
 * The typed configuration. Property names are the camelCase names Flipt v1 uses in `/meta/config` (so the view in
 * config.redact.ts is mostly a rename-free walk); the YAML keys and `FLAGPOLE_` variables are their snake_case forms
 * (config.schema.ts). Every value is present: unset keys hold their default or Go's zero value ('' / 0 / false / []).
 */
import type { FlagKind } from '../wire/flag-kinds';

/** A duration in milliseconds (config files and variables write Go syntax: `30s`, `1h30m`, `500ms`). */
export type Duration = number;

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'DPANIC' | 'PANIC' | 'FATAL';
export type LogEncoding = 'console' | 'json';

export interface FlagpoleConfig {
  /** '' when unset; otherwise always `1.0`. */
  version: string;
  audit: AuditConfig;
  authentication: AuthenticationConfig;
  authorization: AuthorizationConfig;
  cache: CacheConfig;
  cors: CorsConfig;
  db: DatabaseConfig;
  diagnostics: DiagnosticsConfig;
  experimental: ExperimentalConfig;
  log: LogConfig;
  meta: MetaConfig;
  analytics: AnalyticsConfig;
  server: ServerConfig;
  storage: StorageConfig;
  metrics: MetricsConfig;
  tracing: TracingConfig;
  ui: UiConfig;
  /** Flagpole addition: event streams (OFREP's and the snapshot change stream). */
  streams: StreamsConfig;
  /** Flagpole addition: scheduled changes (docs/api.md, Scheduled changes). */
  schedules: SchedulesConfig;
  /** Flagpole addition: flag kinds, lifetimes and stale flags (docs/api.md, Flag lifecycle). */
  lifecycle: LifecycleConfig;
  /** Flagpole addition: every limit that protects the server from hostile or broken input (docs/security.md). */
  limits: LimitsConfig;
}

// ---- audit --------------------------------------------------------------------------------------------------------

export interface AuditConfig {
  sinks: AuditSinksConfig;
  buffer: AuditBufferConfig;
  events: string[];
  /** Flagpole addition: the stored, queryable trail (docs/audit.md). */
  storage: AuditStorageConfig;
}

export interface AuditStorageConfig {
  enabled: boolean;
  /** 0 = kept forever. */
  retention: Duration;
  cleanupInterval: Duration;
}

export interface AuditSinksConfig {
  log: AuditLogSinkConfig;
  webhook: AuditWebhookSinkConfig;
  kafka: AuditKafkaSinkConfig;
}

export interface AuditLogSinkConfig {
  enabled: boolean;
  file: string;
  /** '' = the main log's encoding. */
  encoding: '' | LogEncoding;
}

export interface AuditWebhookSinkConfig {
  enabled: boolean;
  url: string;
  maxBackoffDuration: Duration;
  signingSecret: string;
  templates: AuditWebhookTemplate[];
}

export interface AuditWebhookTemplate {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface AuditKafkaSinkConfig {
  enabled: boolean;
  topic: string;
  bootstrapServers: string[];
  encoding: 'protobuf' | 'avro';
  authentication: AuditKafkaAuthenticationConfig;
  schemaRegistry: AuditKafkaSchemaRegistryConfig;
  requireTLS: boolean;
  insecureSkipTLS: boolean;
}

export interface AuditKafkaAuthenticationConfig {
  username: string;
  password: string;
}

export interface AuditKafkaSchemaRegistryConfig {
  url: string;
}

export interface AuditBufferConfig {
  capacity: number;
  flushPeriod: Duration;
}

// ---- authentication -----------------------------------------------------------------------------------------------

export interface AuthenticationConfig {
  required: boolean;
  exclude: AuthenticationExcludeConfig;
  session: AuthenticationSessionConfig;
  methods: AuthenticationMethodsConfig;
}

export interface AuthenticationExcludeConfig {
  management: boolean;
  /** Deprecated in Flipt and without effect (a warning says so). */
  metadata: boolean;
  evaluation: boolean;
  ofrep: boolean;
}

export interface AuthenticationSessionConfig {
  /** Cookie domain: a host name (scheme and port are dropped while loading). */
  domain: string;
  secure: boolean;
  tokenLifetime: Duration;
  stateLifetime: Duration;
  csrf: AuthenticationCsrfConfig;
}

export interface AuthenticationCsrfConfig {
  /** Cross-origin protection is on when this is non-empty (the value itself is not used). */
  key: string;
  secure: boolean;
  trustedOrigins: string[];
}

export interface AuthenticationMethodsConfig {
  token: TokenMethodConfig;
  github: GithubMethodConfig;
  oidc: OidcMethodConfig;
  kubernetes: KubernetesMethodConfig;
  jwt: JwtMethodConfig;
}

/** Cleanup of expired stored authentications; both are 0 for a disabled method. */
export interface AuthenticationCleanupConfig {
  interval: Duration;
  gracePeriod: Duration;
}

export interface TokenMethodConfig {
  enabled: boolean;
  cleanup: AuthenticationCleanupConfig;
  bootstrap: TokenBootstrapConfig;
}

export interface TokenBootstrapConfig {
  token: string;
  /** 0 = the bootstrap token never expires. */
  expiration: Duration;
  /** Keys are lower-cased, as Flipt's loader does. */
  metadata: Record<string, string>;
}

export interface OidcMethodConfig {
  enabled: boolean;
  cleanup: AuthenticationCleanupConfig;
  emailMatches: string[];
  /** Keyed by provider name (lower-cased; it appears in `/auth/v1/method/oidc/{provider}/…`). */
  providers: Record<string, OidcProviderConfig>;
}

export interface OidcProviderConfig {
  issuerURL: string;
  clientId: string;
  clientSecret: string;
  redirectAddress: string;
  nonce: string;
  scopes: string[];
  usePKCE: boolean;
}

export interface GithubMethodConfig {
  enabled: boolean;
  cleanup: AuthenticationCleanupConfig;
  serverUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  redirectAddress: string;
  scopes: string[];
  allowedOrganizations: string[];
  /** Organization → team slugs; every organization is one of allowedOrganizations (spelling restored from there). */
  allowedTeams: Record<string, string[]>;
}

export interface KubernetesMethodConfig {
  enabled: boolean;
  cleanup: AuthenticationCleanupConfig;
  discoveryURL: string;
  caPath: string;
  serviceAccountTokenPath: string;
  /**
   * Flagpole's addition: `namespace/name` patterns (`*` matches any run of characters within one part); empty =
   * every service account of the cluster, as in Flipt. See service-account-allow-list.ts.
   */
  allowedServiceAccounts: string[];
}

export interface JwtMethodConfig {
  enabled: boolean;
  cleanup: AuthenticationCleanupConfig;
  jwksUrl: string;
  publicKeyFile: string;
  validateClaims: JwtValidateClaimsConfig;
}

export interface JwtValidateClaimsConfig {
  issuer: string;
  subject: string;
  audiences: string[];
}

// ---- authorization (accepted; `required: true` is refused, see docs/configuration.md) ----------------------------

export interface AuthorizationConfig {
  required: boolean;
  backend: '' | 'local' | 'bundle' | 'object';
  local: AuthorizationLocalConfig;
  bundle: AuthorizationBundleConfig;
  object: AuthorizationObjectConfig;
}

export interface AuthorizationLocalConfig {
  policy: AuthorizationSourceConfig;
  data: AuthorizationSourceConfig;
}

export interface AuthorizationSourceConfig {
  path: string;
  pollInterval: Duration;
}

export interface AuthorizationBundleConfig {
  configuration: string;
}

export interface AuthorizationObjectConfig {
  type: 's3';
  s3: AuthorizationS3Config;
}

export interface AuthorizationS3Config {
  bucket: string;
  prefix: string;
  region: string;
  endpoint: string;
}

// ---- cache --------------------------------------------------------------------------------------------------------

export interface CacheConfig {
  enabled: boolean;
  backend: 'memory' | 'redis';
  ttl: Duration;
  memory: MemoryCacheConfig;
  redis: RedisCacheConfig;
}

export interface MemoryCacheConfig {
  evictionInterval: Duration;
}

export interface RedisCacheConfig {
  /** `redis://` or `rediss://` URL (Flagpole's addition); when set it replaces host, port, credentials, db and TLS. */
  url: string;
  host: string;
  port: number;
  requireTLS: boolean;
  username: string;
  password: string;
  db: number;
  /** Key prefix; '' = `flagpole`. */
  prefix: string;
  poolSize: number;
  minIdleConn: number;
  connMaxIdleTime: Duration;
  netTimeout: Duration;
  caCertBytes: string;
  caCertPath: string;
  insecureSkipTLS: boolean;
  mode: 'single' | 'cluster';
}

// ---- cors, db, diagnostics, experimental, log, meta ---------------------------------------------------------------

export interface CorsConfig {
  enabled: boolean;
  allowedOrigins: string[];
  allowedHeaders: string[];
}

export type DatabaseProtocol = '' | 'sqlite' | 'file' | 'libsql' | 'postgres' | 'mysql' | 'cockroach' | 'cockroachdb';

export interface DatabaseConfig {
  /** Always set after loading: the configured URL, the one built from protocol/host/…, or the default SQLite file. */
  url: string;
  maxIdleConn: number;
  /** 0 = unlimited. */
  maxOpenConn: number;
  /** 0 = unlimited. */
  connMaxLifetime: Duration;
  name: string;
  user: string;
  password: string;
  host: string;
  port: number;
  protocol: DatabaseProtocol;
  preparedStatementsEnabled: boolean;
}

export interface DiagnosticsConfig {
  profiling: ProfilingConfig;
}

export interface ProfilingConfig {
  enabled: boolean;
}

/** Flipt v1.61 has no experimental features; the section is accepted and shown as `{}`. */
export interface ExperimentalConfig {}

export interface LogConfig {
  level: LogLevel;
  file: string;
  encoding: LogEncoding;
  grpcLevel: LogLevel;
  keys: LogKeysConfig;
}

export interface LogKeysConfig {
  time: string;
  level: string;
  message: string;
}

export interface MetaConfig {
  checkForUpdates: boolean;
  telemetryEnabled: boolean;
  stateDirectory: string;
}

// ---- analytics, server, storage, metrics, tracing, ui -------------------------------------------------------------

export interface AnalyticsConfig {
  /** Flagpole's: evaluations counted in its own database (analytics/); `storage.prometheus.enabled` is the other way. */
  enabled: boolean;
  /** How long counts are kept (ms; 0 = forever). */
  retention: Duration;
  /** How often the retention runs (ms). */
  cleanupInterval: Duration;
  storage: AnalyticsStorageConfig;
  buffer: AnalyticsBufferConfig;
}

export interface AnalyticsStorageConfig {
  clickhouse: ClickhouseConfig;
  prometheus: PrometheusAnalyticsConfig;
}

export interface ClickhouseConfig {
  enabled: boolean;
  url: string;
}

export interface PrometheusAnalyticsConfig {
  /** Counts read back from Prometheus (analytics/prometheus-analytics.reader.ts) instead of the database. */
  enabled: boolean;
  url: string;
  headers: Record<string, string>;
  /** One query's deadline (ms). */
  timeout: Duration;
}

export interface AnalyticsBufferConfig {
  flushPeriod: Duration;
}

export interface ServerConfig {
  host: string;
  protocol: 'http' | 'https';
  httpPort: number;
  httpsPort: number;
  grpcPort: number;
  /** Flagpole's: the REST API's writes run in a worker thread (write-worker/). */
  writeWorker: boolean;
  /** The write worker thread's nice value (write-worker/thread-priority.ts). */
  writeWorkerNice: number;
  certFile: string;
  certKey: string;
  /** 0 = unlimited. */
  grpcConnMaxIdleTime: Duration;
  grpcConnMaxAge: Duration;
  grpcConnMaxAgeGrace: Duration;
}

export type StorageType = 'database' | 'local' | 'git' | 'object' | 'oci';

/** Only `type: database` runs; the other backends' keys are accepted so Flipt files load (see docs). */
export interface StorageConfig {
  type: StorageType;
  readOnly: boolean;
  local: LocalStorageConfig;
  git: GitStorageConfig;
  object: ObjectStorageConfig;
  oci: OciStorageConfig;
}

export interface LocalStorageConfig {
  path: string;
  pollInterval: number;
}

export interface GitStorageConfig {
  repository: string;
  ref: string;
  refType: 'static' | 'semver';
  directory: string;
  pollInterval: Duration;
  backend: GitBackendConfig;
  authentication: GitAuthenticationConfig;
  caCertBytes: string;
  caCertPath: string;
  insecureSkipTLS: boolean;
}

export interface GitBackendConfig {
  type: 'memory' | 'local';
  path: string;
}

export interface GitAuthenticationConfig {
  basic: GitBasicAuthConfig;
  token: GitTokenAuthConfig;
  ssh: GitSshAuthConfig;
}

export interface GitBasicAuthConfig {
  username: string;
  password: string;
}

export interface GitTokenAuthConfig {
  accessToken: string;
}

export interface GitSshAuthConfig {
  user: string;
  password: string;
  privateKeyBytes: string;
  privateKeyPath: string;
  insecureIgnoreHostKey: boolean;
}

export interface ObjectStorageConfig {
  type: '' | 's3' | 'azblob' | 'googlecloud';
  s3: S3StorageConfig;
  azblob: AzblobStorageConfig;
  googlecloud: GoogleCloudStorageConfig;
}

export interface S3StorageConfig {
  endpoint: string;
  bucket: string;
  prefix: string;
  region: string;
  pollInterval: Duration;
}

export interface AzblobStorageConfig {
  container: string;
  endpoint: string;
  pollInterval: Duration;
}

export interface GoogleCloudStorageConfig {
  bucket: string;
  prefix: string;
  pollInterval: Duration;
}

export interface OciStorageConfig {
  repository: string;
  bundlesDirectory: string;
  authentication: OciAuthenticationConfig;
  pollInterval: Duration;
  manifestVersion: '1.0' | '1.1';
}

export interface OciAuthenticationConfig {
  type: 'static' | 'aws-ecr';
  username: string;
  password: string;
}

export interface MetricsConfig {
  enabled: boolean;
  /** Flagpole addition: `/metrics` needs a credential when authentication is required. */
  requireAuthentication: boolean;
  exporter: 'prometheus' | 'otlp';
  otlp: OtlpExporterConfig;
  /** Flagpole addition: how often exporter `otlp` pushes. */
  exportInterval: Duration;
}

export interface OtlpExporterConfig {
  endpoint: string;
  headers: Record<string, string>;
}

export type TracingPropagator = 'tracecontext' | 'baggage' | 'b3' | 'b3multi' | 'jaeger' | 'xray' | 'ottrace' | 'none';

export interface TracingConfig {
  enabled: boolean;
  exporter: 'jaeger' | 'zipkin' | 'otlp';
  samplingRatio: number;
  propagators: TracingPropagator[];
  jaeger: JaegerTracingConfig;
  zipkin: ZipkinTracingConfig;
  otlp: OtlpExporterConfig;
  /** Flagpole additions: the resource every span and pushed metric carries. */
  serviceName: string;
  resourceAttributes: Record<string, string>;
}

export interface JaegerTracingConfig {
  host: string;
  port: number;
}

export interface ZipkinTracingConfig {
  endpoint: string;
}

export interface UiConfig {
  enabled: boolean;
  defaultTheme: 'system' | 'dark' | 'light';
  topbar: UiTopbarConfig;
}

export interface UiTopbarConfig {
  color: string;
  label: string;
}

// ---- limits (Flagpole addition; docs/security.md) -------------------------------------------------------------------

export interface LimitsConfig {
  maxBodyBytes: number;
  maxEvaluationBodyBytes: number;
  maxBodyBytesInFlight: number;
  minBodyRate: number;
  bodyRateGrace: Duration;
  lingerTimeout: Duration;
  maxLingerBytes: number;
  maxImportBytes: number;
  maxJsonDepth: number;
  maxYamlAliasNodes: number;
  maxBatchRequests: number;
  maxBatchNamespaces: number;
  unknownNamespaceTtl: Duration;
  unknownNamespaceEntries: number;
  maxMetricSeries: number;
  requestTimeout: Duration;
  idleTimeout: Duration;
  maxConnections: number;
  maxGrpcWatchStreams: number;
  maxSnapshotLoads: number;
  maxChangeMessageBytes: number;
  maxEventStreams: number;
  maxEventStreamsPerCredential: number;
  eventStreamWriteTimeout: Duration;
  maxAuditBacklog: number;
  maxAuditBacklogBytes: number;
  /** Most per-minute evaluation counts held while analytics flushes fail (analytics/evaluation-counter.ts). */
  maxAnalyticsBacklog: number;
  importReadTimeout: Duration;
  maxImportsWaiting: number;
  importReadHeapMb: number;
}

// ---- streams (Flagpole addition; docs/api.md, Event streams) -------------------------------------------------------

export interface StreamsConfig {
  heartbeatInterval: Duration;
  inactivityDelay: Duration;
  ticketTtl: Duration;
  ticketSecret: string;
}

// ---- schedules (Flagpole addition; docs/api.md, Scheduled changes) -------------------------------------------------

export interface SchedulesConfig {
  pollInterval: Duration;
  lease: Duration;
  maxSteps: number;
  maxActivePerFlag: number;
  /** How long closed schedules are kept after their last change (ms; 0 = forever). */
  retention: Duration;
  /** How often the retention runs (ms). */
  cleanupInterval: Duration;
}

// ---- lifecycle (Flagpole addition; docs/api.md, Flag lifecycle) ----------------------------------------------------

/** Expected lifetime of each temporary kind (ms; 0 = none: never stale by age). */
export interface LifetimesConfig {
  release: Duration;
  experiment: Duration;
  operational: Duration;
}

export interface LifecycleConfig {
  enabled: boolean;
  checkInterval: Duration;
  defaultKind: FlagKind;
  lifetimes: LifetimesConfig;
  /** Stale when not evaluated for this long (needs analytics; 0 = off). */
  unusedAfter: Duration;
  /** Stale when every evaluation for this long returned one value and the flag did not change (needs analytics; 0 = off). */
  rolledOutAfter: Duration;
  /** Per namespace key (lower case): its own default kind and lifetimes; '' and 0 take the global ones. */
  namespaces: Record<string, NamespaceLifecycleConfig>;
}

export interface NamespaceLifecycleConfig {
  defaultKind: FlagKind | '';
  lifetimes: LifetimesConfig;
}

export { ConfigError, type ConfigIssue } from './config.error';
export { loadConfig, loadConfigWithWarnings, envName, type LoadConfigOptions, type LoadedConfig } from './config.loader';
export { ConfigModule, InjectConfig } from './config.module';
export { redactConfig, type ConfigView } from './config.redact';
export { CONFIG } from './config.tokens';
export * from './config.types';
export { defaultDataDir } from './data-dir';
export { formatDuration, parseDuration } from './duration';
export { isServiceAccountAllowed, serviceAccountMatcher } from './service-account-allow-list';

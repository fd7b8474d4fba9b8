/**
 * Loading the configuration with every feature's checks: config/ declares the keys and checks what it can alone;
 * the checks that need a feature's knowledge are listed here, at the application's assembly, and handed to the
 * loader. The entry points (main.ts, write-worker.main.ts) and the test harness load the configuration through this
 * file, so no start skips a check.
 */
import { checkAuditConfig } from './audit/audit.config-rules';
import { loadConfig, loadConfigWithWarnings, type LoadConfigOptions, type LoadedConfig } from './config/config.loader';
import type { ConfigRule } from './config/config.rule';
import type { FlagpoleConfig } from './config/config.types';

export const FEATURE_CONFIG_RULES: readonly ConfigRule[] = [checkAuditConfig];

export function loadConfiguration(options: Omit<LoadConfigOptions, 'rules'> = {}): FlagpoleConfig {
  return loadConfig({ ...options, rules: FEATURE_CONFIG_RULES });
}

export function loadConfigurationWithWarnings(options: Omit<LoadConfigOptions, 'rules'> = {}): LoadedConfig {
  return loadConfigWithWarnings({ ...options, rules: FEATURE_CONFIG_RULES });
}

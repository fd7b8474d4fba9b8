/**
 * Where evaluation counts are kept, from the configuration: Flagpole's database (`analytics.enabled`), Prometheus
 * (`analytics.storage.prometheus.enabled`), or nowhere (analytics off). The configuration rules refuse both at once.
 */
import type { FlagpoleConfig } from './config.types';

export type AnalyticsStorage = 'database' | 'prometheus';

export function analyticsStorage(config: FlagpoleConfig): AnalyticsStorage | null {
  if (config.analytics.storage.prometheus.enabled) return 'prometheus';
  return config.analytics.enabled ? 'database' : null;
}

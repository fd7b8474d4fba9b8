/**
 * The resource spans and pushed metrics carry: `service.name` (`tracing.service_name`, `OTEL_SERVICE_NAME` wins),
 * `service.version`, `tracing.resource_attributes`, then `OTEL_RESOURCE_ATTRIBUTES` (OpenTelemetry's env detector).
 */
import { detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../config/config.types';
import { buildInfo } from '../meta/build-info';

export function telemetryResource(config: Pick<TracingConfig, 'serviceName' | 'resourceAttributes'>): Resource {
  const own = resourceFromAttributes({
    ...config.resourceAttributes,
    [ATTR_SERVICE_NAME]: config.serviceName || 'flagpole',
    [ATTR_SERVICE_VERSION]: buildInfo().version,
  });
  return own.merge(detectResources({ detectors: [envDetector] }));
}

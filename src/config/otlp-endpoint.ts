/**
 * Flipt's rule for an OTLP endpoint, for traces and metrics alike: `http://` or `https://` is OTLP over HTTP (to the
 * URL as given, `/v1/traces` or `/v1/metrics` added when it has no path), `grpc://host:port` or a bare `host:port`
 * is OTLP over gRPC without TLS. Over HTTP the body is protobuf, or JSON when the standard
 * `OTEL_EXPORTER_OTLP_PROTOCOL` (or its per-signal variant) says `http/json`.
 */
export type OtlpTransport = { kind: 'http'; url: string; json: boolean } | { kind: 'grpc'; url: string };

export function otlpTransport(endpoint: string, signal: 'traces' | 'metrics', env: NodeJS.ProcessEnv = process.env): OtlpTransport {
  const trimmed = endpoint.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    const url = new URL(trimmed);
    if (url.pathname === '/' || url.pathname === '') url.pathname = `/v1/${signal}`;
    const protocol = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`] ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
    return { kind: 'http', url: url.toString(), json: protocol?.trim() === 'http/json' };
  }
  // grpc-js takes `http://` as "no TLS", as Flipt's grpc:// and bare endpoints are.
  const address = scheme === 'grpc' ? trimmed.slice('grpc://'.length) : trimmed;
  return { kind: 'grpc', url: `http://${address}` };
}

/** Why an endpoint cannot be used, for the configuration rules; null when it can. */
export function otlpEndpointProblem(endpoint: string): string | null {
  const trimmed = endpoint.trim();
  if (trimmed === '') return 'must name the OTLP receiver (host:port, grpc://host:port or an http(s) URL)';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme !== undefined && !['http', 'https', 'grpc'].includes(scheme)) return `must use http://, https:// or grpc:// (or no scheme), got ${JSON.stringify(endpoint)}`;
  try {
    new URL(scheme === undefined ? `grpc://${trimmed}` : trimmed);
    return null;
  } catch {
    return `is not a valid endpoint: ${JSON.stringify(endpoint)}`;
  }
}

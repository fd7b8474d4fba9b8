import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfigWithWarnings } from './config.loader';
import { otlpEndpointProblem, otlpTransport } from './otlp-endpoint';

describe("Flipt's OTLP endpoint rule", () => {
  it.each([
    ['http://collector:4318', 'traces', { kind: 'http', url: 'http://collector:4318/v1/traces', json: false }],
    ['https://otlp.example.com', 'metrics', { kind: 'http', url: 'https://otlp.example.com/v1/metrics', json: false }],
    ['http://collector:4318/custom/path', 'traces', { kind: 'http', url: 'http://collector:4318/custom/path', json: false }],
    ['grpc://collector:4317', 'traces', { kind: 'grpc', url: 'http://collector:4317' }],
    ['localhost:4317', 'metrics', { kind: 'grpc', url: 'http://localhost:4317' }],
  ] as const)('%s (%s) → %o', (endpoint, signal, expected) => {
    expect(otlpTransport(endpoint, signal, {})).toEqual(expected);
  });

  it('sends JSON over HTTP when OTEL_EXPORTER_OTLP_PROTOCOL (or the signal’s own) says http/json', () => {
    expect(otlpTransport('http://c:4318', 'traces', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toMatchObject({ json: true });
    expect(otlpTransport('http://c:4318', 'traces', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toMatchObject({ json: false });
    expect(otlpTransport('http://c:4318', 'metrics', { OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json' })).toMatchObject({ json: true });
  });

  it.each([['', 'must name'], ['ftp://c:21', 'must use http://'], ['http://', 'not a valid endpoint']])('refuses %j', (endpoint, problem) => {
    expect(otlpEndpointProblem(endpoint)).toContain(problem);
  });
});

describe('tracing configuration rules', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'flagpole-tracing-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (env: NodeJS.ProcessEnv) => loadConfigWithWarnings({ argv: [], env: { FLAGPOLE_TRACING_ENABLED: 'true', ...env }, cwd: dir });

  it('refuses endpoints that cannot be used, naming the key', () => {
    expect(() => load({ FLAGPOLE_TRACING_EXPORTER: 'otlp', FLAGPOLE_TRACING_OTLP_ENDPOINT: 'ftp://x:1' })).toThrow(ConfigError);
    expect(() => load({ FLAGPOLE_TRACING_EXPORTER: 'zipkin', FLAGPOLE_TRACING_ZIPKIN_ENDPOINT: 'localhost:9411' })).toThrow(/tracing\.zipkin\.endpoint/);
    expect(() => load({ FLAGPOLE_TRACING_ENABLED: 'false', FLAGPOLE_METRICS_EXPORTER: 'otlp', FLAGPOLE_METRICS_OTLP_ENDPOINT: 'udp://x:1' })).toThrow(/metrics\.otlp\.endpoint/);
  });

  it('warns that jaeger is deprecated and sent over OTLP, and that unsupported propagators are ignored', () => {
    const { warnings } = load({ FLAGPOLE_TRACING_JAEGER_HOST: 'jaeger', FLAGPOLE_TRACING_PROPAGATORS: 'tracecontext xray' });
    expect(warnings.join('\n')).toContain('OTLP/gRPC to jaeger:4317');
    expect(warnings.join('\n')).toContain('tracing.propagators xray: not supported');
  });

  it('says nothing of a working otlp configuration', () => {
    expect(load({ FLAGPOLE_TRACING_EXPORTER: 'otlp', FLAGPOLE_TRACING_OTLP_ENDPOINT: 'http://c:4318' }).warnings).toEqual([]);
  });
});

/**
 * Traces over OTLP/HTTP (protobuf and JSON), OTLP/gRPC and Zipkin, received on loopback by receivers that decode
 * them (support/receivers.ts): span names and kinds, the feature-flag and `flipt.*` attributes of evaluations,
 * parents (request → evaluation, request → write → transaction), a continued `traceparent`, the resource.
 */
import { Tracing } from '../../src/tracing/tracing';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { grpcReceiver, httpReceiver, type ReceivedSpan, type Receiver } from './support/receivers';
import { CALLER, evaluateAFlag } from './support/scenario';

const SERVER = 2;

function one(spans: ReceivedSpan[], name: string, where: (s: ReceivedSpan) => boolean = () => true): ReceivedSpan {
  const found = spans.filter((s) => s.name === name && where(s));
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0];
}

/** Runs the scenario against a Flagpole exporting to `receiver`, and returns what it received once it closed. */
async function traced(receiver: Receiver, env: Record<string, string>): Promise<ReceivedSpan[]> {
  const fp = await startFlagpole({ FLAGPOLE_TRACING_ENABLED: 'true', ...env });
  try {
    await evaluateAFlag(fp);
  } finally {
    // Closing sends what the batch processor holds.
    await fp.close();
  }
  return receiver.spans;
}

describe('tracing over OTLP/HTTP protobuf', () => {
  let receiver: Receiver;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await httpReceiver();
    spans = await traced(receiver, {
      FLAGPOLE_TRACING_EXPORTER: 'otlp',
      FLAGPOLE_TRACING_OTLP_ENDPOINT: receiver.url,
      FLAGPOLE_TRACING_OTLP_HEADERS_AUTHORIZATION: 'Bearer collector-key',
      FLAGPOLE_TRACING_SERVICE_NAME: 'flags-eu',
      FLAGPOLE_TRACING_RESOURCE_ATTRIBUTES_TEAM: 'platform',
    });
  });
  afterAll(() => receiver.close());

  it('sends protobuf to /v1/traces with the configured headers', () => {
    expect(receiver.headers.length).toBeGreaterThan(0);
    for (const h of receiver.headers) expect(h).toMatchObject({ 'content-type': 'application/x-protobuf', authorization: 'Bearer collector-key' });
  });

  it('continues the caller’s traceparent: the request’s server span is a child of the caller’s span', () => {
    const server = one(spans, 'POST /evaluate/v1/variant');
    expect(server).toMatchObject({ traceId: CALLER.traceId, parentSpanId: CALLER.spanId, kind: SERVER });
    expect(server.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/evaluate/v1/variant', 'url.path': '/evaluate/v1/variant', 'http.response.status_code': 200 });
  });

  it('gives each evaluation a child span with the feature-flag conventions and Flipt’s attributes', () => {
    const server = one(spans, 'POST /evaluate/v1/variant');
    const evaluation = one(spans, 'feature_flag.evaluation', (s) => s.attributes['feature_flag.key'] === 'color');
    expect(evaluation).toMatchObject({ traceId: CALLER.traceId, parentSpanId: server.spanId });
    expect(evaluation.attributes).toEqual(expect.objectContaining({
      'feature_flag.key': 'color',
      'feature_flag.provider_name': 'Flagpole',
      'feature_flag.provider.name': 'Flagpole',
      'feature_flag.result.variant': 'blue',
      'feature_flag.result.reason': 'targeting_match',
      'feature_flag.context.id': 'user-7',
      'flipt.namespace': 'default',
      'flipt.flag': 'color',
      'flipt.entity_id': 'user-7',
      'flipt.request_id': 'req-1',
      'flipt.match': true,
      'flipt.value': 'blue',
      'flipt.reason': 'MATCH_EVALUATION_REASON',
      'flipt.segments': ['everyone'],
      'flipt.flag_enabled': true,
    }));
    const boolean = one(spans, 'feature_flag.evaluation', (s) => s.attributes['feature_flag.key'] === 'dark-mode');
    expect(boolean.attributes).toMatchObject({ 'feature_flag.result.value': true, 'flipt.value': 'true', 'flipt.reason': 'DEFAULT_EVALUATION_REASON' });
    // A request without a traceparent starts its own trace.
    expect(boolean.traceId).not.toBe(CALLER.traceId);
  });

  it('loads the namespace’s snapshot in a span of its own, under the first evaluation’s request', () => {
    const server = one(spans, 'POST /evaluate/v1/variant');
    const load = one(spans, 'snapshot.load');
    expect(load).toMatchObject({ parentSpanId: server.spanId, attributes: { 'flipt.namespace': 'default' } });
  });

  it('gives a management write its span, and the write’s database work a child of it', () => {
    const server = one(spans, 'POST /api/v1/namespaces/:namespaceKey/flags', (s) => spans.some((w) => w.parentSpanId === s.spanId && w.attributes['flipt.flag'] === 'color'));
    const write = one(spans, 'flagpole.write', (s) => s.parentSpanId === server.spanId);
    expect(write.attributes).toMatchObject({ 'flipt.namespace': 'default', 'flipt.flag': 'color' });
    const transaction = one(spans, 'db.transaction', (s) => s.parentSpanId === write.spanId);
    expect(transaction.attributes).toMatchObject({ 'db.system.name': 'sqlite', 'db.operation.name': 'transaction' });
  });

  it('names the service and carries the configured resource attributes', () => {
    for (const s of spans) expect(s.resource).toMatchObject({ 'service.name': 'flags-eu', team: 'platform' });
  });
});

describe('tracing over OTLP/HTTP JSON', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await httpReceiver();
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/json';
    try {
      await traced(receiver, { FLAGPOLE_TRACING_EXPORTER: 'otlp', FLAGPOLE_TRACING_OTLP_ENDPOINT: `${receiver.url}/v1/traces` });
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL;
    }
  });
  afterAll(() => receiver.close());

  it('sends JSON, with the same spans and parents', () => {
    for (const h of receiver.headers) expect(h['content-type']).toBe('application/json');
    const server = one(receiver.spans, 'POST /evaluate/v1/variant');
    expect(server).toMatchObject({ traceId: CALLER.traceId, parentSpanId: CALLER.spanId });
    const evaluation = one(receiver.spans, 'feature_flag.evaluation', (s) => s.parentSpanId === server.spanId);
    expect(evaluation.attributes).toMatchObject({ 'feature_flag.key': 'color', 'feature_flag.result.variant': 'blue', 'flipt.segments': ['everyone'] });
    expect(receiver.spans[0].resource['service.name']).toBe('flagpole');
  });
});

describe('tracing over OTLP/gRPC', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await grpcReceiver();
    // No scheme: OTLP/gRPC, as Flipt reads `localhost:4317`.
    await traced(receiver, {
      FLAGPOLE_TRACING_EXPORTER: 'otlp',
      FLAGPOLE_TRACING_OTLP_ENDPOINT: `127.0.0.1:${receiver.port}`,
      FLAGPOLE_TRACING_OTLP_HEADERS_AUTHORIZATION: 'Bearer grpc-key',
    });
  });
  afterAll(() => receiver.close());

  it('calls the collector’s TraceService with the headers as metadata, and the same spans', () => {
    expect(receiver.headers[0]).toMatchObject({ authorization: 'Bearer grpc-key' });
    const server = one(receiver.spans, 'POST /evaluate/v1/variant');
    expect(server).toMatchObject({ traceId: CALLER.traceId, parentSpanId: CALLER.spanId, kind: SERVER });
    const evaluation = one(receiver.spans, 'feature_flag.evaluation', (s) => s.parentSpanId === server.spanId);
    expect(evaluation.attributes).toMatchObject({ 'feature_flag.key': 'color', 'flipt.match': true });
  });

  it('takes grpc:// as OTLP/gRPC too', async () => {
    const second = await grpcReceiver();
    try {
      const fp = await startFlagpole({ FLAGPOLE_TRACING_ENABLED: 'true', FLAGPOLE_TRACING_EXPORTER: 'otlp', FLAGPOLE_TRACING_OTLP_ENDPOINT: `grpc://127.0.0.1:${second.port}` });
      await client(fp.url).get('/api/v1/namespaces');
      await fp.close();
      expect(second.spans.map((s) => s.name)).toContain('GET /api/v1/namespaces');
    } finally {
      await second.close();
    }
  });
});

describe('tracing to Zipkin', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await httpReceiver();
    await traced(receiver, { FLAGPOLE_TRACING_EXPORTER: 'zipkin', FLAGPOLE_TRACING_ZIPKIN_ENDPOINT: `${receiver.url}/api/v2/spans` });
  });
  afterAll(() => receiver.close());

  it('posts Zipkin JSON v2 with the same names, tags and parents', () => {
    const server = one(receiver.spans, 'POST /evaluate/v1/variant');
    expect(server).toMatchObject({ traceId: CALLER.traceId, parentSpanId: CALLER.spanId, kind: 'SERVER', resource: { 'service.name': 'flagpole' } });
    const evaluation = one(receiver.spans, 'feature_flag.evaluation', (s) => s.parentSpanId === server.spanId);
    // Zipkin tags are text.
    expect(evaluation.attributes).toMatchObject({ 'feature_flag.key': 'color', 'flipt.match': 'true', 'flipt.value': 'blue' });
  });
});

describe('tracing off', () => {
  it('registers nothing and sends nothing, though an endpoint is configured', async () => {
    const receiver = await httpReceiver();
    try {
      const fp = await startFlagpole({ FLAGPOLE_TRACING_EXPORTER: 'otlp', FLAGPOLE_TRACING_OTLP_ENDPOINT: receiver.url });
      expect(fp.app.get(Tracing)).toBe(Tracing.OFF);
      await evaluateAFlag(fp);
      await fp.close();
      expect(receiver.spans).toEqual([]);
      expect(receiver.headers).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});


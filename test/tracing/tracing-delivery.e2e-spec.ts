/**
 * What tracing does around delivery: sampling 0 sends nothing, B3 headers are continued when configured, OFREP and
 * batch evaluations and audit deliveries get their spans, and a receiver that is down (a closed port) or hung (a port
 * that accepts and never answers) never makes a request fail or hang, nor keeps the application from closing.
 */
import { client, startFlagpole } from '../support/flagpole';
import { closedPort, eventually, httpReceiver, silentReceiver, type ReceivedSpan, type Receiver } from './support/receivers';
import { CALLER, evaluateAFlag, TRACEPARENT } from './support/scenario';

const otlpTo = (endpoint: string, env: Record<string, string> = {}) => ({
  FLAGPOLE_TRACING_ENABLED: 'true', FLAGPOLE_TRACING_EXPORTER: 'otlp', FLAGPOLE_TRACING_OTLP_ENDPOINT: endpoint, ...env,
});

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

describe('sampling', () => {
  it('sends nothing at sampling_ratio 0, also for a caller whose traceparent is sampled', async () => {
    const receiver = await httpReceiver();
    try {
      const fp = await startFlagpole(otlpTo(receiver.url, { FLAGPOLE_TRACING_SAMPLING_RATIO: '0' }));
      await evaluateAFlag(fp);
      const api = client(fp.url);
      for (let i = 0; i < 20; i++) expect((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: `u${i}`, context: {} }, { traceparent: TRACEPARENT })).status).toBe(200);
      await fp.close();
      expect(receiver.spans).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('propagators', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await httpReceiver();
    const fp = await startFlagpole(otlpTo(receiver.url, { FLAGPOLE_TRACING_PROPAGATORS: 'b3 b3multi baggage' }));
    const api = client(fp.url);
    await api.get('/api/v1/namespaces', undefined, { 'x-b3-traceid': 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1', 'x-b3-spanid': 'bbbbbbbbbbbbbbb1', 'x-b3-sampled': '1' });
    await api.get('/api/v1/namespaces/default', undefined, { b3: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2-bbbbbbbbbbbbbbb2-1' });
    // tracecontext is not configured: the traceparent is not followed.
    await api.get('/api/v1/namespaces/default/flags', undefined, { traceparent: TRACEPARENT });
    await fp.close();
  });
  afterAll(() => receiver.close());

  it('continues B3 multi-header and single-header traces', () => {
    expect(named(receiver.spans, 'GET /api/v1/namespaces')[0]).toMatchObject({ traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1', parentSpanId: 'bbbbbbbbbbbbbbb1' });
    expect(named(receiver.spans, 'GET /api/v1/namespaces/:key')[0]).toMatchObject({ traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2', parentSpanId: 'bbbbbbbbbbbbbbb2' });
  });

  it('ignores a traceparent when tracecontext is not among the propagators', () => {
    const [span] = named(receiver.spans, 'GET /api/v1/namespaces/:namespaceKey/flags');
    expect(span.traceId).not.toBe(CALLER.traceId);
    expect(span.parentSpanId).toBe('');
  });
});

describe('spans of OFREP and batch evaluations and of audit deliveries', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await httpReceiver();
    const fp = await startFlagpole(otlpTo(receiver.url, {
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: `${receiver.url}/audit`,
    }));
    await evaluateAFlag(fp);
    const api = client(fp.url);
    expect((await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'user-9' } })).status).toBe(200);
    expect((await api.post('/evaluate/v1/batch', { requests: [{ flagKey: 'color', entityId: 'b1', context: {} }, { flagKey: 'dark-mode', entityId: 'b1', context: {} }] })).status).toBe(200);
    // Every write's audit event has reached the webhook before the application closes (and sends its spans).
    await eventually(() => receiver.posts.filter((p) => p.path === '/audit').length >= 6);
    await fp.close();
  });
  afterAll(() => receiver.close());

  const childrenOf = (name: string) => {
    const [server] = named(receiver.spans, name);
    return receiver.spans.filter((s) => s.parentSpanId === server.spanId);
  };

  it('OFREP: one evaluation span under the request, for the targeting key', () => {
    const [evaluation] = childrenOf('POST /ofrep/v1/evaluate/flags/:key');
    expect(evaluation).toMatchObject({ name: 'feature_flag.evaluation', attributes: { 'feature_flag.key': 'color', 'feature_flag.context.id': 'user-9', 'feature_flag.result.variant': 'blue' } });
  });

  it('batch: one evaluation span per item under the request', () => {
    const children = childrenOf('POST /evaluate/v1/batch').filter((s) => s.name === 'feature_flag.evaluation');
    expect(children.map((s) => s.attributes['feature_flag.key']).sort()).toEqual(['color', 'dark-mode']);
  });

  it('audit deliveries: a span per webhook delivery, in the trace of the write that made the event', () => {
    const deliveries = named(receiver.spans, 'audit.delivery');
    expect(deliveries.map((s) => s.attributes['flagpole.audit.event'])).toEqual(expect.arrayContaining(['flag:created', 'segment:created', 'variant:created']));
    const [created] = deliveries.filter((s) => s.attributes['flagpole.audit.event'] === 'segment:created');
    expect(created.attributes).toMatchObject({ 'flagpole.audit.sink': 'webhook', 'server.address': '127.0.0.1' });
    const [write] = named(receiver.spans, 'POST /api/v1/namespaces/:namespaceKey/segments');
    expect(created.traceId).toBe(write.traceId);
  });
});

describe('a receiver that is down or never answers', () => {
  const cases: Array<[string, () => Promise<{ env: Record<string, string>; stop: () => Promise<void> }>]> = [
    ['OTLP/HTTP to a closed port', async () => ({ env: otlpTo(`http://127.0.0.1:${await closedPort()}`), stop: async () => undefined })],
    ['OTLP/gRPC to a closed port', async () => ({ env: otlpTo(`127.0.0.1:${await closedPort()}`), stop: async () => undefined })],
    ['OTLP/HTTP to a port that never answers', async () => {
      const silent = await silentReceiver();
      return { env: otlpTo(silent.url), stop: () => silent.close() };
    }],
    ['OTLP/gRPC to a port that never answers', async () => {
      const silent = await silentReceiver();
      return { env: otlpTo(`grpc://127.0.0.1:${silent.port}`), stop: () => silent.close() };
    }],
    ['Zipkin to a port that never answers', async () => {
      const silent = await silentReceiver();
      return { env: { FLAGPOLE_TRACING_ENABLED: 'true', FLAGPOLE_TRACING_EXPORTER: 'zipkin', FLAGPOLE_TRACING_ZIPKIN_ENDPOINT: `${silent.url}/api/v2/spans` }, stop: () => silent.close() };
    }],
  ];

  it.each(cases)('%s: every request is answered, and the application closes', async (_name, receiver) => {
    const { env, stop } = await receiver();
    try {
      const fp = await startFlagpole(env);
      await evaluateAFlag(fp);
      const api = client(fp.url);
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: `u${i}`, context: {} })));
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      // Closing waits a bounded time for the spans it cannot send, then gives up on them.
      await fp.close();
    } finally {
      await stop();
    }
  });
});


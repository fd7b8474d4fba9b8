/**
 * Loopback receivers that speak the real protocols and decode what they get: OTLP/HTTP (protobuf and JSON, traces and
 * metrics), OTLP/gRPC (the collector's TraceService and MetricsService, through @grpc/grpc-js) and Zipkin's JSON v2.
 * Each turns what arrived into the same plain shapes (ReceivedSpan, ReceivedMetric), so the suites assert once.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { Server as GrpcServer, ServerCredentials, type ServiceDefinition, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import * as protobuf from 'protobufjs';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers (2 = SERVER, 1 = INTERNAL) or Zipkin's names. */
  kind: number | string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export interface ReceivedMetric {
  name: string;
  /** One entry per data point: its attributes and value (a histogram's count). */
  points: Array<{ attributes: Record<string, unknown>; value: number }>;
}

export interface Receiver {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  spans: ReceivedSpan[];
  metrics: ReceivedMetric[];
  /** The headers (HTTP) or metadata (gRPC) of every export. */
  headers: Array<Record<string, unknown>>;
  /** Bodies of other POSTs (the audit webhook's), by path. */
  posts: Array<{ path: string; body: string }>;
  close(): Promise<void>;
}

const root = protobuf.loadSync(join(__dirname, 'otlp.proto'));
const TraceRequest = root.lookupType('opentelemetry.proto.ExportTraceServiceRequest');
const MetricsRequest = root.lookupType('opentelemetry.proto.ExportMetricsServiceRequest');
const EmptyResponse = root.lookupType('opentelemetry.proto.ExportTraceServiceResponse');

type Json = any;

/** Protobuf decoded to the same object shape OTLP/JSON has (bytes as hex, 64-bit numbers as strings). */
function fromProtobuf(type: protobuf.Type, body: Uint8Array): Json {
  const object = type.toObject(type.decode(body), { longs: String, bytes: Array, oneofs: false, defaults: false });
  return JSON.parse(JSON.stringify(object, (key, value) => (Array.isArray(value) && /Id$/.test(key) ? Buffer.from(value as number[]).toString('hex') : value)));
}

function anyValue(value: Json): unknown {
  if (!value) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('arrayValue' in value) return (value.arrayValue.values ?? []).map(anyValue);
  return undefined;
}

function attributes(list: Json[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv: Json) => [kv.key, anyValue(kv.value)]));
}

function spansOf(request: Json): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: s.kind, attributes: attributes(s.attributes), resource });
      }
    }
  }
  return out;
}

function metricsOf(request: Json): ReceivedMetric[] {
  const out: ReceivedMetric[] = [];
  for (const rm of request.resourceMetrics ?? []) {
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        const data = m.sum ?? m.gauge ?? m.histogram;
        const points = (data?.dataPoints ?? []).map((p: Json) => ({
          attributes: attributes(p.attributes),
          value: Number(m.histogram ? p.count : (p.asDouble ?? p.asInt ?? 0)),
        }));
        out.push({ name: m.name, points });
      }
    }
  }
  return out;
}

function zipkinSpans(body: Json[]): ReceivedSpan[] {
  return body.map((s) => ({
    traceId: s.traceId, spanId: s.id, parentSpanId: s.parentId ?? '', name: s.name, kind: s.kind, attributes: s.tags ?? {},
    resource: { 'service.name': s.localEndpoint?.serviceName },
  }));
}

/**
 * Keeps the spans not received before. OTLP delivery is at-least-once: an export whose answer is late (a busy machine,
 * where the receiver shares the test's event loop) is sent again, up to five more times, and a collector drops the
 * copies by trace and span id, as this does. (A full-suite run once received one batch six times.)
 */
function keepNew(receiver: Receiver, spans: ReceivedSpan[]): void {
  for (const span of spans) {
    const id = `${span.traceId}/${span.spanId}`;
    if (receiver.spans.some((s) => `${s.traceId}/${s.spanId}` === id)) continue;
    receiver.spans.push(span);
  }
}

function base(port: number, close: () => Promise<void>): Receiver {
  return { port, url: `http://127.0.0.1:${port}`, spans: [], metrics: [], headers: [], posts: [], close };
}

function listening(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

/** OTLP/HTTP (`/v1/traces`, `/v1/metrics`, protobuf or JSON by Content-Type), Zipkin (`/api/v2/spans`), anything else kept as a post. */
export async function httpReceiver(): Promise<Receiver> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const json = /json/.test(req.headers['content-type'] ?? '');
      const path = req.url ?? '';
      if (path === '/v1/traces' || path === '/v1/metrics' || path === '/api/v2/spans') receiver.headers.push(req.headers as IncomingHttpHeaders);
      if (path === '/v1/traces') keepNew(receiver, spansOf(json ? JSON.parse(body.toString()) : fromProtobuf(TraceRequest, body)));
      else if (path === '/v1/metrics') receiver.metrics.push(...metricsOf(json ? JSON.parse(body.toString()) : fromProtobuf(MetricsRequest, body)));
      else if (path === '/api/v2/spans') keepNew(receiver, zipkinSpans(JSON.parse(body.toString())));
      else receiver.posts.push({ path, body: body.toString() });
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : '');
    });
  });
  const port = await listening(server);
  const receiver = base(port, () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return receiver;
}

/** The collector's gRPC services, decoded with the same message definitions. */
export async function grpcReceiver(): Promise<Receiver> {
  const server = new GrpcServer();
  const method = (path: string, type: protobuf.Type, take: (request: Json, metadata: Record<string, unknown>) => void) => ({
    Export: {
      path, requestStream: false, responseStream: false,
      requestSerialize: () => Buffer.alloc(0),
      requestDeserialize: (bytes: Buffer) => fromProtobuf(type, bytes),
      responseSerialize: () => Buffer.from(EmptyResponse.encode(EmptyResponse.create({})).finish()),
      responseDeserialize: () => ({}),
    },
    handler: (call: ServerUnaryCall<Json, Json>, callback: sendUnaryData<Json>) => {
      take(call.request, call.metadata.getMap());
      callback(null, {});
    },
  });
  const traces = method('/opentelemetry.proto.collector.trace.v1.TraceService/Export', TraceRequest, (r, m) => {
    receiver.headers.push(m);
    keepNew(receiver, spansOf(r));
  });
  const metrics = method('/opentelemetry.proto.collector.metrics.v1.MetricsService/Export', MetricsRequest, (r, m) => {
    receiver.headers.push(m);
    receiver.metrics.push(...metricsOf(r));
  });
  server.addService({ Export: traces.Export } as unknown as ServiceDefinition, { Export: traces.handler });
  server.addService({ Export: metrics.Export } as unknown as ServiceDefinition, { Export: metrics.handler });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const receiver = base(port, () => new Promise((resolve) => server.tryShutdown(() => resolve())));
  return receiver;
}

/** A port that accepts connections and never answers (a hung collector). */
export async function silentReceiver(): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  const port = await listening(server);
  return base(port, () => new Promise((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
}

/** A port nothing listens on (a collector that is down). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until `check` holds (what the receiver got arrives asynchronously), failing after `ms`. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting for the receiver');
    await new Promise((r) => setTimeout(r, 25));
  }
}

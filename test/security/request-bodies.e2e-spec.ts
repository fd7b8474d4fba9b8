/**
 * How request bodies are received (docs/security.md, Limits): the memory bodies in flight may hold across all requests
 * (`limits.max_body_bytes_in_flight`), the evaluation routes' own smaller limit (`limits.max_evaluation_body_bytes`),
 * bodies that arrive too slowly (`limits.min_body_rate` after `limits.body_rate_grace`), and a refused body's answer
 * reaching a client that is still sending (the lingering close, `limits.linger_timeout`). Spoken over raw sockets, as a
 * slow or hostile client would; no timing is asserted beyond generous bounds.
 */
import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { connectionsTo, head, sleep, statusOf } from './support/raw-http';

const KIB = 1024;
const MIB = 1024 * KIB;
const BUDGET = 2 * MIB;
const EVALUATION_LIMIT = 64 * KIB;

const bodyOf = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);

/** A batch evaluation request of about `bytes` bytes (one padded entity id per item). */
function batchOf(bytes: number): string {
  const items = Array.from({ length: Math.ceil(bytes / 1000) }, (_, i) => ({ flagKey: 'none', entityId: `${i}${'e'.repeat(980)}` }));
  return JSON.stringify({ requests: items.slice(0, 1000) });
}

describe('bodies in flight, per-route body limits and slow bodies', () => {
  let fp: RunningFlagpole;
  const connection = connectionsTo(() => fp.url);
  beforeAll(async () => {
    fp = await startFlagpole({
      FLAGPOLE_LIMITS_MAX_BODY_BYTES_IN_FLIGHT: String(BUDGET),
      FLAGPOLE_LIMITS_MAX_EVALUATION_BODY_BYTES: String(EVALUATION_LIMIT),
      FLAGPOLE_LIMITS_MIN_BODY_RATE: '1024',
      FLAGPOLE_LIMITS_BODY_RATE_GRACE: '1s',
      FLAGPOLE_LIMITS_LINGER_TIMEOUT: '1s',
    });
  });
  afterAll(() => fp?.close());

  it('answers 503 in Flipt’s body to the body that would take the bodies in flight past limits.max_body_bytes_in_flight', async () => {
    // Three bodies of 1 MiB each, none complete: two fit in the 2 MiB budget, the third cannot.
    const held = await Promise.all([connection(), connection(), connection()]);
    for (const c of held) {
      c.send(head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': MIB + 1 }));
      c.send('x'.repeat(MIB));
    }
    const until = Date.now() + 15_000;
    while (Date.now() < until && !held.some((c) => statusOf(c.received))) await sleep(50);
    await sleep(300);
    const answered = held.filter((c) => statusOf(c.received) !== undefined);
    expect(answered).toHaveLength(1);
    const [refused] = answered;
    expect(statusOf(refused.received)).toBe(503);
    expect(JSON.parse(bodyOf(refused.received))).toEqual({ code: 14, message: expect.stringContaining('limits.max_body_bytes_in_flight'), details: [] });
    expect(refused.received).toMatch(/\r\nconnection: close\r\n/i);
    expect(await refused.closedWithin(10_000)).toBe(true);

    // The two held bodies are given up by their clients: their bytes leave the budget, and a body that needs most of
    // it is received again.
    held.forEach((c) => c.destroy());
    const body = JSON.stringify({ key: 'after', name: 'x'.repeat(1.5 * MIB) });
    let status = 503;
    for (const stop = Date.now() + 10_000; status === 503 && Date.now() < stop; ) {
      status = (await http(fp.url, 'POST', '/api/v1/namespaces', body)).status;
      if (status === 503) await sleep(100);
    }
    expect(status).not.toBe(503);
    expect(status).toBeLessThan(500);
  });

  it('answers 503 to a single body larger than limits.max_body_bytes_in_flight', async () => {
    const res = await http(fp.url, 'POST', '/api/v1/namespaces', JSON.stringify({ key: 'big', name: 'x'.repeat(3 * MIB) }));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 14, message: expect.stringContaining('limits.max_body_bytes_in_flight'), details: [] });
  });

  it('bounds the evaluation routes’ bodies by limits.max_evaluation_body_bytes, and leaves other routes at limits.max_body_bytes', async () => {
    const small = await http(fp.url, 'POST', '/evaluate/v1/batch', { requests: [{ flagKey: 'none', entityId: 'e' }] });
    expect(small.status).toBe(200);

    const big = batchOf(EVALUATION_LIMIT * 2);
    for (const path of ['/evaluate/v1/batch', '/evaluate/v1/boolean', '/api/v1/batch-evaluate', '/ofrep/v1/evaluate/flags']) {
      const res = await http(fp.url, 'POST', path, big);
      expect({ path, status: res.status }).toEqual({ path, status: 413 });
    }
    const res = await http(fp.url, 'POST', '/evaluate/v1/batch', big);
    expect(res.body).toEqual({ code: 3, message: expect.stringContaining('limits.max_evaluation_body_bytes'), details: [] });

    // A management route takes the same body (and refuses it for what it says, not for its size).
    const management = await http(fp.url, 'POST', '/api/v1/namespaces', big);
    expect(management.status).toBe(400);
  });

  it('answers 408 and closes a body that arrives slower than limits.min_body_rate once limits.body_rate_grace is over', async () => {
    const c = await connection();
    c.send(head('POST', '/evaluate/v1/batch', { 'content-type': 'application/json', 'content-length': 4000 }));
    let sent = 0;
    const trickle = setInterval(() => c.send('x') && sent++, 100);
    try {
      expect(await c.closedWithin(15_000)).toBe(true);
    } finally {
      clearInterval(trickle);
    }
    expect(statusOf(c.received)).toBe(408);
    expect(JSON.parse(bodyOf(c.received))).toEqual({ code: 4, message: expect.stringContaining('limits.min_body_rate'), details: [] });
    expect(sent).toBeLessThan(4000);
  });

  it('serves a body that arrives in pieces within the grace period', async () => {
    const c = await connection();
    const body = JSON.stringify({ flagKey: 'none', entityId: 'e', context: {} });
    c.send(head('POST', '/evaluate/v1/boolean', { 'content-type': 'application/json', 'content-length': body.length }));
    for (const part of [body.slice(0, 5), body.slice(5, 12), body.slice(12)]) {
      await sleep(150);
      c.send(part);
    }
    // The flag does not exist: a 404 means the body was read and evaluated.
    expect(statusOf(await c.response(5_000))).toBe(404);
  });
});

/** What a client that writes its whole body before reading sees: every byte the server sent, and any socket error. */
interface Exchange {
  received: string;
  error: NodeJS.ErrnoException | null;
}

function sendWhole(base: string, headText: string, body: Buffer | Buffer[], ms: number): Promise<Exchange> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), hostname);
    const exchange: Exchange = { received: '', error: null };
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (exchange.received += chunk));
    socket.on('error', (e) => (exchange.error = e));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(exchange);
    });
    socket.write(headText);
    for (const part of Array.isArray(body) ? body : [body]) socket.write(part);
  });
}

describe('a refused body’s answer reaches a client that is still sending it (lingering close)', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_LIMITS_LINGER_TIMEOUT: '1s' });
  });
  afterAll(() => fp?.close());

  const TEN_MIB = Buffer.alloc(10 * MIB, 'x');
  const expect413 = (exchange: Exchange) => {
    expect(exchange.error?.code ?? null).toBeNull();
    expect(statusOf(exchange.received)).toBe(413);
    expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(bodyOf(exchange.received))).toEqual({ code: 3, message: expect.stringContaining('limits.max_body_bytes'), details: [] });
  };

  it('lets a client that writes a declared 10 MiB body (the limit is 4 MiB) read the 413, then closes', async () => {
    const headText = head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': TEN_MIB.length });
    expect413(await sendWhole(fp.url, headText, TEN_MIB, 20_000));
  });

  it('does the same for a chunked body that grows past the limit', async () => {
    const headText = head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const chunk = Buffer.concat([Buffer.from(`${(MIB).toString(16)}\r\n`), Buffer.alloc(MIB, 'x'), Buffer.from('\r\n')]);
    const chunks = [...Array.from({ length: 10 }, () => chunk), Buffer.from('0\r\n\r\n')];
    expect413(await sendWhole(fp.url, headText, chunks, 20_000));
  });

  it('lets Node’s own HTTP client read the 413 while it sends a 10 MiB body', async () => {
    const { hostname, port } = new URL(fp.url);
    const result = await new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
      const req = httpRequest({ host: hostname, port: Number(port), method: 'POST', path: '/api/v1/namespaces', headers: { 'content-type': 'application/json', 'content-length': TEN_MIB.length } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, body }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ status: res.statusCode, body, error: e.code ?? e.message }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      req.end(TEN_MIB);
    });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body!)).toMatchObject({ code: 3, details: [] });
  });

  it('stops lingering after limits.linger_timeout when the client keeps sending after the answer', async () => {
    // A client that keeps its side open when the server closes its own (as an attacker would).
    const { hostname, port } = new URL(fp.url);
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let received = '';
    let closedAt = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => ((closedAt = Date.now()), resolve())));
    const sentAt = Date.now();
    socket.write(head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': 10 * MIB }));
    const trickle = setInterval(() => socket.writable && socket.write('x'.repeat(KIB)), 50);
    try {
      for (const stop = Date.now() + 5_000; !statusOf(received) && Date.now() < stop; ) await sleep(10);
      expect(statusOf(received)).toBe(413);
      await Promise.race([closed, sleep(15_000)]);
      expect(closedAt).toBeGreaterThan(0);
      // Not closed with the answer: the server read on until limits.linger_timeout (1 s), which cannot run out sooner.
      expect(closedAt - sentAt).toBeGreaterThanOrEqual(900);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('never serves bytes sent after a refused body as a further request', async () => {
    const body = Buffer.alloc(5 * MIB, 'x');
    const smuggled = JSON.stringify({ key: 'smuggled', name: 'smuggled' });
    const next = head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': smuggled.length }) + smuggled;
    const headText = head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': body.length });
    const exchange = await sendWhole(fp.url, headText, [body, Buffer.from(next)], 20_000);
    expect(statusOf(exchange.received)).toBe(413);
    expect(exchange.received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect((await http(fp.url, 'GET', '/api/v1/namespaces/smuggled')).status).toBe(404);
  });
});

/**
 * The transport limits (docs/security.md): `limits.request_timeout`, `limits.idle_timeout`, `limits.max_connections`,
 * and credentials checked before a body is read. Spoken over raw sockets, as a slow or hostile client would.
 */
import { bearer, BOOTSTRAP, expectUnauthenticated, TOKEN_REQUIRED } from '../auth/support';
import { client, http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { head, RawConnection, sleep, statusOf } from './support/raw-http';

const FOUR_MIB = 4 * 1024 * 1024;

describe('request and idle timeouts', () => {
  let fp: RunningFlagpole;
  const open: RawConnection[] = [];
  const connection = async () => {
    const c = new RawConnection(fp.url);
    open.push(c);
    await c.connected();
    return c;
  };
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_LIMITS_REQUEST_TIMEOUT: '1s', FLAGPOLE_LIMITS_IDLE_TIMEOUT: '2s' });
  });
  afterEach(() => open.splice(0).forEach((c) => c.destroy()));
  afterAll(() => fp?.close());

  it('cuts off a body that trickles in for longer than limits.request_timeout, however busy the socket', async () => {
    const c = await connection();
    c.send(head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': FOUR_MIB }));
    let sent = 0;
    const trickle = setInterval(() => c.send('x') && sent++, 50);
    // The wait only gives up on a connection that is never closed; the timeout firing is the lower bound below.
    try {
      expect(await c.closedWithin(20_000)).toBe(true);
    } finally {
      clearInterval(trickle);
    }
    expect(c.closedAfter).toBeGreaterThanOrEqual(900);
    expect(statusOf(c.received)).toBe(408);
    expect(c.received.slice(c.received.indexOf('\r\n\r\n') + 4)).toBe(
      JSON.stringify({ code: 4, message: 'request not received in time', details: [] }),
    );
    // Bytes kept arriving, and the connection was closed all the same.
    expect(sent).toBeGreaterThan(0);
  });

  it('closes a connection that never completes its request head', async () => {
    const c = await connection();
    c.send('GET /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await c.closedWithin(20_000)).toBe(true);
    expect(statusOf(c.received)).toBe(408);
  });

  it('serves a slow request that arrives whole within the limit', async () => {
    const c = await connection();
    const body = JSON.stringify({ key: 'slow', name: 'Slow' });
    c.send(head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': body.length }));
    for (const part of [body.slice(0, 5), body.slice(5, 12), body.slice(12)]) {
      await sleep(150);
      c.send(part);
    }
    expect(statusOf(await c.response(10_000))).toBe(200);
  });

  it('closes a kept-alive connection that sends nothing more for limits.idle_timeout', async () => {
    const kept = await connection();
    kept.send(head('GET', '/api/v1/namespaces/default'));
    expect(statusOf(await kept.response(10_000))).toBe(200);
    expect(kept.closedAfter).toBeNull();
    expect(await kept.closedWithin(20_000)).toBe(true);
    expect(kept.closedAfter).toBeGreaterThanOrEqual(1_500);
  });
});

describe('limits.max_connections', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_LIMITS_MAX_CONNECTIONS: '2' });
  });
  afterAll(() => fp?.close());

  it('closes connections past the limit at once, and takes new ones when others leave', async () => {
    const held = [new RawConnection(fp.url), new RawConnection(fp.url)];
    const extra = new RawConnection(fp.url);
    const later = new RawConnection(fp.url, false);
    try {
      await Promise.all(held.map((c) => c.connected()));
      held[0].send(head('GET', '/health'));
      expect(statusOf(await held[0].response(10_000))).toBe(200);

      extra.send(head('GET', '/health'));
      // Held, it would stay open until the 2-minute idle timeout: the wait gives up long before that.
      expect(await extra.closedWithin(20_000)).toBe(true);
      expect(extra.received).toBe('');

      held.forEach((c) => c.destroy());
      await sleep(100);
      later.open();
      later.send(head('GET', '/health'));
      expect(statusOf(await later.response(10_000))).toBe(200);
    } finally {
      [...held, extra, later].forEach((c) => c.destroy());
    }
  });
});

describe('credentials checked before the body is read', () => {
  let fp: RunningFlagpole;
  const open: RawConnection[] = [];
  /** Sends the head of a request declaring a 4 MiB body, and only its first bytes. */
  const hugeBody = async (path: string, headers: Record<string, string> = {}) => {
    const c = new RawConnection(fp.url);
    open.push(c);
    await c.connected();
    c.send(head('POST', path, { 'content-type': 'application/json', 'content-length': FOUR_MIB, ...headers }));
    c.send('{"key":');
    return c;
  };
  beforeAll(async () => {
    fp = await startFlagpole(TOKEN_REQUIRED);
  });
  afterEach(() => open.splice(0).forEach((c) => c.destroy()));
  afterAll(() => fp?.close());

  it.each([
    ['no credential', {}],
    ['an unknown client token', bearer('not-a-token')],
    ['an unknown session cookie', { cookie: 'flagpole_client_token=not-a-token' }],
    ['another Authorization scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('refuses %s at once with the guard’s 401, and closes the connection', async (_, headers) => {
    for (const path of ['/api/v1/namespaces', '/evaluate/v1/boolean', '/api/v1/namespaces/default/flags']) {
      const c = await hugeBody(path, headers);
      // Reading the body first would mean waiting for bytes that never come, until the 30 s request timeout.
      const text = await c.response(10_000);
      expect({ path, status: statusOf(text) }).toEqual({ path, status: 401 });
      expect(text).toMatch(/\r\nwww-authenticate: request was not authenticated\r\n/i);
      expect(text).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
      expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(JSON.stringify({ code: 16, message: 'request was not authenticated', details: [] }));
      expect(await c.closedWithin(10_000)).toBe(true);
    }
    // The same answer as the guard gives once a whole body is there.
    expectUnauthenticated(await http(fp.url, 'POST', '/api/v1/namespaces', { key: 'x', name: 'x' }, headers));
  });

  it('reads the body of a request with a valid credential, and serves it', async () => {
    const body = JSON.stringify({ key: 'early', name: 'Early' });
    const c = new RawConnection(fp.url);
    open.push(c);
    await c.connected();
    c.send(head('POST', '/api/v1/namespaces', { 'content-type': 'application/json', 'content-length': body.length, ...bearer(BOOTSTRAP) }));
    c.send(body.slice(0, 4));
    await sleep(300);
    expect(c.received).toBe('');
    c.send(body.slice(4));
    expect(statusOf(await c.response(10_000))).toBe(200);
    expect((await client(fp.url, bearer(BOOTSTRAP)).get('/api/v1/namespaces/early')).status).toBe(200);
  });

  it('leaves routes that need no credential alone (authentication.exclude.evaluation)', async () => {
    const open = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_AUTHENTICATION_EXCLUDE_EVALUATION: 'true' });
    try {
      const r = await http(open.url, 'POST', '/evaluate/v1/boolean', { flagKey: 'none', entityId: 'e', context: {} });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 5 });
      expectUnauthenticated(await http(open.url, 'POST', '/api/v1/namespaces', { key: 'x', name: 'x' }));
    } finally {
      await open.close();
    }
  });
});

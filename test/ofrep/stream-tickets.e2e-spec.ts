/**
 * Stream tickets over real HTTP (issue 42; docs/api.md "Stream tickets"): an authenticated bulk answer advertises
 * its namespace's stream with a ticket in the URL, which opens the stream without any header (a browser's
 * EventSource sends none). The ticket grants that one stream: it is refused when forged, expired, for another
 * namespace, on another route, as a bearer token, or once its token is deleted; and it never reaches the log.
 */
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { BOOTSTRAP, bearer, createToken, logLines, sleep, TOKEN_REQUIRED } from '../auth/support';
import { buildNamespace, nsPath, ok, type Api, type FlagSpec } from '../evaluation/fixtures';
import { client, type RunningFlagpole, startFlagpole } from '../support/flagpole';
import { streamsClosedAfterEach } from '../support/sse';

jest.setTimeout(60_000);

const BULK = '/ofrep/v1/evaluate/flags';
const streamPath = (ns: string) => `/ofrep/v1/_stream/${encodeURIComponent(ns)}/events`;
const snapshotStreamPath = (ns: string) => `/internal/v1/evaluation/snapshot/namespace/${encodeURIComponent(ns)}/stream`;
const flags: FlagSpec[] = [{ key: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true }];

const setEnabled = async (api: Api, ns: string, enabled: boolean) =>
  ok(await api.put(`${nsPath(ns)}/flags/on`, { name: 'on', description: '', enabled }), 'update flag');

/** The stream URL (path and query) a bulk answer to `token` in namespace `ns` advertises. */
async function advertised(api: Api, ns: string, token: string): Promise<string> {
  const r = await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': ns, ...bearer(token) });
  expect(r.status).toBe(200);
  return r.body.eventStreams[0].endpoint.requestUri as string;
}

const ticketOf = (uri: string) => new URL(uri, 'http://x').searchParams.get('ticket')!;

/** The expiry (Unix seconds) a ticket names: its payload is base64url JSON `[id, namespace, expiry]`. */
const expiryOf = (ticket: string) => (JSON.parse(Buffer.from(ticket.split('.')[0], 'base64url').toString()) as [string, string, number])[2];

describe('stream tickets with authentication required', () => {
  let fp: RunningFlagpole;
  let api: Api;
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-tickets-'));
  const logFile = join(dir, 'flagpole.log');
  const sse = streamsClosedAfterEach(() => fp.url);
  /** Every ticket the tests saw, for the log check at the end. */
  const seen: string[] = [];

  beforeAll(async () => {
    fp = await startFlagpole({
      ...TOKEN_REQUIRED,
      FLAGPOLE_LIMITS_MAX_EVENT_STREAMS_PER_CREDENTIAL: '2',
      FLAGPOLE_LOG_LEVEL: 'DEBUG',
      FLAGPOLE_LOG_FILE: logFile,
    });
    api = client(fp.url, bearer(BOOTSTRAP));
    await buildNamespace(api, { key: 'tickets', flags });
    await buildNamespace(api, { key: 'elsewhere', flags });
  });
  afterAll(async () => {
    await fp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the bulk answer advertises the stream with a ticket, which opens it without any header', async () => {
    const { clientToken } = await createToken(api);
    const uri = await advertised(api, 'tickets', clientToken);
    expect(uri).toMatch(/^\/ofrep\/v1\/_stream\/tickets\/events\?ticket=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    seen.push(ticketOf(uri));
    // Within one period every answer advertises the same URL, so a client does not reconnect for each.
    expect(await advertised(api, 'tickets', clientToken)).toBe(uri);
    // Another credential gets another ticket.
    expect(await advertised(api, 'tickets', BOOTSTRAP)).not.toBe(uri);

    const stream = await sse(uri);
    expect(stream.status).toBe(200);
    await sleep(5);
    await setEnabled(api, 'tickets', false);
    expect(JSON.parse((await stream.next(2000)).data)).toMatchObject({ type: 'refetchEvaluation' });
    await setEnabled(api, 'tickets', true);
  });

  it('the header-authenticated stream still works', async () => {
    expect((await sse(streamPath('tickets'), bearer(BOOTSTRAP))).status).toBe(200);
    expect((await sse(streamPath('tickets'))).status).toBe(401);
  });

  it('a forged, altered or misplaced ticket is refused as a missing credential is', async () => {
    const { clientToken } = await createToken(api);
    const uri = await advertised(api, 'tickets', clientToken);
    const ticket = ticketOf(uri);
    seen.push(ticket);
    const [payload, signature] = ticket.split('.');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    const otherNamespace = Buffer.from(JSON.stringify(['x', 'elsewhere', expiryOf(ticket)])).toString('base64url');
    const refusedStreams = [
      `${streamPath('tickets')}?ticket=${payload}.${flipped}`,
      `${streamPath('tickets')}?ticket=${otherNamespace}.${signature}`,
      `${streamPath('tickets')}?ticket=${payload}`,
      `${streamPath('tickets')}?ticket=`,
      `${streamPath('tickets')}?ticket=${ticket}&ticket=${ticket}`,
      // The ticket of `tickets` on another namespace's stream.
      `${streamPath('elsewhere')}?ticket=${ticket}`,
      // On the snapshot change stream: only OFREP's stream reads tickets.
      `${snapshotStreamPath('tickets')}?ticket=${ticket}`,
    ];
    for (const path of refusedStreams) {
      // As the route refuses a request without any credential: 401, no body on OFREP's route, the standard body on
      // the snapshot stream.
      const [r, bare] = [await sse(path), await sse(path.split('?')[0])];
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 401, body: bare.body });
    }
    // A ticket decides alone where it is read: a valid header does not rescue a forged ticket.
    expect((await sse(`${streamPath('tickets')}?ticket=${payload}.${flipped}`, bearer(BOOTSTRAP))).status).toBe(401);
    // Not a bearer token anywhere, nor a credential in another route's query.
    expect((await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'tickets', ...bearer(ticket) })).status).toBe(401);
    expect((await api.post(`${BULK}?ticket=${ticket}`, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'tickets', authorization: '' })).status).toBe(401);
    expect((await api.get(`${nsPath('tickets')}/flags?ticket=${ticket}`, undefined, { authorization: '' })).status).toBe(401);
    expect((await sse(`${streamPath('tickets')}?ticket=${ticket}`)).status).toBe(200);
  });

  it('a namespaced token gets a ticket for its namespace', async () => {
    const { clientToken } = await createToken(api, { namespaceKey: 'tickets' });
    const uri = await advertised(api, 'tickets', clientToken);
    seen.push(ticketOf(uri));
    expect((await sse(uri)).status).toBe(200);
  });

  it('deleting the token ends its ticket stream and refuses the ticket from then on', async () => {
    const { clientToken, authentication } = await createToken(api);
    const uri = await advertised(api, 'tickets', clientToken);
    seen.push(ticketOf(uri));
    const stream = await sse(uri);
    expect(stream.status).toBe(200);
    ok(await api.delete(`/auth/v1/tokens/${authentication.id}`), 'delete token');
    await stream.ended;
    expect((await sse(uri)).status).toBe(401);
  });

  it('ticket streams count against the ticket credential\'s allowance', async () => {
    const { clientToken } = await createToken(api);
    const uri = await advertised(api, 'tickets', clientToken);
    seen.push(ticketOf(uri));
    expect((await sse(streamPath('tickets'), bearer(clientToken))).status).toBe(200);
    expect((await sse(uri)).status).toBe(200);
    const third = await sse(uri);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('5');
    // Another credential is unaffected.
    expect((await sse(streamPath('tickets'), bearer(BOOTSTRAP))).status).toBe(200);
  });

  it('no ticket reaches the log', async () => {
    const log = logLines(logFile).join('\n');
    // The refusals were logged (at debug), so the check is not vacuous.
    expect(log).toContain('stream ticket refused');
    for (const ticket of seen) {
      expect(log).not.toContain(ticket.split('.')[1]);
      expect(log).not.toContain(ticket.split('.')[0]);
    }
  });
});

describe('stream tickets expire', () => {
  let fp: RunningFlagpole;
  let api: Api;
  const sse = streamsClosedAfterEach(() => fp.url);

  beforeAll(async () => {
    fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_STREAMS_TICKET_TTL: '1s' });
    api = client(fp.url, bearer(BOOTSTRAP));
    await buildNamespace(api, { key: 'brief', flags });
  });
  afterAll(() => fp?.close());

  it('an expired ticket is refused; a stream it opened stays open; the next bulk answer has a new one', async () => {
    const uri = await advertised(api, 'brief', BOOTSTRAP);
    const expiry = expiryOf(ticketOf(uri));
    const stream = await sse(uri);
    expect(stream.status).toBe(200);
    const etag = (await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'brief' })).headers.get('etag')!;
    // Past the expiry the ticket names (whole seconds; the server's clock is this machine's).
    await sleep(Math.max(0, expiry * 1000 - Date.now()) + 50);
    expect((await sse(uri)).status).toBe(401);

    // Nothing changed in the namespace, yet a revalidation is not a 304 that would keep the refused ticket: the
    // answer changed with its ticket.
    const r = await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'brief', 'if-none-match': etag });
    expect(r.status).toBe(200);
    const fresh = r.body.eventStreams[0].endpoint.requestUri as string;
    expect(fresh).not.toBe(uri);
    expect((await sse(fresh)).status).toBe(200);

    // The stream the old ticket opened lives on (a ticket admits; the token's own life bounds the stream).
    await setEnabled(api, 'brief', false);
    expect(JSON.parse((await stream.next(2000)).data)).toMatchObject({ type: 'refetchEvaluation' });
  });
});

describe('no stream tickets where nothing is authenticated', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    // Authentication required, but not of OFREP's routes.
    fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_AUTHENTICATION_EXCLUDE_OFREP: 'true' });
    api = client(fp.url, bearer(BOOTSTRAP));
    await buildNamespace(api, { key: 'open', flags });
  });
  afterAll(() => fp?.close());

  it('the advertised stream URL has no ticket, with or without a credential sent', async () => {
    for (const headers of [{}, bearer(BOOTSTRAP)]) {
      const r = await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'open', ...headers });
      expect(r.body.eventStreams[0].endpoint.requestUri).toBe(streamPath('open'));
    }
  });
});

/**
 * The event streams over real HTTP (issue 17; docs/api.md "Event streams"): OFREP's `/ofrep/v1/_stream/{ns}/events`
 * advertised by bulk answers, and the snapshot change stream. Events on writes, resume with `Last-Event-ID`,
 * heartbeats, the per-instance cap, authentication (revocation and expiry close the stream), namespace deletion.
 */
import { BOOTSTRAP, bearer, createToken, sleep, TOKEN_REQUIRED } from '../auth/support';
import { buildNamespace, nsPath, ok, type FlagSpec } from '../evaluation/fixtures';
import { client, type RunningFlagpole, startFlagpole } from '../support/flagpole';
import { openSse, streamsClosedAfterEach } from '../support/sse';

jest.setTimeout(60_000);

const BULK = '/ofrep/v1/evaluate/flags';
const streamPath = (ns: string) => `/ofrep/v1/_stream/${encodeURIComponent(ns)}/events`;
const snapshotStreamPath = (ns: string) => `/internal/v1/evaluation/snapshot/namespace/${encodeURIComponent(ns)}/stream`;
const flags: FlagSpec[] = [
  { key: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
  { key: 'colour', variants: [{ key: 'red' }, { key: 'blue' }], defaultVariant: 'red' },
];

const setEnabled = async (api: ReturnType<typeof client>, ns: string, enabled: boolean) =>
  ok(await api.put(`${nsPath(ns)}/flags/on`, { name: 'on', description: '', enabled }), 'update flag');

function refetchOf(event: { event: string; data: string }): { type: string; etag?: string } {
  expect(event.event).toBe('message');
  return JSON.parse(event.data) as { type: string; etag?: string };
}

describe('event streams, authentication off', () => {
  let flagpole: RunningFlagpole;
  let api: ReturnType<typeof client>;
  const sse = streamsClosedAfterEach(() => flagpole.url);

  beforeAll(async () => {
    flagpole = await startFlagpole({ FLAGPOLE_STREAMS_HEARTBEAT_INTERVAL: '1s', FLAGPOLE_LIMITS_MAX_EVENT_STREAMS: '4' });
    api = client(flagpole.url);
    await buildNamespace(api, { key: 'streams', flags });
    await buildNamespace(api, { key: 'other', flags });
  });
  afterAll(() => flagpole?.close());

  it('bulk answers name the stream of their namespace, under the proxy prefix', async () => {
    const r = await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'streams' });
    expect(r.status).toBe(200);
    expect(r.body.eventStreams).toEqual([{ type: 'sse', endpoint: { requestUri: streamPath('streams') }, inactivityDelaySec: 120 }]);
    const proxied = await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'streams', 'x-forwarded-prefix': '/flags/' });
    expect(proxied.body.eventStreams[0].endpoint.requestUri).toBe(`/flags${streamPath('streams')}`);
  });

  it('a refetch\'s flagConfigEtag, current, unknown or hostile, gets the same answer', async () => {
    const headers = { 'x-flipt-namespace': 'streams' };
    const plain = await api.post(BULK, { context: { targetingKey: 'u' } }, headers);
    const stream = await sse(streamPath('streams'));
    await sleep(5);
    await setEnabled(api, 'streams', false);
    const tag = refetchOf(await stream.next(1000)).etag!;
    const fresh = await api.post(BULK, { context: { targetingKey: 'u' } }, headers);
    for (const heard of [tag, 'not-a-tag', 'x'.repeat(5000), '']) {
      const r = await api.post(`${BULK}?flagConfigEtag=${encodeURIComponent(heard)}&flagConfigLastModified=1`, { context: { targetingKey: 'u' } }, headers);
      expect({ status: r.status, body: r.body, etag: r.headers.get('etag') }).toEqual({ status: 200, body: fresh.body, etag: fresh.headers.get('etag') });
    }
    expect(fresh.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    await setEnabled(api, 'streams', true);
  });

  it('announces every write to the namespace, and only to its subscribers, with increasing ids', async () => {
    const stream = await sse(streamPath('streams'));
    const other = await sse(streamPath('other'));
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    // The opening sets the position without an event.
    await sleep(100);
    expect(stream.events).toEqual([]);
    const position = stream.lastEventId;
    expect(position).toMatch(/^\d+$/);
    const before = await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'streams' });

    await sleep(5); // versions are milliseconds
    await setEnabled(api, 'streams', false);
    const first = await stream.next(1000);
    expect(refetchOf(first)).toEqual({ type: 'refetchEvaluation', etag: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    expect(Number(first.id)).toBeGreaterThan(Number(position));

    // What the client refetches is new: its old ETag no longer matches.
    const after = await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'streams', 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.body.flags.find((f: { key: string }) => f.key === 'on').value).toBe(false);

    await sleep(5);
    await setEnabled(api, 'streams', true);
    const second = await stream.next(1000);
    expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    expect(refetchOf(second).etag).not.toBe(refetchOf(first).etag);
    await sleep(200);
    expect(other.events).toEqual([]);
  });

  it('resumes: Last-Event-ID older than the namespace gets an event at once, the current one does not', async () => {
    const first = await sse(streamPath('streams'));
    const position = first.lastEventId;
    first.close();
    await sleep(5);
    await setEnabled(api, 'streams', false);

    const resumed = await sse(streamPath('streams'), { 'last-event-id': position });
    const missed = await resumed.next(500);
    expect(Number(missed.id)).toBeGreaterThan(Number(position));
    expect(refetchOf(missed).type).toBe('refetchEvaluation');

    const current = await sse(streamPath('streams'), { 'last-event-id': missed.id! });
    await sleep(300);
    expect(current.events).toEqual([]);
    // Ahead of this instance (a write it has not applied yet): nothing now; the event comes with the write.
    const ahead = await sse(streamPath('streams'), { 'last-event-id': String(Number(missed.id) + 60_000) });
    await sleep(100);
    expect(ahead.events).toEqual([]);
    // Not a version at all: treated as a fresh connection.
    const garbage = await sse(streamPath('streams'), { 'last-event-id': 'x'.repeat(10_000).slice(0, 4000) });
    await sleep(100);
    expect(garbage.events).toEqual([]);
  });

  it('sends a comment line every heartbeat interval', async () => {
    const stream = await sse(streamPath('streams'));
    await stream.waitComments(2, 4000);
    expect(stream.events).toEqual([]);
  });

  it('the snapshot change stream carries the same events; its clients then fetch the new document', async () => {
    const document = await api.get(`/internal/v1/evaluation/snapshot/namespace/streams`);
    const etag = document.headers.get('etag')!;
    const stream = await sse(snapshotStreamPath('streams'));
    expect(stream.status).toBe(200);
    await sleep(5);
    await setEnabled(api, 'streams', false);
    expect(refetchOf(await stream.next(1000)).type).toBe('refetchEvaluation');
    const again = await api.get(`/internal/v1/evaluation/snapshot/namespace/streams`, undefined, { 'if-none-match': etag });
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).not.toBe(etag);
  });

  it('answers 404 for a namespace that does not exist, in OFREP\'s error body', async () => {
    const missing = await sse(streamPath('nope'));
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body!)).toMatchObject({ errorDetails: expect.stringContaining('nope') });
    const snapshot = await sse(snapshotStreamPath('nope'));
    expect(snapshot.status).toBe(404);
    expect(JSON.parse(snapshot.body!)).toMatchObject({ code: 5, message: expect.stringContaining('nope') });
  });

  it('caps the streams of the instance: past limits.max_event_streams a 503 with Retry-After, room again once one closes', async () => {
    const streams = await Promise.all([1, 2, 3, 4].map(() => sse(streamPath('streams'))));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    const refused = await sse(streamPath('streams'));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.body!)).toEqual({ errorCode: 'GENERAL', errorDetails: expect.stringContaining('limits.max_event_streams') });
    const refusedSnapshot = await sse(snapshotStreamPath('streams'));
    expect(refusedSnapshot.status).toBe(503);
    // Evaluations are not affected by the cap.
    expect((await api.post(BULK, { context: { targetingKey: 'u' } }, { 'x-flipt-namespace': 'streams' })).status).toBe(200);
    streams[0].close();
    await sleep(200);
    expect((await sse(streamPath('streams'))).status).toBe(200);
  });

  it('a deleted namespace gets a last event (without etag), then its streams end', async () => {
    await buildNamespace(api, { key: 'doomed', flags: [] });
    const stream = await sse(streamPath('doomed'));
    ok(await api.delete(nsPath('doomed')), 'delete namespace');
    const last = await stream.next(1000);
    expect(JSON.parse(last.data)).toEqual({ type: 'refetchEvaluation' });
    await stream.ended;
    expect((await sse(streamPath('doomed'))).status).toBe(404);
  });

  it('closing the server ends open streams (it does not wait for them)', async () => {
    const other = await startFlagpole();
    await buildNamespace(client(other.url), { key: 'closing', flags });
    const stream = await openSse(`${other.url}${streamPath('closing')}`);
    expect(stream.status).toBe(200);
    // The stream never ends by itself: a close that waited for it would never resolve.
    await other.close();
    await stream.ended;
  });
});

describe('event streams with authentication required', () => {
  let flagpole: RunningFlagpole;
  let api: ReturnType<typeof client>;
  const sse = streamsClosedAfterEach(() => flagpole.url);

  beforeAll(async () => {
    flagpole = await startFlagpole(TOKEN_REQUIRED);
    api = client(flagpole.url, bearer(BOOTSTRAP));
    await buildNamespace(api, { key: 'secure', flags });
    await buildNamespace(api, { key: 'elsewhere', flags });
  });
  afterAll(() => flagpole?.close());

  it('refuses a stream without a credential (401, no body, as OFREP has it)', async () => {
    const refused = await sse(streamPath('secure'));
    expect(refused.status).toBe(401);
    expect(refused.body).toBe('');
    expect((await sse(snapshotStreamPath('secure'))).status).toBe(401);
  });

  it('a namespaced token streams its namespace only', async () => {
    const { clientToken } = await createToken(api, { namespaceKey: 'secure' });
    expect((await sse(streamPath('secure'), bearer(clientToken))).status).toBe(200);
    expect((await sse(streamPath('elsewhere'), bearer(clientToken))).status).toBe(401);
  });

  it('revoking the token ends its streams at once; the reconnection is refused', async () => {
    const { clientToken, authentication } = await createToken(api);
    const stream = await sse(streamPath('secure'), bearer(clientToken));
    const snapshotStream = await sse(snapshotStreamPath('secure'), bearer(clientToken));
    const bystander = await sse(streamPath('secure'), bearer(BOOTSTRAP));
    expect([stream.status, snapshotStream.status, bystander.status]).toEqual([200, 200, 200]);
    ok(await api.delete(`/auth/v1/tokens/${authentication.id}`), 'delete token');
    await Promise.all([stream.ended, snapshotStream.ended]);
    expect(bystander.isEnded()).toBe(false);
    expect((await sse(streamPath('secure'), bearer(clientToken))).status).toBe(401);
  });

  it('a stream ends when its token expires', async () => {
    // Long enough for the token to be created and the stream opened on a busy machine before it expires.
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const { clientToken } = await createToken(api, { expiresAt });
    const stream = await sse(streamPath('secure'), bearer(clientToken));
    expect(stream.status).toBe(200);
    await stream.ended;
    // Ended by the expiry, not before it (the server's clock is this machine's; Date's milliseconds may round).
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt) - 5);
    expect((await sse(streamPath('secure'), bearer(clientToken))).status).toBe(401);
  });
});

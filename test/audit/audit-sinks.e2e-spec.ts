/**
 * Audit sinks (issue 18), end to end: real Flagpoles write audit events to a real webhook receiver on loopback and to
 * log files. What an operator's receiver sees: signed bodies in Flipt's event shape (version 0.2, snake_case payloads),
 * one event per committed write and none for a refused one, in write order, filtered by `audit.events`, rendered by
 * templates, retried until the receiver takes them, and never holding up the write itself.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOOTSTRAP, bearer, createToken, TOKEN_REQUIRED } from '../auth/support';
import { Api, createFlag, createSegment, createVariant, N, ok, TIMESTAMP_RE } from '../management/support';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Receiver } from './support/receiver';

const SECRET = 'audit-webhook-signing-secret';
const SIGNATURE_HEADERS = ['x-flipt-webhook-signature', 'x-flagpole-webhook-signature'];
const LOOPBACK = '127.0.0.1';
const FLAGS = `${N('default')}/flags`;
const SEGMENTS = `${N('default')}/segments`;

/** The webhook sink pointed at `url`; a short back-off cap keeps the retry cases quick. */
const webhookTo = (url: string, extra: Record<string, string> = {}): Record<string, string> => ({
  FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
  FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: url,
  FLAGPOLE_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '1s',
  ...extra,
});

const kinds = (events: any[]): string[] => events.map((e) => `${e.type}:${e.action}`);
const hmac = (secret: string, raw: string) => createHmac('sha256', secret).update(raw).digest('hex');

/** Waits until the receiver has taken exactly these kinds of events, in this order, and returns them. */
function received(rx: Receiver, expected: string[], timeoutMs = 10_000): Promise<any[]> {
  return rx.until((events) => {
    expect(kinds(events)).toEqual(expected);
    return events;
  }, timeoutMs);
}

/** Flipt's event envelope around `payload`, by `actor`. */
function expectEvent(event: any, type: string, action: string, payload: Record<string, unknown>, actor: Record<string, unknown>): void {
  expect(event).toEqual({
    version: '0.2', type, action, status: 'success', timestamp: expect.stringMatching(TIMESTAMP_RE), metadata: { actor }, payload,
  });
  expectSnakeCase(event.payload);
}

/** Payloads are in Flipt's audit spelling: no camelCase key may leak from the API's JSON. */
function expectSnakeCase(value: unknown, path = 'payload'): void {
  if (Array.isArray(value)) value.forEach((v, i) => expectSnakeCase(v, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      expect(`${path}.${key}`).toMatch(/\.[a-z0-9_]+$/);
      expectSnakeCase(v, `${path}.${key}`);
    }
  }
}

describe('webhook sink, authentication required with a static token', () => {
  let rx: Receiver;
  let fp: RunningFlagpole;
  /** Writes as the token named `audit-robot`, so events name their actor. */
  let api: Api;
  const robot = { authentication: 'token', name: 'audit-robot', ip: LOOPBACK };

  beforeAll(async () => {
    rx = await Receiver.start();
    fp = await startFlagpole({ ...TOKEN_REQUIRED, ...webhookTo(rx.url, { FLAGPOLE_AUDIT_SINKS_WEBHOOK_SIGNING_SECRET: SECRET }) });
    const token = await createToken(client(fp.url), { name: 'audit-robot' });
    api = client(fp.url, bearer(token.clientToken));
    await received(rx, ['token:created']);
  });
  beforeEach(() => rx.clear());
  afterAll(async () => {
    await fp?.close();
    await rx?.stop();
  });

  it('signs each POST: both signature headers carry the hex HMAC-SHA256 of the raw body', async () => {
    await createFlag(api, 'default', 'signed');
    await createFlag(api, 'default', 'signed-too');
    await received(rx, ['flag:created', 'flag:created']);
    expect(rx.requests).toHaveLength(2);
    for (const request of rx.requests) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toMatch(/^application\/json\b/);
      const expected = hmac(SECRET, request.raw);
      for (const name of SIGNATURE_HEADERS) expect({ name, value: request.headers[name] }).toEqual({ name, value: expected });
      expect(request.headers[SIGNATURE_HEADERS[0]]).not.toBe(hmac('another-secret', request.raw));
    }
  });

  it('namespaces: created and updated carry the namespace, deleted its key', async () => {
    ok(await api.post('/api/v1/namespaces', { key: 'audited', name: 'Audited', description: 'watched' }));
    ok(await api.put('/api/v1/namespaces/audited', { name: 'Audited again', description: 'still watched' }));
    ok(await api.delete('/api/v1/namespaces/audited'));
    const [created, updated, deleted] = await received(rx, ['namespace:created', 'namespace:updated', 'namespace:deleted']);
    expectEvent(created, 'namespace', 'created', { key: 'audited', name: 'Audited', description: 'watched', protected: false }, robot);
    expectEvent(updated, 'namespace', 'updated', { key: 'audited', name: 'Audited again', description: 'still watched', protected: false }, robot);
    expectEvent(deleted, 'namespace', 'deleted', { key: 'audited' }, robot);
  });

  it('flags and variants: the object as written, deletions by their identifying fields', async () => {
    ok(await api.post(FLAGS, { key: 'f1', name: 'F1', description: 'first', enabled: true }));
    const v1 = ok(await api.post(`${FLAGS}/f1/variants`, { key: 'v1', name: 'V1', description: 'one' }));
    ok(await api.put(`${FLAGS}/f1/variants/${v1.id}`, { key: 'v1', name: 'V1 renamed' }));
    ok(await api.put(`${FLAGS}/f1`, { name: 'F1 renamed', description: 'first', enabled: false }));
    ok(await api.delete(`${FLAGS}/f1/variants/${v1.id}`));
    ok(await api.delete(`${FLAGS}/f1`));
    const events = await received(rx, ['flag:created', 'variant:created', 'variant:updated', 'flag:updated', 'variant:deleted', 'flag:deleted']);
    const [flagCreated, variantCreated, variantUpdated, flagUpdated, variantDeleted, flagDeleted] = events;
    expectEvent(flagCreated, 'flag', 'created', { key: 'f1', name: 'F1', description: 'first', enabled: true, namespace_key: 'default' }, robot);
    expectEvent(variantCreated, 'variant', 'created', expect.objectContaining({
      id: v1.id, flag_key: 'f1', key: 'v1', name: 'V1', description: 'one', namespace_key: 'default',
    }), robot);
    expect(variantUpdated.payload).toMatchObject({ id: v1.id, flag_key: 'f1', key: 'v1', name: 'V1 renamed', namespace_key: 'default' });
    expectEvent(flagUpdated, 'flag', 'updated', { key: 'f1', name: 'F1 renamed', description: 'first', enabled: false, namespace_key: 'default' }, robot);
    expectEvent(variantDeleted, 'variant', 'deleted', { id: v1.id, flag_key: 'f1', namespace_key: 'default' }, robot);
    expectEvent(flagDeleted, 'flag', 'deleted', { key: 'f1', namespace_key: 'default' }, robot);
  });

  it('segments and constraints: constraint types by their enum name, segments with their constraints', async () => {
    ok(await api.post(SEGMENTS, { key: 'seg', name: 'Seg', matchType: 'ANY_MATCH_TYPE' }));
    const c = ok(await api.post(`${SEGMENTS}/seg/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'country', operator: 'eq', value: 'fr' }));
    ok(await api.put(`${SEGMENTS}/seg/constraints/${c.id}`, { type: 'STRING_COMPARISON_TYPE', property: 'country', operator: 'eq', value: 'de' }));
    ok(await api.put(`${SEGMENTS}/seg`, { name: 'Seg renamed', matchType: 'ANY_MATCH_TYPE' }));
    ok(await api.delete(`${SEGMENTS}/seg/constraints/${c.id}`));
    ok(await api.delete(`${SEGMENTS}/seg`));
    const events = await received(rx, [
      'segment:created', 'constraint:created', 'constraint:updated', 'segment:updated', 'constraint:deleted', 'segment:deleted',
    ]);
    const [segCreated, cCreated, cUpdated, segUpdated, cDeleted, segDeleted] = events;
    const constraint = { id: c.id, segment_key: 'seg', type: 'STRING_COMPARISON_TYPE', property: 'country', operator: 'eq', namespace_key: 'default' };
    expectEvent(segCreated, 'segment', 'created', expect.objectContaining({
      key: 'seg', name: 'Seg', constraints: [], match_type: 'ANY_MATCH_TYPE', namespace_key: 'default',
    }), robot);
    expectEvent(cCreated, 'constraint', 'created', expect.objectContaining({ ...constraint, value: 'fr' }), robot);
    expect(cUpdated.payload).toMatchObject({ ...constraint, value: 'de' });
    expectEvent(segUpdated, 'segment', 'updated', expect.objectContaining({
      key: 'seg', name: 'Seg renamed', constraints: [expect.objectContaining({ ...constraint, value: 'de' })], namespace_key: 'default',
    }), robot);
    expectEvent(cDeleted, 'constraint', 'deleted', { id: c.id, segment_key: 'seg', namespace_key: 'default' }, robot);
    expectEvent(segDeleted, 'segment', 'deleted', { key: 'seg', namespace_key: 'default' }, robot);
  });

  it('rules and distributions: a rule carries its distributions; a reorder carries the new order', async () => {
    await createFlag(api, 'default', 'rf');
    const a = await createVariant(api, 'default', 'rf', 'a');
    await createSegment(api, 'default', 'everyone');
    await received(rx, ['flag:created', 'variant:created', 'segment:created']);
    rx.clear();

    const rules = `${FLAGS}/rf/rules`;
    const r1 = ok(await api.post(rules, { segmentKey: 'everyone', rank: 1 }));
    const d = ok(await api.post(`${rules}/${r1.id}/distributions`, { variantId: a.id, rollout: 60 }));
    ok(await api.put(`${rules}/${r1.id}/distributions/${d.id}`, { variantId: a.id, rollout: 40 }));
    const r2 = ok(await api.post(rules, { segmentKey: 'everyone', rank: 2 }));
    ok(await api.put(`${rules}/${r1.id}`, { segmentKey: 'everyone' }));
    ok(await api.put(`${rules}/order`, { ruleIds: [r2.id, r1.id] }));
    ok(await api.delete(`${rules}/${r1.id}/distributions/${d.id}?variantId=${a.id}`));
    ok(await api.delete(`${rules}/${r2.id}`));
    const events = await received(rx, [
      'rule:created', 'distribution:created', 'distribution:updated', 'rule:created', 'rule:updated', 'rule:updated',
      'distribution:deleted', 'rule:deleted',
    ]);
    const [r1Created, dCreated, dUpdated, r2Created, r1Updated, reordered, dDeleted, r2Deleted] = events;
    const rule = { flag_key: 'rf', segment_key: 'everyone', namespace_key: 'default' };
    expectEvent(r1Created, 'rule', 'created', expect.objectContaining({ ...rule, id: r1.id, rank: 1, distributions: [] }), robot);
    expectEvent(dCreated, 'distribution', 'created', { id: d.id, rule_id: r1.id, variant_id: a.id, rollout: 60 }, robot);
    expectEvent(dUpdated, 'distribution', 'updated', { id: d.id, rule_id: r1.id, variant_id: a.id, rollout: 40 }, robot);
    expect(r2Created.payload).toMatchObject({ ...rule, id: r2.id, rank: 2, distributions: [] });
    expectEvent(r1Updated, 'rule', 'updated', expect.objectContaining({
      ...rule, id: r1.id, distributions: [{ id: d.id, rule_id: r1.id, variant_id: a.id, rollout: 40 }],
    }), robot);
    expectEvent(reordered, 'rule', 'updated', { flag_key: 'rf', namespace_key: 'default', rule_ids: [r2.id, r1.id] }, robot);
    expectEvent(dDeleted, 'distribution', 'deleted', expect.objectContaining({ id: d.id, rule_id: r1.id, variant_id: a.id }), robot);
    expectEvent(r2Deleted, 'rule', 'deleted', { id: r2.id, flag_key: 'rf', namespace_key: 'default' }, robot);
  });

  it('rollouts: threshold and segment rollouts, their reorder and deletion', async () => {
    await createFlag(api, 'default', 'ro', { type: 'BOOLEAN_FLAG_TYPE' });
    await createSegment(api, 'default', 'ro-seg');
    await received(rx, ['flag:created', 'segment:created']);
    rx.clear();

    const rollouts = `${FLAGS}/ro/rollouts`;
    const t = ok(await api.post(rollouts, { rank: 1, description: 'half', threshold: { percentage: 50, value: true } }));
    const s = ok(await api.post(rollouts, { rank: 2, segment: { segmentKey: 'ro-seg', value: false } }));
    ok(await api.put(`${rollouts}/${t.id}`, { description: 'most', threshold: { percentage: 70, value: false } }));
    ok(await api.put(`${rollouts}/order`, { rolloutIds: [s.id, t.id] }));
    ok(await api.delete(`${rollouts}/${s.id}`));
    const [tCreated, sCreated, tUpdated, reordered, sDeleted] = await received(rx, [
      'rollout:created', 'rollout:created', 'rollout:updated', 'rollout:updated', 'rollout:deleted',
    ]);
    const rollout = { namespace_key: 'default', flag_key: 'ro' };
    expectEvent(tCreated, 'rollout', 'created', {
      ...rollout, id: t.id, rank: 1, description: 'half', threshold: { percentage: 50, value: true },
    }, robot);
    expectEvent(sCreated, 'rollout', 'created', expect.objectContaining({
      ...rollout, id: s.id, rank: 2, segment: expect.objectContaining({ key: 'ro-seg', value: false }),
    }), robot);
    expect(tUpdated.payload).toMatchObject({ ...rollout, id: t.id, description: 'most', threshold: { percentage: 70, value: false } });
    expectEvent(reordered, 'rollout', 'updated', { ...rollout, rollout_ids: [s.id, t.id] }, robot);
    expectEvent(sDeleted, 'rollout', 'deleted', { ...rollout, id: s.id }, robot);
  });

  it('tokens: creation names the token but never carries its secret; deletion carries the id', async () => {
    const admin = client(fp.url, bearer(BOOTSTRAP));
    const created = await createToken(admin, { name: 'ci', description: 'for ci' });
    ok(await admin.delete(`/auth/v1/tokens/${created.authentication.id}`));
    const [tokenCreated, tokenDeleted] = await received(rx, ['token:created', 'token:deleted']);
    const bootstrap = { authentication: 'token', name: 'initial_bootstrap_token', ip: LOOPBACK };
    expectEvent(tokenCreated, 'token', 'created', expect.objectContaining({ id: created.authentication.id, name: 'ci', description: 'for ci' }), bootstrap);
    expectEvent(tokenDeleted, 'token', 'deleted', { id: created.authentication.id }, bootstrap);
    expect(created.clientToken.length).toBeGreaterThan(8);
    for (const request of rx.requests) expect(request.raw).not.toContain(created.clientToken);
  });

  it('sends nothing for a refused write (400, 404, 401): the next event is the next committed write', async () => {
    expect((await api.post(FLAGS, { key: 'not a key', name: 'x' })).status).toBe(400);
    expect((await api.put(`${FLAGS}/no-such-flag`, { name: 'x' })).status).toBe(404);
    expect((await client(fp.url).post(FLAGS, { key: 'anonymous', name: 'x' })).status).toBe(401);
    await createFlag(api, 'default', 'marker');
    // The outbox is ordered, so an event of a refused write would have arrived before the marker's.
    const [marker] = await received(rx, ['flag:created']);
    expect(marker.payload.key).toBe('marker');
    expect(rx.requests).toHaveLength(1);
  });

  it('delivers 20 quick updates of one flag in write order', async () => {
    await createFlag(api, 'default', 'ordered');
    for (let i = 0; i < 20; i++) ok(await api.put(`${FLAGS}/ordered`, { name: `name-${i}` }));
    const events = await received(rx, ['flag:created', ...Array.from({ length: 20 }, () => 'flag:updated')]);
    expect(events.slice(1).map((e) => e.payload.name)).toEqual(Array.from({ length: 20 }, (_, i) => `name-${i}`));
  });

  it('retries an event the receiver answered 500, and delivers it once it is taken', async () => {
    rx.fail(3);
    await createFlag(api, 'default', 'retried');
    await rx.until(() => expect(rx.requests.map((r) => r.status)).toEqual([500, 500, 500, 200]));
    expect(new Set(rx.requests.map((r) => r.raw)).size).toBe(1);
    await createFlag(api, 'default', 'after-retry');
    const events = await received(rx, ['flag:created', 'flag:created']);
    // Taken once: not sent again after the receiver's 200.
    expect(events.map((e) => e.payload.key)).toEqual(['retried', 'after-retry']);
    expect(rx.requests.map((r) => r.status)).toEqual([500, 500, 500, 200, 200]);
  });

  it('keeps the events of writes made while the receiver is down, and delivers them in order when it is back on the same port', async () => {
    const url = rx.url;
    await rx.stop();
    const keys = Array.from({ length: 5 }, (_, i) => `while-down-${i}`);
    // The writes are answered, and committed, while nothing can take their events: they do not wait for the receiver.
    for (const key of keys) {
      const result = await api.post(FLAGS, { key, name: key });
      expect({ key, status: result.status }).toEqual({ key, status: 200 });
    }
    expect(rx.requests).toEqual([]);
    // Long enough for the sink to have tried and failed at least once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await rx.restart();
    expect(rx.url).toBe(url);
    const events = await received(rx, keys.map(() => 'flag:created'));
    expect(events.map((e) => e.payload.key)).toEqual(keys);
  });
});

describe('webhook sink, unsigned, authentication off', () => {
  let rx: Receiver;
  let fp: RunningFlagpole;
  let api: Api;
  beforeAll(async () => {
    rx = await Receiver.start();
    fp = await startFlagpole(webhookTo(rx.url));
    api = client(fp.url);
  });
  beforeEach(() => rx.clear());
  afterAll(async () => {
    await fp?.close();
    await rx?.stop();
  });

  it('sends JSON without signature headers, the actor being "none" and the client address', async () => {
    await createFlag(api, 'default', 'plain', { description: 'no secret' });
    const [event] = await received(rx, ['flag:created']);
    expectEvent(event, 'flag', 'created', { key: 'plain', name: 'plain', description: 'no secret', enabled: false, namespace_key: 'default' }, {
      authentication: 'none', ip: LOOPBACK,
    });
    const [request] = rx.requests;
    expect(request.headers['content-type']).toMatch(/^application\/json\b/);
    for (const name of SIGNATURE_HEADERS) expect(request.headers).not.toHaveProperty(name);
  });

  it('answers writes while the receiver has not yet answered for their events', async () => {
    // The receiver holds every request until released: a write that waited for its event would never be answered.
    const release = rx.hold();
    try {
      const created = await api.post(FLAGS, { key: 'slow', name: 'slow' });
      const updated = await api.put(`${FLAGS}/slow`, { name: 'slower' });
      expect({ create: created.status, update: updated.status }).toEqual({ create: 200, update: 200 });
      expect(rx.requests).toEqual([]);
    } finally {
      release();
    }
    const events = await received(rx, ['flag:created', 'flag:updated'], 15_000);
    expect(events.map((e) => e.payload.name)).toEqual(['slow', 'slower']);
  });
});

describe('audit.events filters what the sinks receive', () => {
  let rx: Receiver;
  let fp: RunningFlagpole;
  beforeAll(async () => {
    rx = await Receiver.start();
    // A list from the environment is whitespace-separated (config.loader decodeList), as in Flipt.
    fp = await startFlagpole(webhookTo(rx.url, { FLAGPOLE_AUDIT_EVENTS: 'flag:created *:deleted' }));
  });
  afterAll(async () => {
    await fp?.close();
    await rx?.stop();
  });

  it('only flag:created and deletions of any kind reach the receiver', async () => {
    const api = client(fp.url);
    await createFlag(api, 'default', 'kept');
    ok(await api.put(`${FLAGS}/kept`, { name: 'not sent' }));
    const v = await createVariant(api, 'default', 'kept', 'v');
    await createSegment(api, 'default', 's');
    ok(await api.delete(`${FLAGS}/kept/variants/${v.id}`));
    ok(await api.delete(`${SEGMENTS}/s`));
    ok(await api.delete(`${FLAGS}/kept`));
    ok(await api.post('/api/v1/namespaces', { key: 'gone', name: 'gone' }));
    ok(await api.delete('/api/v1/namespaces/gone'));
    // The last write's event is last in the ordered outbox: once it is here, everything before it is too.
    await received(rx, ['flag:created', 'variant:deleted', 'segment:deleted', 'flag:deleted', 'namespace:deleted']);
  });
});

describe('webhook templates', () => {
  const TEMPLATE = '{"t": "{{ .Type }}", "a": "{{ .Action }}", "who": "{{ .Metadata.Actor.authentication }}", "p": {{ toJson .Payload }}}';
  let rx: Receiver;
  let fp: RunningFlagpole;
  beforeAll(async () => {
    rx = await Receiver.start();
    fp = await startFlagpole({
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '1s',
      // Set to show that templates stay unsigned even with a secret configured, as in Flipt.
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_SIGNING_SECRET: SECRET,
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES: JSON.stringify([{ url: `${rx.url}/hook`, body: TEMPLATE, headers: { 'x-team': 'flags' } }]),
    });
  });
  afterAll(async () => {
    await fp?.close();
    await rx?.stop();
  });

  it('POSTs the rendered body with the template\'s headers, unsigned', async () => {
    await createFlag(client(fp.url), 'default', 'templated', { description: 'via template' });
    const [body] = await rx.until((bodies) => {
      expect(bodies).toHaveLength(1);
      return bodies;
    });
    expect(body).toEqual({
      t: 'flag', a: 'created', who: 'none',
      p: { key: 'templated', name: 'templated', description: 'via template', enabled: false, namespace_key: 'default' },
    });
    const [request] = rx.requests;
    expect({ method: request.method, path: request.path, team: request.headers['x-team'] }).toEqual({ method: 'POST', path: '/hook', team: 'flags' });
    for (const name of SIGNATURE_HEADERS) expect(request.headers).not.toHaveProperty(name);
  });

  it.each([
    ['a body that does not render JSON', '{"t": {{ .Type }}}'],
    ['an if action', '{{ if .Type }}{"t": "x"}{{ end }}'],
  ])('refuses to start with %s, naming audit.sinks.webhook.templates', async (_what, body) => {
    await expect(
      startFlagpole({
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES: JSON.stringify([{ url: 'http://127.0.0.1:9/hook', body }]),
      }),
    ).rejects.toThrow(/audit\.sinks\.webhook\.templates/);
  });
});

describe('webhook templates: event text inside a JSON body', () => {
  // A chat payload: the flag's name goes inside a JSON string, and a field follows it that the name must not reach.
  const CHAT = '{"text": "{{ .Payload.name }} ({{ .Payload.key }}) was {{ .Action }}", "channel": "#flags", "description": "{{ .Payload.description }}"}';
  let rx: Receiver;
  let fp: RunningFlagpole;
  beforeAll(async () => {
    rx = await Receiver.start();
    fp = await startFlagpole({
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '1s',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES: JSON.stringify([{ url: `${rx.url}/chat`, body: CHAT }]),
    });
  });
  afterAll(async () => {
    await fp?.close();
    await rx?.stop();
  });

  it('a flag named with quotes and backslashes arrives as valid JSON, its name intact and no field overwritten', async () => {
    const name = 'say "hi", "channel": "#pwned", "x": "\\ C:\\temp\\';
    const description = 'ends with a backslash \\';
    await createFlag(client(fp.url), 'default', 'quoted', { name, description });
    await rx.until(() => expect(rx.requests).toHaveLength(1));
    const [request] = rx.requests;
    expect(request.headers['content-type']).toMatch(/^application\/json\b/);
    expect(JSON.parse(request.raw)).toEqual({ text: `${name} (quoted) was created`, channel: '#flags', description });
  });
});

describe('unsupported sinks', () => {
  it('refuses to start with the kafka sink enabled, naming audit.sinks.kafka', async () => {
    await expect(startFlagpole({ FLAGPOLE_AUDIT_SINKS_KAFKA_ENABLED: 'true' })).rejects.toThrow(/audit\.sinks\.kafka/);
  });
});

describe('log sink', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-audit-log-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Starts a Flagpole logging audit events to a new file (or, with `intoMainLog`, into the main log's file at level
   * ERROR), runs `writes`, and waits for `count` lines.
   */
  async function logOf(encoding: string, count: number, writes: (api: Api) => Promise<void>, intoMainLog = false): Promise<string[]> {
    const file = join(dir, `audit-${encoding || 'default'}${intoMainLog ? '-main' : ''}.log`);
    const fp = await startFlagpole(
      intoMainLog
        ? { FLAGPOLE_AUDIT_SINKS_LOG_ENABLED: 'true', FLAGPOLE_LOG_FILE: file, FLAGPOLE_LOG_ENCODING: 'json', FLAGPOLE_LOG_LEVEL: 'ERROR' }
        : { FLAGPOLE_AUDIT_SINKS_LOG_ENABLED: 'true', FLAGPOLE_AUDIT_SINKS_LOG_FILE: file, FLAGPOLE_AUDIT_SINKS_LOG_ENCODING: encoding },
    );
    try {
      await writes(client(fp.url));
      const end = Date.now() + 10_000;
      for (;;) {
        let lines: string[] = [];
        try {
          lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
        } catch {
          // not written yet
        }
        if (lines.length >= count || Date.now() > end) return lines;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await fp.close();
    }
  }

  it('json: one line per event, each the event\'s JSON', async () => {
    const lines = await logOf('json', 3, async (api) => {
      await createFlag(api, 'default', 'logged');
      ok(await api.put(`${FLAGS}/logged`, { name: 'logged again' }));
      ok(await api.delete(`${FLAGS}/logged`));
    });
    const events = lines.map((line) => JSON.parse(line));
    expect(kinds(events)).toEqual(['flag:created', 'flag:updated', 'flag:deleted']);
    const actor = { authentication: 'none', ip: LOOPBACK };
    expectEvent(events[0], 'flag', 'created', { key: 'logged', name: 'logged', description: '', enabled: false, namespace_key: 'default' }, actor);
    expectEvent(events[1], 'flag', 'updated', { key: 'logged', name: 'logged again', description: '', enabled: false, namespace_key: 'default' }, actor);
    expectEvent(events[2], 'flag', 'deleted', { key: 'logged', namespace_key: 'default' }, actor);
  });

  it('console: a readable line per event, naming type:action, ending with the event', async () => {
    const lines = await logOf('console', 1, async (api) => {
      await createFlag(api, 'default', 'readable');
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('flag:created');
    const event = JSON.parse(lines[0].slice(lines[0].indexOf('{')));
    expect(event).toMatchObject({ version: '0.2', type: 'flag', action: 'created', payload: { key: 'readable' } });
  });

  it('without a file: an `audit event` entry in the main log, even when the main log shows only errors', async () => {
    const lines = await logOf('', 1, async (api) => {
      await createFlag(api, 'default', 'main-logged');
    }, true);
    const entries = lines.map((line) => JSON.parse(line)).filter((entry) => entry.event);
    expect(entries).toHaveLength(1);
    expect(entries[0].event).toMatchObject({ version: '0.2', type: 'flag', action: 'created', payload: { key: 'main-logged' } });
  });
});

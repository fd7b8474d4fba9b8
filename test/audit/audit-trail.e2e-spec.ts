/**
 * The stored audit trail (issue 18), `GET /api/v1/audit/events`: each write's event with the state it replaced
 * (`before`), the filters, paging, who may read which namespace's events, that refused writes leave no trace, the
 * switch that turns storage off, the retention cleanup, and that token events never hold a client token.
 *
 * Events are stored after the write has answered, so every read of the trail here polls until the events it expects
 * have landed; each case then asserts the exact set, so an extra or a missing event fails it.
 */
import {
  BOOTSTRAP, bearer, createToken, eventually, expectUnauthenticated, sleep, TOKEN_REQUIRED, type Api,
} from '../auth/support';
import {
  createConstraint, createDistribution, createFlag, createNamespace, createRollout, createRule, createSegment, createVariant,
  expectError, expectInvalidNaming, N, ok, TIMESTAMP, useFlagpole,
} from '../management/support';
import { client } from '../support/flagpole';

const EVENTS = '/api/v1/audit/events';
const UUID_V7 = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
const ADMIN_NAME = 'initial_bootstrap_token';

interface StoredEvent {
  id: string;
  type: string;
  action: string;
  timestamp: string;
  metadata: { actor: Record<string, string> };
  payload: Record<string, any>;
  before: Record<string, any> | null;
}

interface Listing {
  events: StoredEvent[];
  nextPageToken: string;
  totalCount: number;
}

const query = (params: Record<string, string | number>) =>
  `${EVENTS}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;

/** One page of the trail; fails loudly on anything but a 200. */
async function list(api: Api, params: Record<string, string | number> = {}, headers: Record<string, string> = {}): Promise<Listing> {
  return ok<Listing>(await api.get(query(params), undefined, headers));
}

/**
 * Polls until the query counts `count` events (stored asynchronously), then requires exactly that many, and a page
 * that agrees with its count (all of them, or a full page): the page and the count are read in one snapshot.
 */
async function settled(api: Api, params: Record<string, string | number>, count: number): Promise<Listing> {
  let page!: Listing;
  await eventually(async () => {
    page = await list(api, params);
    expect(page.totalCount).toBeGreaterThanOrEqual(count);
  }, 5_000, 50);
  expect(page.totalCount).toBe(count);
  if (page.nextPageToken === '') expect(page.events).toHaveLength(page.totalCount);
  return page;
}

const summary = (events: StoredEvent[]) => events.map((e) => `${e.type}:${e.action}`);

describe('stored audit trail (authentication required, static tokens)', () => {
  // ctx.api sends no credential; api is the bootstrap token's.
  const ctx = useFlagpole(TOKEN_REQUIRED);
  let api: Api;
  beforeAll(() => {
    api = client(ctx.fp.url, bearer(BOOTSTRAP));
  });

  it('keeps a flag\'s life newest first, each event with the state it replaced', async () => {
    await createNamespace(api, 'life');
    await createFlag(api, 'life', 'banner', { name: 'First', description: 'd' });
    ok(await api.put(`${N('life')}/flags/banner`, { name: 'Second', description: 'd' }));
    ok(await api.put(`${N('life')}/flags/banner`, { name: 'Third', description: 'd', enabled: true }));
    ok(await api.delete(`${N('life')}/flags/banner`));

    const { events, nextPageToken } = await settled(api, { flagKey: 'banner' }, 4);
    expect(nextPageToken).toBe('');
    expect(summary(events)).toEqual(['flag:deleted', 'flag:updated', 'flag:updated', 'flag:created']);
    const [deleted, second, first, created] = events;
    const state = (name: string, enabled = false) => ({ key: 'banner', name, description: 'd', enabled, namespace_key: 'life' });

    expect(created).toEqual({
      id: UUID_V7, version: '0.2', type: 'flag', action: 'created', status: 'success', timestamp: TIMESTAMP,
      metadata: { actor: expect.objectContaining({ authentication: 'token', name: ADMIN_NAME }) },
      payload: state('First'), before: null, flagKey: 'banner',
    });
    expect({ payload: first.payload, before: first.before }).toEqual({ payload: state('Second'), before: state('First') });
    expect({ payload: second.payload, before: second.before }).toEqual({ payload: state('Third', true), before: state('Second') });
    expect({ payload: deleted.payload, before: deleted.before }).toEqual({ payload: { key: 'banner', namespace_key: 'life' }, before: state('Third', true) });
    // Newest first, by time as well as by id.
    const times = events.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(events.map((e) => e.id)).size).toBe(4);

    // A flag created again under the same key starts a new history: nothing before it.
    await createFlag(api, 'life', 'banner', { name: 'Reborn' });
    const again = await settled(api, { flagKey: 'banner' }, 5);
    expect(again.events[0]).toMatchObject({ action: 'created', payload: { name: 'Reborn' }, before: null });
  });

  describe('filters', () => {
    let times: string[];
    beforeAll(async () => {
      // Two namespaces with look-alike content, so that each filter has something to leave out.
      for (const ns of ['blue', 'green']) {
        await createNamespace(api, ns);
        await createFlag(api, ns, 'checkout');
        const v = await createVariant(api, ns, 'checkout', 'on');
        await createVariant(api, ns, 'checkout', 'off');
        await createSegment(api, ns, 'beta');
        const c = await createConstraint(api, ns, 'beta', { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' });
        ok(await api.put(`${N(ns)}/segments/beta/constraints/${c.id}`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'max' }));
        await createSegment(api, ns, 'staff');
        await createConstraint(api, ns, 'staff', { type: 'STRING_COMPARISON_TYPE', property: 'team', operator: 'eq', value: 'core' });
        const rule = await createRule(api, ns, 'checkout', { segmentKey: 'beta', rank: 1 });
        await createDistribution(api, ns, 'checkout', rule.id, { variantId: v.id, rollout: 50 });
        await createFlag(api, ns, 'other');
        await createVariant(api, ns, 'other', 'on');
        await createFlag(api, ns, 'toggle', { type: 'BOOLEAN_FLAG_TYPE' });
        await createRollout(api, ns, 'toggle', { rank: 1, threshold: { percentage: 10, value: true } });
        ok(await api.delete(`${N(ns)}/flags/other`));
      }
      // 16 events per namespace: 1 namespace, 4 flag (3 created, 1 deleted), 3 variant, 2 segment, 3 constraint, 1 rule,
      // 1 distribution, 1 rollout.
      await settled(api, { namespaceKey: 'green' }, 16);
      // Three events far enough apart that a timestamp between them names a clear boundary.
      await createNamespace(api, 'clock');
      for (const key of ['t1', 't2', 't3']) {
        await createFlag(api, 'clock', key);
        await sleep(30);
      }
      const { events } = await settled(api, { namespaceKey: 'clock', type: 'flag' }, 3);
      times = events.map((e) => e.timestamp).reverse();
    });

    it('namespaceKey keeps namespaces apart', async () => {
      for (const ns of ['blue', 'green']) {
        const { events } = await list(api, { namespaceKey: ns, limit: 100 });
        expect(events).toHaveLength(16);
        // Flipt's distribution payload names no namespace: it belongs to one of the listed rules.
        const rules = events.filter((e) => e.type === 'rule').map((e) => e.payload.id);
        for (const e of events) {
          if (e.type === 'distribution') expect(rules).toContain(e.payload.rule_id);
          else expect(e.type === 'namespace' ? e.payload.key : e.payload.namespace_key).toBe(ns);
        }
      }
    });

    it('type and action', async () => {
      const variants = await list(api, { namespaceKey: 'blue', type: 'variant' });
      expect(summary(variants.events)).toEqual(['variant:created', 'variant:created', 'variant:created']);
      const constraints = await list(api, { namespaceKey: 'blue', type: 'constraint' });
      expect(summary(constraints.events)).toEqual(['constraint:created', 'constraint:updated', 'constraint:created']);
      const deletions = await list(api, { namespaceKey: 'blue', action: 'deleted' });
      expect(deletions.events.map((e) => [e.type, e.payload])).toEqual([['flag', { key: 'other', namespace_key: 'blue' }]]);
      const updates = await list(api, { namespaceKey: 'blue', type: 'constraint', action: 'updated' });
      expect(updates.events.map((e) => [e.payload.value, e.before?.value])).toEqual([['max', 'pro']]);
    });

    it('flagKey: the flag with its variants, rules, distributions and rollouts, not another flag\'s', async () => {
      const checkout = await list(api, { namespaceKey: 'blue', flagKey: 'checkout' });
      expect(summary(checkout.events)).toEqual(['distribution:created', 'rule:created', 'variant:created', 'variant:created', 'flag:created']);
      const toggle = await list(api, { namespaceKey: 'blue', flagKey: 'toggle' });
      expect(summary(toggle.events)).toEqual(['rollout:created', 'flag:created']);
      const other = await list(api, { namespaceKey: 'blue', flagKey: 'other' });
      expect(summary(other.events)).toEqual(['flag:deleted', 'variant:created', 'flag:created']);
      // Without a namespace, the key matches in every namespace.
      expect((await list(api, { flagKey: 'checkout' })).totalCount).toBe(10);
      expect((await list(api, { namespaceKey: 'blue', flagKey: 'nowhere' })).events).toEqual([]);
    });

    it('segmentKey: the segment and its constraints, not the rules that use it', async () => {
      const beta = await list(api, { namespaceKey: 'green', segmentKey: 'beta' });
      expect(summary(beta.events)).toEqual(['constraint:updated', 'constraint:created', 'segment:created']);
      for (const e of beta.events) expect(e.type === 'segment' ? e.payload.key : e.payload.segment_key).toBe('beta');
      const staff = await list(api, { namespaceKey: 'green', segmentKey: 'staff' });
      expect(summary(staff.events)).toEqual(['constraint:created', 'segment:created']);
    });

    it('actor: a static token\'s name, or the authentication method; actorContains: a part of either, in any case', async () => {
      await createNamespace(api, 'people');
      const alice = bearer((await createToken(api, { name: 'alice-bot' })).clientToken);
      const bob = bearer((await createToken(api, { name: 'bob-bot' })).clientToken);
      ok(await api.post(`${N('people')}/flags`, { key: 'a1', name: 'a1' }, alice));
      ok(await api.post(`${N('people')}/flags`, { key: 'a2', name: 'a2' }, alice));
      ok(await api.post(`${N('people')}/flags`, { key: 'b1', name: 'b1' }, bob));
      await settled(api, { namespaceKey: 'people' }, 4);

      const byAlice = await list(api, { namespaceKey: 'people', actor: 'alice-bot' });
      expect(byAlice.events.map((e) => [e.payload.key, e.metadata.actor.name])).toEqual([['a2', 'alice-bot'], ['a1', 'alice-bot']]);
      expect(byAlice.events[0].metadata.actor).toMatchObject({ authentication: 'token' });
      expect((await list(api, { namespaceKey: 'people', actor: 'bob-bot' })).events.map((e) => e.payload.key)).toEqual(['b1']);
      expect((await list(api, { namespaceKey: 'people', actor: ADMIN_NAME })).events.map((e) => e.type)).toEqual(['namespace']);
      expect((await list(api, { namespaceKey: 'people', actor: 'token' })).totalCount).toBe(4);
      expect((await list(api, { namespaceKey: 'people', actor: 'oidc' })).totalCount).toBe(0);
      expect((await list(api, { namespaceKey: 'people', actor: 'alice' })).totalCount).toBe(0);
      // actorContains (the UI's search): a part of the name or method, in any case; a wildcard is only itself.
      expect((await list(api, { namespaceKey: 'people', actorContains: 'ALICE' })).events.map((e) => e.payload.key)).toEqual(['a2', 'a1']);
      expect((await list(api, { namespaceKey: 'people', actorContains: '-bot' })).totalCount).toBe(3);
      expect((await list(api, { namespaceKey: 'people', actorContains: 'tok' })).totalCount).toBe(4);
      expect((await list(api, { namespaceKey: 'people', actorContains: 'alice%' })).totalCount).toBe(0);
      expect((await list(api, { namespaceKey: 'people', actorContains: 'b_b' })).totalCount).toBe(0);
    });

    it('since (inclusive) and until (exclusive), in RFC 3339 with any offset', async () => {
      const keys = async (params: Record<string, string>) =>
        (await list(api, { namespaceKey: 'clock', type: 'flag', ...params })).events.map((e) => e.payload.key);
      expect(await keys({ since: times[1] })).toEqual(['t3', 't2']);
      expect(await keys({ until: times[1] })).toEqual(['t1']);
      expect(await keys({ since: times[0], until: times[2] })).toEqual(['t2', 't1']);
      expect(await keys({ since: times[2], until: times[2] })).toEqual([]);
      // The same instant two hours east of UTC.
      const shifted = new Date(Date.parse(times[1]) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
      expect(await keys({ since: shifted })).toEqual(['t3', 't2']);
      expect(await keys({ since: '2000-01-01T00:00:00Z', until: '2000-01-02T00:00:00Z' })).toEqual([]);
    });

    it('refuses malformed filters with the standard error body', async () => {
      for (const [field, value] of [['since', 'yesterday'], ['until', '2024-13-01'], ['since', '2024-01-01 00:00:00'], ['until', '1700000000']]) {
        const r = await api.get(query({ [field]: value }));
        expectInvalidNaming(r, field);
      }
      expectInvalidNaming(await api.get(query({ type: 'feature' })), 'type');
      expectInvalidNaming(await api.get(query({ action: 'renamed' })), 'action');
      expectInvalidNaming(await api.get(query({ limit: 101 })), 'limit');
      expectInvalidNaming(await api.get(query({ limit: -1 })), 'limit');
      expect((await list(api, { limit: 100 })).events.length).toBeLessThanOrEqual(100);
    });

    it('refuses since and until outside years 1000 to 9999 (UTC), which every database compares, and takes the edges', async () => {
      const outside = [
        ['since', '0000-01-01T00:00:00Z'], ['until', '0000-01-01T00:00:00Z'], ['since', '0999-12-31T23:59:59.999Z'],
        // Inside the range as written, outside it in UTC.
        ['since', '1000-01-01T00:30:00+01:00'], ['until', '9999-12-31T23:30:00-01:00'],
      ];
      for (const [field, value] of outside) expectInvalidNaming(await api.get(query({ [field]: value })), field);
      const keys = async (params: Record<string, string>) =>
        (await list(api, { namespaceKey: 'clock', type: 'flag', ...params })).events.map((e) => e.payload.key);
      expect(await keys({ since: '1000-01-01T00:00:00Z', until: '9999-12-31T23:59:59.999Z' })).toEqual(['t3', 't2', 't1']);
      expect(await keys({ until: '1000-01-01T00:00:00Z' })).toEqual([]);
      expect(await keys({ since: '9999-12-31T23:59:59.999Z' })).toEqual([]);
    });
  });

  describe('paging', () => {
    beforeAll(async () => {
      await createNamespace(api, 'pages');
      for (let i = 0; i < 30; i++) await createFlag(api, 'pages', `p${String(i).padStart(2, '0')}`);
      await settled(api, { namespaceKey: 'pages', type: 'flag' }, 30);
    });

    it('walks 30 events in pages of 10 by nextPageToken, newest first, each once', async () => {
      const pages: Listing[] = [];
      let token = '';
      do {
        const page = await list(api, { namespaceKey: 'pages', type: 'flag', limit: 10, ...(token ? { pageToken: token } : {}) });
        pages.push(page);
        token = page.nextPageToken;
      } while (token !== '' && pages.length < 10);
      expect(pages.map((p) => [p.events.length, p.totalCount])).toEqual([[10, 30], [10, 30], [10, 30]]);
      expect(pages[0].nextPageToken).not.toBe('');
      expect(pages[1].nextPageToken).not.toBe('');
      expect(pages[2].nextPageToken).toBe('');
      const keys = pages.flatMap((p) => p.events.map((e) => e.payload.key));
      expect(keys).toEqual(Array.from({ length: 30 }, (_, i) => `p${String(29 - i).padStart(2, '0')}`));
      expect(new Set(pages.flatMap((p) => p.events.map((e) => e.id))).size).toBe(30);
    });

    it('pages by 25 without a limit, and refuses a page token it did not make', async () => {
      const first = await list(api, { namespaceKey: 'pages', type: 'flag' });
      expect(first.events).toHaveLength(25);
      const rest = await list(api, { namespaceKey: 'pages', type: 'flag', pageToken: first.nextPageToken });
      expect({ count: rest.events.length, next: rest.nextPageToken }).toEqual({ count: 5, next: '' });
      for (const token of ['garbage!', 'bm90IGpzb24=', Buffer.from('{"offset":-3}').toString('base64')]) {
        expectInvalidNaming(await api.get(query({ pageToken: token })), 'pageToken');
      }
    });
  });

  describe('who may read it', () => {
    let prod: Record<string, string>;
    let everywhere: Record<string, string>;
    beforeAll(async () => {
      for (const ns of ['prod', 'staging']) {
        await createNamespace(api, ns);
        await createFlag(api, ns, 'f');
        await createSegment(api, ns, 's');
      }
      prod = bearer((await createToken(api, { name: 'prod reader', namespaceKey: 'prod' })).clientToken);
      everywhere = bearer((await createToken(api, { name: 'all reader' })).clientToken);
      await settled(api, { namespaceKey: 'staging' }, 3);
      await settled(api, { namespaceKey: 'prod' }, 3);
    });

    it('refuses a request without a valid token', async () => {
      const anonymous = ctx.api;
      expectUnauthenticated(await anonymous.get(EVENTS));
      expectUnauthenticated(await anonymous.get(query({ namespaceKey: 'prod' })));
      expectUnauthenticated(await anonymous.get(EVENTS, undefined, bearer('not-a-token')));
    });

    it('a namespaced token reads its own namespace only', async () => {
      const own = await list(api, { namespaceKey: 'prod' }, prod);
      expect(summary(own.events)).toEqual(['segment:created', 'flag:created', 'namespace:created']);
      for (const e of own.events) expect(e.type === 'namespace' ? e.payload.key : e.payload.namespace_key).toBe('prod');
      expect((await list(api, { namespaceKey: 'prod', type: 'flag', flagKey: 'f' }, prod)).totalCount).toBe(1);
      // Another namespace is refused as on every namespace-scoped route; no namespaceKey means `default`, as there.
      expectUnauthenticated(await api.get(query({ namespaceKey: 'staging' }), undefined, prod));
      expectUnauthenticated(await api.get(query({ namespaceKey: 'default' }), undefined, prod));
      expectUnauthenticated(await api.get(EVENTS, undefined, prod));
      expectUnauthenticated(await api.get(`${N('staging')}/flags`, undefined, prod));
    });

    it('a token without a namespace reads every namespace, tokens\' events included', async () => {
      let all!: Listing;
      // The tokens' own creation events may still be on their way: compare once both reads agree.
      await eventually(async () => {
        all = await list(api, { limit: 100 }, everywhere);
        expect(all.totalCount).toBe((await list(api, {})).totalCount);
      }, 5_000, 50);
      const namespaces = new Set(all.events.filter((e) => e.type === 'flag').map((e) => e.payload.namespace_key));
      expect([...namespaces]).toEqual(expect.arrayContaining(['prod', 'staging']));
      expect(all.events.some((e) => e.type === 'token')).toBe(true);
      expect((await list(api, { namespaceKey: 'staging' }, everywhere)).totalCount).toBe(3);
    });
  });

  it('a refused write leaves no trace', async () => {
    await createNamespace(api, 'refusals');
    expectInvalidNaming(await api.post(`${N('refusals')}/flags`, { key: 'not a key!', name: 'x' }), 'key');
    expect((await api.put(`${N('refusals')}/flags/missing`, { name: 'x' })).status).toBe(404);
    expectUnauthenticated(await ctx.api.post(`${N('refusals')}/flags`, { key: 'sneaky', name: 'x' }));
    // A write after them: once its event is stored, theirs would be too (the trail is written in order).
    await createFlag(api, 'refusals', 'marker');
    const { events } = await settled(api, { namespaceKey: 'refusals' }, 2);
    expect(events.map((e) => [e.type, e.action, e.payload.key])).toEqual([['flag', 'created', 'marker'], ['namespace', 'created', 'refusals']]);
    for (const key of ['not a key!', 'missing', 'sneaky']) expect((await list(api, { flagKey: key })).totalCount).toBe(0);
  });

  it('token events name the token but never hold its secret', async () => {
    const { clientToken, authentication } = await createToken(api, { name: 'ci deployer', description: 'from CI' });
    ok(await api.delete(`/auth/v1/tokens/${authentication.id}`));
    let text = '';
    await eventually(async () => {
      const r = await api.get(query({ type: 'token', limit: 100 }));
      text = r.text;
      const mine = (r.body as Listing).events.filter((e) => e.payload.id === authentication.id);
      expect(summary(mine)).toEqual(['token:deleted', 'token:created']);
      expect(mine[0].before).toEqual(mine[1].payload);
      expect(mine[1]).toMatchObject({ payload: { id: authentication.id, name: 'ci deployer', description: 'from CI' }, before: null });
      expect(mine[1].metadata.actor).toMatchObject({ authentication: 'token', name: ADMIN_NAME });
    }, 5_000, 50);
    expect(text).not.toContain(clientToken);
    expect(text).not.toContain(BOOTSTRAP);
    // Every token created in this file, namespaced ones included.
    expect(text).not.toMatch(/"clientToken"|client_token/);
  });
});

describe('audit.storage.enabled: false', () => {
  const ctx = useFlagpole({ FLAGPOLE_AUDIT_STORAGE_ENABLED: 'false' });

  it('answers 404 naming the setting, and writes go on', async () => {
    const { api } = ctx;
    await createFlag(api, 'default', 'still-works');
    const r = await api.get(EVENTS);
    expect({ status: r.status, code: r.body?.code, details: r.body?.details }).toEqual({ status: 404, code: 5, details: [] });
    expect(r.body.message).toContain('audit.storage.enabled');
    expectError(await api.get(query({ flagKey: 'still-works' })), 404, 5, r.body.message);
  });
});

describe('audit.storage.retention', () => {
  const ctx = useFlagpole({ FLAGPOLE_AUDIT_STORAGE_RETENTION: '2s', FLAGPOLE_AUDIT_STORAGE_CLEANUP_INTERVAL: '500ms' });

  it('the scheduled cleanup deletes events once they are older than the retention, and only those', async () => {
    const { api } = ctx;
    await createFlag(api, 'default', 'old');
    await settled(api, { flagKey: 'old' }, 1);
    await sleep(1_500);
    await createFlag(api, 'default', 'young');
    await settled(api, { flagKey: 'young' }, 1);

    // `old` goes 2 s after its write; `young`, written 1.5 s later, must still be there in that same read.
    let keys: string[] = [];
    await eventually(async () => {
      keys = (await list(api, {})).events.map((e) => e.payload.key);
      expect(keys).not.toContain('old');
    }, 6_000, 50);
    expect(keys).toEqual(['young']);
    await eventually(async () => expect((await list(api, {})).totalCount).toBe(0), 6_000, 50);
  });
});

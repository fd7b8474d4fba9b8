/**
 * Evaluations answer from an in-memory snapshot per namespace; every write through the management API must show
 * in the very next evaluation (the write's 200 comes first, then the evaluation) — flags, variants, segments,
 * constraints, rules, distributions, rollouts, deletes and creates.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, batch, boolean, buildNamespace, Built, nsPath, ok, variant } from './fixtures';

const NS = 'live';
const P = nsPath(NS);

describe('writes reach the next evaluation', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let built: Built;

  const v = async (flagKey: string, context: Record<string, string> = {}, entityId = 'e-1') =>
    ok(await variant(api, { namespaceKey: NS, flagKey, entityId, context }));
  const b = async (flagKey: string, context: Record<string, string> = {}, entityId = 'e-1') =>
    ok(await boolean(api, { namespaceKey: NS, flagKey, entityId, context }));

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    built = await buildNamespace(api, {
      key: NS,
      segments: [
        { key: 'plan', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }] },
        { key: 'region', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'region', operator: 'eq', value: 'eu' }] },
        { key: 'everyone' },
      ],
      flags: [
        {
          key: 'toggle',
          variants: [{ key: 'a', attachment: '{"n":1}' }, { key: 'b' }],
          rules: [{ segments: ['plan'], distributions: [['a', 100]] }, { segments: ['region'], distributions: [['b', 100]] }],
        },
        { key: 'gate', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ segment: { segments: ['plan'], value: true } }, { threshold: { percentage: 0, value: true } }] },
        { key: 'doomed', variants: [{ key: 'x' }], rules: [{ segments: ['everyone'], distributions: [['x', 100]] }] },
      ],
    });
  });
  afterAll(() => fp?.close());

  it('flag enabled ↔ disabled', async () => {
    expect(await v('toggle', { plan: 'pro' })).toMatchObject({ match: true, variantKey: 'a' });
    for (let i = 0; i < 10; i++) {
      const enabled = i % 2 === 1;
      ok(await api.put(`${P}/flags/toggle`, { name: 'toggle', enabled }));
      const r = await v('toggle', { plan: 'pro' });
      expect(r.reason).toBe(enabled ? 'MATCH_EVALUATION_REASON' : 'FLAG_DISABLED_EVALUATION_REASON');
    }
  });

  it('constraint update, create and delete', async () => {
    const [planConstraint] = built.constraints.plan;
    ok(await api.put(`${P}/segments/plan/constraints/${planConstraint}`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'gold' }));
    expect((await v('toggle', { plan: 'pro' })).match).toBe(false);
    expect(await v('toggle', { plan: 'gold' })).toMatchObject({ match: true, variantKey: 'a' });

    const extra = ok(await api.post(`${P}/segments/plan/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'tier', operator: 'eq', value: '1' })).id;
    expect((await v('toggle', { plan: 'gold' })).match).toBe(false);
    expect((await v('toggle', { plan: 'gold', tier: '1' })).match).toBe(true);

    ok(await api.delete(`${P}/segments/plan/constraints/${extra}`));
    expect((await v('toggle', { plan: 'gold' })).match).toBe(true);
    ok(await api.put(`${P}/segments/plan/constraints/${planConstraint}`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }));
    expect((await v('toggle', { plan: 'pro' })).match).toBe(true);
  });

  it('segment match type ALL → ANY', async () => {
    ok(await api.post(`${P}/segments`, { key: 'both', name: 'both', matchType: 'ALL_MATCH_TYPE' }));
    ok(await api.post(`${P}/segments/both/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'x', operator: 'eq', value: '1' }));
    ok(await api.post(`${P}/segments/both/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'y', operator: 'eq', value: '1' }));
    ok(await api.post(`${P}/flags`, { key: 'matchy', name: 'matchy', enabled: true }));
    const m = ok(await api.post(`${P}/flags/matchy/variants`, { key: 'm' })).id;
    const rule = ok(await api.post(`${P}/flags/matchy/rules`, { segmentKey: 'both', rank: 1 })).id;
    ok(await api.post(`${P}/flags/matchy/rules/${rule}/distributions`, { variantId: m, rollout: 100 }));
    expect((await v('matchy', { x: '1' })).match).toBe(false);
    ok(await api.put(`${P}/segments/both`, { name: 'both', matchType: 'ANY_MATCH_TYPE' }));
    expect(await v('matchy', { x: '1' })).toMatchObject({ match: true, variantKey: 'm' });
  });

  it('variant key and attachment updates', async () => {
    const a = built.variants.toggle.a;
    ok(await api.put(`${P}/flags/toggle/variants/${a}`, { key: 'a2', name: 'a2', attachment: '{"n": 2}' }));
    expect(await v('toggle', { plan: 'pro' })).toMatchObject({ variantKey: 'a2', variantAttachment: '{"n":2}' });
    ok(await api.put(`${P}/flags/toggle/variants/${a}`, { key: 'a', name: 'a', attachment: '{"n":1}' }));
    expect(await v('toggle', { plan: 'pro' })).toMatchObject({ variantKey: 'a', variantAttachment: '{"n":1}' });
  });

  it('distribution update, create and delete', async () => {
    const rule = built.rules.toggle[0];
    const [dist] = built.distributions.toggle[0];
    const { a, b: bId } = built.variants.toggle;
    ok(await api.put(`${P}/flags/toggle/rules/${rule}/distributions/${dist}`, { variantId: bId, rollout: 100 }));
    expect((await v('toggle', { plan: 'pro' })).variantKey).toBe('b');

    // 0% on b plus a new 100% on a → a
    ok(await api.put(`${P}/flags/toggle/rules/${rule}/distributions/${dist}`, { variantId: bId, rollout: 0 }));
    const added = ok(await api.post(`${P}/flags/toggle/rules/${rule}/distributions`, { variantId: a, rollout: 100 })).id;
    expect((await v('toggle', { plan: 'pro' })).variantKey).toBe('a');

    ok(await api.delete(`${P}/flags/toggle/rules/${rule}/distributions/${added}?variantId=${a}`));
    // only the 0% distribution remains: it is dropped, so the rule matches without a variant
    expect(await v('toggle', { plan: 'pro' })).toMatchObject({ match: true, variantKey: '', reason: 'MATCH_EVALUATION_REASON' });

    ok(await api.put(`${P}/flags/toggle/rules/${rule}/distributions/${dist}`, { variantId: a, rollout: 100 }));
    expect((await v('toggle', { plan: 'pro' })).variantKey).toBe('a');
  });

  it('rule reorder, update and delete', async () => {
    const [r1, r2] = built.rules.toggle;
    const both = { plan: 'pro', region: 'eu' };
    expect((await v('toggle', both)).variantKey).toBe('a');
    ok(await api.put(`${P}/flags/toggle/rules/order`, { ruleIds: [r2, r1] }));
    expect((await v('toggle', both)).variantKey).toBe('b');
    ok(await api.put(`${P}/flags/toggle/rules/order`, { ruleIds: [r1, r2] }));
    expect((await v('toggle', both)).variantKey).toBe('a');

    ok(await api.put(`${P}/flags/toggle/rules/${r1}`, { segmentKeys: ['plan', 'region'], segmentOperator: 'AND_SEGMENT_OPERATOR' }));
    expect((await v('toggle', { plan: 'pro' })).match).toBe(false);
    expect((await v('toggle', both)).variantKey).toBe('a');

    ok(await api.delete(`${P}/flags/toggle/rules/${r1}`));
    expect((await v('toggle', both)).variantKey).toBe('b');
  });

  it('default variant set and cleared', async () => {
    expect(await v('toggle', {})).toMatchObject({ match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '' });
    ok(await api.put(`${P}/flags/toggle`, { name: 'toggle', enabled: true, defaultVariantId: built.variants.toggle.a }));
    expect(await v('toggle', {})).toMatchObject({ match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'a', variantAttachment: '{"n":1}' });
    ok(await api.put(`${P}/flags/toggle`, { name: 'toggle', enabled: true, defaultVariantId: '' }));
    expect(await v('toggle', {})).toMatchObject({ reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '' });
  });

  it('boolean: flag enabled (the DEFAULT value), rollout update, reorder and delete', async () => {
    const [seg, threshold] = built.rollouts.gate;
    expect(await b('gate')).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
    ok(await api.put(`${P}/flags/gate`, { name: 'gate', enabled: true }));
    expect(await b('gate')).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });

    ok(await api.put(`${P}/flags/gate/rollouts/${threshold}`, { threshold: { percentage: 100, value: false } }));
    expect(await b('gate')).toMatchObject({ enabled: false, reason: 'MATCH_EVALUATION_REASON' });
    expect(await b('gate', { plan: 'pro' })).toMatchObject({ enabled: true, segmentKeys: ['plan'] });

    ok(await api.put(`${P}/flags/gate/rollouts/order`, { rolloutIds: [threshold, seg] }));
    expect(await b('gate', { plan: 'pro' })).toMatchObject({ enabled: false, segmentKeys: [] });

    ok(await api.put(`${P}/flags/gate/rollouts/${seg}`, { segment: { segmentKey: 'region', value: true } }));
    ok(await api.delete(`${P}/flags/gate/rollouts/${threshold}`));
    expect(await b('gate', { plan: 'pro' })).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
    expect(await b('gate', { region: 'eu' })).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['region'] });
  });

  it('a new flag is evaluable at once; a deleted flag is 404 at once (single and batch)', async () => {
    const before = await variant(api, { namespaceKey: NS, flagKey: 'fresh', entityId: 'e' });
    expect(before.status).toBe(404);
    ok(await api.post(`${P}/flags`, { key: 'fresh', name: 'fresh', enabled: false }));
    expect(await v('fresh')).toMatchObject({ reason: 'FLAG_DISABLED_EVALUATION_REASON' });

    expect((await v('doomed')).variantKey).toBe('x');
    ok(await api.delete(`${P}/flags/doomed`));
    const gone = await variant(api, { namespaceKey: NS, flagKey: 'doomed', entityId: 'e' });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(`flag "${NS}/doomed" not found`);
    const inBatch = ok(await batch(api, [{ namespaceKey: NS, flagKey: 'doomed', entityId: 'e' }]));
    expect(inBatch.responses[0].type).toBe('ERROR_EVALUATION_RESPONSE_TYPE');
    const legacy = await api.post(`/api/v1/namespaces/${NS}/evaluate`, { flagKey: 'doomed', entityId: 'e' });
    expect(legacy.status).toBe(404);
  });

  it('a new namespace and its flags are evaluable at once', async () => {
    expect((await variant(api, { namespaceKey: 'later', flagKey: 'f', entityId: 'e' })).status).toBe(404);
    await buildNamespace(api, { key: 'later', segments: [{ key: 'everyone' }], flags: [{ key: 'f', variants: [{ key: 'v' }], rules: [{ segments: ['everyone'], distributions: [['v', 100]] }] }] });
    expect(ok(await variant(api, { namespaceKey: 'later', flagKey: 'f', entityId: 'e' })).variantKey).toBe('v');
    // a write elsewhere leaves this namespace's answers alone
    ok(await api.put(`${P}/flags/fresh`, { name: 'fresh', enabled: true }));
    expect(ok(await variant(api, { namespaceKey: 'later', flagKey: 'f', entityId: 'e' })).variantKey).toBe('v');
  });

  it('evaluations racing writes always see a state at least as new as the last acknowledged write', async () => {
    for (let i = 0; i < 20; i++) {
      const enabled = i % 2 === 0;
      const inflight = Array.from({ length: 5 }, () => variant(api, { namespaceKey: NS, flagKey: 'toggle', entityId: 'e', context: { region: 'eu' } }));
      ok(await api.put(`${P}/flags/toggle`, { name: 'toggle', enabled }));
      await Promise.all(inflight);
      const r = await v('toggle', { region: 'eu' });
      expect(r.reason).toBe(enabled ? 'MATCH_EVALUATION_REASON' : 'FLAG_DISABLED_EVALUATION_REASON');
    }
  });
});

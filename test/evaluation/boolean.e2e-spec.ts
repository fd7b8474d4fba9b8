/**
 * POST /evaluate/v1/boolean over real HTTP: Flipt's boolean algorithm (facts §6.2) — rollouts in rank order,
 * thresholds on crc32(entityId + flagKey) % 100, segment rollouts with AND/OR, disabled flags still evaluated,
 * DEFAULT = flag.enabled.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, boolean, buildNamespace, ok, sorted, thresholdBucket } from './fixtures';

const NS = 'booleans';
const str = (property: string, operator: string, value = '') => ({ type: 'STRING_COMPARISON_TYPE' as const, property, operator, value });
const ids = Array.from({ length: 300 }, (_, i) => `user-${i}`);

describe('boolean evaluation', () => {
  let fp: RunningFlagpole;
  let api: Api;

  const evaluate = async (flagKey: string, context: Record<string, string> = {}, entityId = 'entity-1') =>
    ok(await boolean(api, { namespaceKey: NS, flagKey, entityId, context }), `boolean ${flagKey}`);

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildNamespace(api, {
      key: NS,
      segments: [
        { key: 'plan-pro', constraints: [str('plan', 'eq', 'pro')] },
        { key: 'region-eu', constraints: [str('region', 'eq', 'eu')] },
        { key: 'everyone' },
        { key: 'vip', constraints: [{ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'isoneof', value: '["user@flipt.io"]' }] },
      ],
      flags: [
        { key: 'threshold-off', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ threshold: { percentage: 50, value: true } }] },
        { key: 'threshold-on', type: 'BOOLEAN_FLAG_TYPE', enabled: true, rollouts: [{ threshold: { percentage: 30, value: false } }] },
        { key: 'threshold-zero', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ threshold: { percentage: 0, value: true } }] },
        { key: 'threshold-all', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ threshold: { percentage: 100, value: true } }] },
        { key: 'threshold-frac', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ threshold: { percentage: 12.5, value: true } }] },
        {
          key: 'segments',
          type: 'BOOLEAN_FLAG_TYPE',
          enabled: false,
          rollouts: [
            { segment: { segments: ['plan-pro', 'region-eu'], operator: 'AND_SEGMENT_OPERATOR', value: false } },
            { segment: { segments: ['plan-pro', 'region-eu'], operator: 'OR_SEGMENT_OPERATOR', value: true } },
            { segment: { segments: ['vip'], value: true } },
          ],
        },
        {
          key: 'mixed',
          type: 'BOOLEAN_FLAG_TYPE',
          enabled: true,
          rollouts: [{ segment: { segments: ['plan-pro'], value: false } }, { threshold: { percentage: 50, value: false } }],
        },
        { key: 'no-rollouts-on', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
        { key: 'no-rollouts-off', type: 'BOOLEAN_FLAG_TYPE', enabled: false },
        { key: 'no-constraints', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ segment: { segments: ['everyone'], value: true } }] },
        { key: 'a-variant', variants: [{ key: 'v' }] },
      ],
    });
  });
  afterAll(() => fp?.close());

  it('answers with every field of BooleanEvaluationResponse, in proto order', async () => {
    const res = await boolean(api, { namespaceKey: NS, flagKey: 'no-rollouts-on', entityId: 'e' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['enabled', 'reason', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey', 'segmentKeys']);
    expect(res.body).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON', flagKey: 'no-rollouts-on', segmentKeys: [] });
  });

  describe('threshold rollouts', () => {
    it('crc32(entityId + flagKey) % 100 < percentage → threshold value, MATCH, no segment keys; disabled flag still evaluated', async () => {
      const outcomes = new Set<string>();
      for (const id of ids) {
        const hit = thresholdBucket(id, 'threshold-off') < 50;
        const r = await evaluate('threshold-off', {}, id);
        expect({ id, enabled: r.enabled, reason: r.reason, segmentKeys: r.segmentKeys }).toEqual({
          id,
          enabled: hit,
          reason: hit ? 'MATCH_EVALUATION_REASON' : 'DEFAULT_EVALUATION_REASON',
          segmentKeys: [],
        });
        outcomes.add(r.reason);
      }
      expect(outcomes.size).toBe(2);
    });

    it('a threshold with value false on an enabled flag', async () => {
      for (const id of ids.slice(0, 150)) {
        const hit = thresholdBucket(id, 'threshold-on') < 30;
        const r = await evaluate('threshold-on', {}, id);
        expect({ id, enabled: r.enabled, reason: r.reason }).toEqual({
          id,
          enabled: !hit,
          reason: hit ? 'MATCH_EVALUATION_REASON' : 'DEFAULT_EVALUATION_REASON',
        });
      }
    });

    it('0% never matches, 100% always matches, 12.5% compares as a float', async () => {
      for (const id of ids.slice(0, 100)) {
        expect(await evaluate('threshold-zero', {}, id)).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
        expect(await evaluate('threshold-all', {}, id)).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON' });
        const hit = thresholdBucket(id, 'threshold-frac') < 12.5;
        expect((await evaluate('threshold-frac', {}, id)).enabled).toBe(hit);
      }
      // bucket 12 is inside 12.5%
      const twelve = ids.concat(Array.from({ length: 5000 }, (_, i) => `more-${i}`)).find((id) => thresholdBucket(id, 'threshold-frac') === 12)!;
      expect(await evaluate('threshold-frac', {}, twelve)).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON' });
    });
  });

  describe('segment rollouts', () => {
    it('AND rollout (rank 1) needs every segment and reports them all', async () => {
      const r = await evaluate('segments', { plan: 'pro', region: 'eu' });
      expect(r).toMatchObject({ enabled: false, reason: 'MATCH_EVALUATION_REASON' });
      expect(sorted(r.segmentKeys)).toEqual(['plan-pro', 'region-eu']);
    });

    it('OR rollout (rank 2) needs one segment and reports the matched ones', async () => {
      expect(await evaluate('segments', { plan: 'pro' })).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['plan-pro'] });
      expect(await evaluate('segments', { region: 'eu' })).toMatchObject({ enabled: true, segmentKeys: ['region-eu'] });
    });

    it('ENTITY_ID segment (rank 3)', async () => {
      expect(await evaluate('segments', {}, 'user@flipt.io')).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['vip'] });
    });

    it('nothing matches → DEFAULT with flag.enabled (false here)', async () => {
      expect(await evaluate('segments', { plan: 'free' })).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
    });

    it('rank order across segment and threshold rollouts', async () => {
      const inside = ids.find((id) => thresholdBucket(id, 'mixed') < 50)!;
      const outside = ids.find((id) => thresholdBucket(id, 'mixed') >= 50)!;
      expect(await evaluate('mixed', { plan: 'pro' }, outside)).toMatchObject({ enabled: false, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['plan-pro'] });
      expect(await evaluate('mixed', {}, inside)).toMatchObject({ enabled: false, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
      expect(await evaluate('mixed', {}, outside)).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
    });

    it('a segment without constraints matches with no entity id and no context', async () => {
      const r = ok(await boolean(api, { namespaceKey: NS, flagKey: 'no-constraints' }));
      expect(r).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['everyone'] });
    });
  });

  describe('no rollouts', () => {
    it('DEFAULT = flag.enabled; there is no FLAG_DISABLED reason for boolean flags', async () => {
      expect(await evaluate('no-rollouts-on')).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });
      expect(await evaluate('no-rollouts-off')).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
    });
  });

  describe('errors', () => {
    it('missing flag → 404 `flag "<ns>/<key>" not found`', async () => {
      const res = await boolean(api, { namespaceKey: NS, flagKey: 'missing', entityId: 'e' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 5, message: `flag "${NS}/missing" not found`, details: [] });
    });

    it('a variant flag → 400 `flag type VARIANT_FLAG_TYPE invalid`', async () => {
      const res = await boolean(api, { namespaceKey: NS, flagKey: 'a-variant', entityId: 'e' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 3, message: 'flag type VARIANT_FLAG_TYPE invalid', details: [] });
    });
  });
});

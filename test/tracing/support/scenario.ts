/**
 * What the tracing suites do against a Flagpole: a variant flag whose rule matches everyone (a few writes), then
 * evaluations, one of them continuing a caller's trace. The spans it should leave are asserted by the suites.
 */
import { client, type RunningFlagpole } from '../../support/flagpole';

/** The caller's trace, as a W3C `traceparent` (version 00, sampled). */
export const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
export const TRACEPARENT = `00-${CALLER.traceId}-${CALLER.spanId}-01`;

export async function evaluateAFlag(fp: RunningFlagpole): Promise<void> {
  const api = client(fp.url);
  const ok = (r: { status: number; text: string }) => expect([r.status, r.text]).toEqual([200, expect.any(String)]);
  ok(await api.post('/api/v1/namespaces/default/segments', { key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' }));
  ok(await api.post('/api/v1/namespaces/default/flags', { key: 'color', name: 'Color', type: 'VARIANT_FLAG_TYPE', enabled: true }));
  const variant = await api.post('/api/v1/namespaces/default/flags/color/variants', { key: 'blue' });
  ok(variant);
  const rule = await api.post('/api/v1/namespaces/default/flags/color/rules', { segmentKey: 'everyone', rank: 1 });
  ok(rule);
  ok(await api.post(`/api/v1/namespaces/default/flags/color/rules/${rule.body.id}/distributions`, { variantId: variant.body.id, rollout: 100 }));
  ok(await api.post('/api/v1/namespaces/default/flags', { key: 'dark-mode', name: 'Dark mode', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
  const evaluated = await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'user-7', context: {}, requestId: 'req-1' }, { traceparent: TRACEPARENT });
  expect(evaluated.body).toMatchObject({ match: true, variantKey: 'blue' });
  ok(await api.post('/evaluate/v1/boolean', { flagKey: 'dark-mode', entityId: 'user-7', context: {} }));
}

/**
 * A segment's payload lists its constraints and a rule's its distributions, but those are written through their own
 * routes, as events of their own: the segment's or rule's last event does not know of them. A later update of the
 * segment's details (or the rule's segments) must not look, in its `before`, as if it had changed them (issue 43: a
 * segment's History showed its constraints "removed" and "added" when only the description was saved).
 */
import { BOOTSTRAP, bearer, eventually, TOKEN_REQUIRED, type Api } from '../auth/support';
import {
  createConstraint, createDistribution, createFlag, createNamespace, createRule, createSegment, createVariant, N, ok, useFlagpole,
} from '../management/support';
import { client } from '../support/flagpole';

interface StoredEvent {
  type: string;
  action: string;
  payload: Record<string, any>;
  before: Record<string, any> | null;
}

/** The stored updates of a type in a namespace, newest first, once `count` of them have landed. */
async function updates(api: Api, ns: string, type: string, count: number): Promise<StoredEvent[]> {
  let events: StoredEvent[] = [];
  await eventually(async () => {
    events = ok<{ events: StoredEvent[] }>(await api.get(`/api/v1/audit/events?namespaceKey=${ns}&type=${type}&action=updated`)).events;
    expect(events).toHaveLength(count);
  }, 5_000, 50);
  return events;
}

describe("audit `before` of a segment or rule whose children changed since its last event", () => {
  const ctx = useFlagpole(TOKEN_REQUIRED);
  let api: Api;
  beforeAll(() => {
    api = client(ctx.fp.url, bearer(BOOTSTRAP));
  });

  it("records only the description when a segment's description is saved after its constraints were added", async () => {
    await createNamespace(api, 'kids');
    await createSegment(api, 'kids', 'beta', { name: 'Beta' });
    await createConstraint(api, 'kids', 'beta', { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' });
    ok(await api.put(`${N('kids')}/segments/beta`, { name: 'Beta', description: 'Try things first' }));

    const [updated] = await updates(api, 'kids', 'segment', 1);
    expect(updated.payload.constraints).toHaveLength(1);
    expect(updated.before).toEqual({ ...updated.payload, description: '' });
  });

  it("records only the segments when a rule is changed after its distributions were written", async () => {
    await createFlag(api, 'kids', 'colour');
    const blue = await createVariant(api, 'kids', 'colour', 'blue');
    await createSegment(api, 'kids', 'everyone');
    const rule = await createRule(api, 'kids', 'colour', { segmentKey: 'beta', rank: 1 });
    await createDistribution(api, 'kids', 'colour', rule.id, { variantId: blue.id, rollout: 100 });
    ok(await api.put(`${N('kids')}/flags/colour/rules/${rule.id}`, { segmentKey: 'everyone' }));

    const [updated] = await updates(api, 'kids', 'rule', 1);
    expect(updated.payload.distributions).toHaveLength(1);
    expect(updated.before).toEqual({ ...updated.payload, segment_key: 'beta' });
  });
});

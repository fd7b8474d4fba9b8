/**
 * A write updates the rows it changes and no others. Every write loads the namespace (to lock it and move its version
 * on) and often the flag with its variants, or a rule and its flag; flushing must not write those back unchanged.
 * On SQLite, MikroORM used to see every loaded timestamp as changed (a Date against the stored epoch milliseconds), so
 * each write rewrote the timestamps of every row it had read: more statements, more CPU on the event loop, more pages
 * written. The statements are taken from the connection's query events, on the dialect under test.
 */
import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { createDistribution, createFlag, createRule, createSegment, createVariant, N, ok, useFlagpole } from '../management/support';

describe('a write updates only the rows it changes', () => {
  const ctx = useFlagpole();
  const flags = `${N('default')}/flags`;
  let statements: string[] = [];
  let ids: { rule: string; distribution: string; variant: string };

  beforeAll(async () => {
    await createFlag(ctx.api, 'default', 'checkout', { enabled: true });
    const variant = await createVariant(ctx.api, 'default', 'checkout', 'a');
    await createVariant(ctx.api, 'default', 'checkout', 'b');
    await createSegment(ctx.api, 'default', 'everyone');
    const rule = await createRule(ctx.api, 'default', 'checkout', { segmentKey: 'everyone', rank: 1 });
    const distribution = await createDistribution(ctx.api, 'default', 'checkout', rule.id, { variantId: variant.id, rollout: 50 });
    ids = { rule: rule.id, distribution: distribution.id, variant: variant.id };
    const knex = (ctx.fp.app.get(MikroORM).em as SqlEntityManager).getKnex();
    knex.client.on('query', (q: { sql: string }) => statements.push(q.sql.replace(/\s+/g, ' ')));
  });

  beforeEach(() => {
    statements = [];
  });

  /** The tables the statements since the test began update, with the columns each sets. */
  const updates = () =>
    statements
      .filter((sql) => /^update /i.test(sql))
      .map((sql) => {
        const [, table, set] = /^update [`"]?(\w+)[`"]? set (.*?) where /i.exec(sql)!;
        return `${table}: ${[...set.matchAll(/[`"](\w+)[`"] =/g)].map((m) => m[1]).join(', ')}`;
      });

  it("a flag's description: the flag's row, not its variants'", async () => {
    ok(await ctx.api.put(`${flags}/checkout`, { name: 'checkout', description: 'changed', enabled: true }));
    expect(updates()).toEqual(['namespaces: state_modified_at', 'flags: description, updated_at']);
  });

  it("a distribution's rollout: the distribution's row, not its rule's, flag's or variant's", async () => {
    ok(await ctx.api.put(`${flags}/checkout/rules/${ids.rule}/distributions/${ids.distribution}`, { variantId: ids.variant, rollout: 40 }));
    expect(updates()).toEqual(['namespaces: state_modified_at', 'distributions: rollout, updated_at']);
  });

  it('a write that changes nothing of a row leaves it alone: the same description again', async () => {
    ok(await ctx.api.put(`${flags}/checkout`, { name: 'checkout', description: 'changed', enabled: true }));
    expect(updates().filter((u) => !u.startsWith('namespaces:') && !u.endsWith(': updated_at'))).toEqual([]);
  });
});

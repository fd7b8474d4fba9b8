/**
 * A full snapshot load reads the namespace's flags page by page (storage/evaluation-source.ts flagPages): every flag
 * must come exactly once, whole, whatever the page size, also when many share one creation time (the pages are cut
 * by creation time, then id); and the snapshot built from the pages must list its flags as one built in one go.
 */
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { addFlagsPaced, compileSnapshot, startSnapshot, type SourceFlag } from '../../src/core';
import { orderedFlags } from '../../src/core/snapshot';
import { Database } from '../../src/storage/database.service';
import { flagPages, loadFlags, loadSegments } from '../../src/storage/evaluation-source';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';

const NS = 'paged';
const KEYS = Array.from({ length: 23 }, (_, i) => `f-${String(i).padStart(2, '0')}`);

describe('a full load page by page', () => {
  let fp: RunningFlagpole;
  let db: Database;

  beforeAll(async () => {
    fp = await startFlagpole();
    const api = client(fp.url);
    expect((await api.post('/api/v1/namespaces', { key: NS, name: NS })).status).toBe(200);
    expect((await api.post(`/api/v1/namespaces/${NS}/segments`, { key: 's', name: 's' })).status).toBe(200);
    // Created in reverse key order, so that creation order and key order disagree.
    for (const key of [...KEYS].reverse()) {
      expect((await api.post(`/api/v1/namespaces/${NS}/flags`, { key, name: key, type: 'VARIANT_FLAG_TYPE', enabled: true })).status).toBe(200);
      expect((await api.post(`/api/v1/namespaces/${NS}/flags/${key}/variants`, { key: 'a' })).status).toBe(200);
      expect((await api.post(`/api/v1/namespaces/${NS}/flags/${key}/rules`, { segmentKey: 's', rank: 1 })).status).toBe(200);
    }
    db = fp.app.get(Database);
    // Ten flags get the creation time of the first one created (f-22), as each database stores it: eleven flags
    // share it, and pages are cut inside the tie.
    await db.read(async (em) => {
      const knex = (em as SqlEntityManager).getKnex();
      const [first] = await knex('flags').select('created_at').where({ namespace_key: NS, key: 'f-22' });
      await knex('flags').where('namespace_key', NS).whereIn('key', KEYS.slice(5, 15)).update({ created_at: first.created_at });
    });
  });
  afterAll(() => fp?.close());

  const read = <T>(work: (knex: ReturnType<SqlEntityManager['getKnex']>) => Promise<T>) => db.read((em) => work((em as SqlEntityManager).getKnex()));

  it.each([1, 2, 4, 7, 23, 100])('pages of %i give every flag once, whole', async (perPage) => {
    const expected = await read((knex) => loadFlags(knex, NS, KEYS));
    const paged = await read(async (knex) => {
      const all: SourceFlag[] = [];
      for await (const page of flagPages(knex, NS, perPage)) {
        expect(page.length).toBeLessThanOrEqual(perPage);
        all.push(...page);
      }
      return all;
    });
    const byKey = (flags: SourceFlag[]) => [...flags].sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(paged).toHaveLength(KEYS.length);
    expect(byKey(paged)).toEqual(byKey(expected));
    expect(expected[0].rules[0].segmentKeys).toEqual(['s']);
  });

  it('builds the snapshot a load in one go builds, in the same order', async () => {
    const [flags, segments] = await read((knex) => Promise.all([loadFlags(knex, NS, KEYS), loadSegments(knex, NS)]));
    const whole = compileSnapshot({ key: NS, version: '1', flags, segments });
    const paged = await read(async (knex) => {
      const snapshot = startSnapshot(NS, '1', segments);
      const pacing = { pause: () => new Promise<void>((r) => setImmediate(r)), sliceMs: 0, now: () => 0 };
      for await (const page of flagPages(knex, NS, 4)) await addFlagsPaced(snapshot, page, pacing);
      return snapshot;
    });
    const keys = (s: typeof whole) => Array.from(orderedFlags(s), (f) => f.key);
    expect(keys(paged)).toEqual(keys(whole));
    // The tie (created first) sorts by key; the rest by creation time, which is reverse key order.
    expect(keys(whole).slice(0, 13)).toEqual([...KEYS.slice(5, 15), 'f-22', 'f-21', 'f-20']);
  });
});

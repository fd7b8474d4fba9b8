/**
 * List paging (facts §5): `limit` + `nextPageToken` walks and the deprecated `offset`, for flags (250 of them),
 * segments, rules, rollouts and namespaces; totalCount, the empty last token and the paging errors.
 */
import { Api, createFlag, createNamespace, createSegment, expectError, expectInvalidNaming, inParallel, N, ok, useFlagpole } from './support';

/** Follows nextPageToken from the first page to the last; returns every page. */
async function walk(api: Api, path: string, field: string, limit: number, extra = ''): Promise<Array<{ items: any[]; token: string; total: number }>> {
  const pages: Array<{ items: any[]; token: string; total: number }> = [];
  let token = '';
  do {
    const sep = path.includes('?') ? '&' : '?';
    const body = ok(await api.get(`${path}${sep}limit=${limit}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}${extra}`));
    pages.push({ items: body[field], token: body.nextPageToken, total: body.totalCount });
    token = body.nextPageToken;
    if (pages.length > 1000) throw new Error('nextPageToken never ends');
  } while (token !== '');
  return pages;
}

const keys = (items: Array<{ key: string }>) => items.map((i) => i.key);
const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

describe('pagination', () => {
  const ctx = useFlagpole();

  describe('250 flags', () => {
    const flags = `${N('default')}/flags`;
    let expected: string[];

    beforeAll(async () => {
      const created = await inParallel(Array.from({ length: 250 }, (_, i) => `flag-${String(i).padStart(3, '0')}`), 10, (key) =>
        createFlag(ctx.api, 'default', key));
      // Creation order is the order the server stamped them in.
      const sorted = [...created].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
      expect(new Set(created.map((f) => f.createdAt)).size).toBe(250);
      expected = keys(sorted);
    });

    it('without a limit, one page holds all 250 in creation order', async () => {
      const body = ok(await ctx.api.get(flags));
      expect(keys(body.flags)).toEqual(expected);
      expect(body).toMatchObject({ nextPageToken: '', totalCount: 250 });
    });

    it('walks pages of 25 by nextPageToken: no gaps, no repeats, creation order, totalCount 250, last token ""', async () => {
      const pages = await walk(ctx.api, flags, 'flags', 25);
      expect(pages.map((p) => p.items.length)).toEqual(Array(10).fill(25));
      expect(pages.map((p) => p.total)).toEqual(Array(10).fill(250));
      expect(pages.slice(0, -1).every((p) => p.token !== '')).toBe(true);
      expect(pages[pages.length - 1].token).toBe('');
      expect(pages.flatMap((p) => keys(p.items))).toEqual(expected);
    });

    it('walks uneven pages of 7 (the last one holds 5)', async () => {
      const pages = await walk(ctx.api, flags, 'flags', 7);
      expect(pages).toHaveLength(36);
      expect(pages[35].items).toHaveLength(5);
      expect(pages.flatMap((p) => keys(p.items))).toEqual(expected);
    });

    it('walks by the deprecated offset', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 250; offset += 40) {
        const body = ok(await ctx.api.get(`${flags}?limit=40&offset=${offset}`));
        expect(body.totalCount).toBe(250);
        expect(body.nextPageToken === '').toBe(offset + 40 >= 250);
        seen.push(...keys(body.flags));
      }
      expect(seen).toEqual(expected);
    });

    it('a token continues where it says, whatever the offset (pageToken overrides offset)', async () => {
      const first = ok(await ctx.api.get(`${flags}?limit=20`));
      const second = ok(await ctx.api.get(`${flags}?limit=20&offset=200&pageToken=${encodeURIComponent(first.nextPageToken)}`));
      expect(keys(second.flags)).toEqual(expected.slice(20, 40));
      // An offset-based page hands out a token that continues after it.
      const fromOffset = ok(await ctx.api.get(`${flags}?limit=10&offset=100`));
      expect(keys(fromOffset.flags)).toEqual(expected.slice(100, 110));
      const next = ok(await ctx.api.get(`${flags}?limit=10&pageToken=${encodeURIComponent(fromOffset.nextPageToken)}`));
      expect(keys(next.flags)).toEqual(expected.slice(110, 120));
    });

    it('limit equal to or above the total: one page, empty token', async () => {
      for (const limit of [250, 1000]) {
        const body = ok(await ctx.api.get(`${flags}?limit=${limit}`));
        expect(body.flags).toHaveLength(250);
        expect(body.nextPageToken).toBe('');
      }
      const last = ok(await ctx.api.get(`${flags}?limit=10&offset=245`));
      expect(keys(last.flags)).toEqual(expected.slice(245));
      expect(last.nextPageToken).toBe('');
      const beyond = ok(await ctx.api.get(`${flags}?limit=10&offset=300`));
      expect(beyond).toEqual({ flags: [], nextPageToken: '', totalCount: 250 });
    });

    it('accepts the snake_case page_token query name', async () => {
      const first = ok(await ctx.api.get(`${flags}?limit=5`));
      const second = ok(await ctx.api.get(`${flags}?limit=5&page_token=${encodeURIComponent(first.nextPageToken)}`));
      expect(keys(second.flags)).toEqual(expected.slice(5, 10));
    });

    it('totalCount counts only the namespace\'s flags', async () => {
      await createNamespace(ctx.api, 'other');
      await createFlag(ctx.api, 'other', 'lonely');
      expect(ok(await ctx.api.get(`${N('other')}/flags?limit=1`))).toMatchObject({ totalCount: 1, nextPageToken: '' });
      expect(ok(await ctx.api.get(`${flags}?limit=1`)).totalCount).toBe(250);
    });
  });

  describe('segments', () => {
    const segments = `${N('segs')}/segments`;
    let expected: string[];

    beforeAll(async () => {
      await createNamespace(ctx.api, 'segs');
      const created = await inParallel(Array.from({ length: 53 }, (_, i) => `seg-${i}`), 10, (key) => createSegment(ctx.api, 'segs', key));
      expected = keys([...created].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)));
    });

    it('53 segments in pages of 10: 10,10,10,10,10,3', async () => {
      const pages = await walk(ctx.api, segments, 'segments', 10);
      expect(pages.map((p) => p.items.length)).toEqual([10, 10, 10, 10, 10, 3]);
      expect(pages.map((p) => p.total)).toEqual(Array(6).fill(53));
      expect(pages[5].token).toBe('');
      expect(pages.flatMap((p) => keys(p.items))).toEqual(expected);
    });

    it('by offset', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 53; offset += 20) seen.push(...keys(ok(await ctx.api.get(`${segments}?limit=20&offset=${offset}`)).segments));
      expect(seen).toEqual(expected);
    });
  });

  describe('rules', () => {
    const rules = `${N('default')}/flags/ruled/rules`;
    let expected: string[];

    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'ruled');
      await createSegment(ctx.api, 'default', 'everyone');
      // Ranks, not creation, order rules: create them concurrently with ranks 1..50.
      const created = await inParallel(Array.from({ length: 50 }, (_, i) => i + 1), 10, async (rank) =>
        ok(await ctx.api.post(rules, { segmentKey: 'everyone', rank })));
      expected = ids(created);
    });

    it('50 rules in pages of 10: five pages by rank, last token empty', async () => {
      const pages = await walk(ctx.api, rules, 'rules', 10);
      expect(pages.map((p) => p.items.length)).toEqual([10, 10, 10, 10, 10]);
      expect(pages.map((p) => p.total)).toEqual(Array(5).fill(50));
      expect(pages[4].token).toBe('');
      expect(pages.flatMap((p) => ids(p.items))).toEqual(expected);
      expect(pages.flatMap((p) => p.items.map((r: { rank: number }) => r.rank))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('by offset', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 50; offset += 15) seen.push(...ids(ok(await ctx.api.get(`${rules}?limit=15&offset=${offset}`)).rules));
      expect(seen).toEqual(expected);
    });
  });

  describe('rollouts', () => {
    const rollouts = `${N('default')}/flags/rolled/rollouts`;
    let expected: string[];

    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'rolled', { type: 'BOOLEAN_FLAG_TYPE' });
      const created = [];
      for (const rank of [1, 2, 3, 4, 5]) created.push(ok(await ctx.api.post(rollouts, { rank, threshold: { percentage: rank * 10 } })));
      expected = ids(created);
    });

    it('5 rollouts in pages of 2: 2,2,1', async () => {
      const pages = await walk(ctx.api, rollouts, 'rules', 2);
      expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
      expect(pages.map((p) => p.total)).toEqual([5, 5, 5]);
      expect(pages[2].token).toBe('');
      expect(pages.flatMap((p) => ids(p.items))).toEqual(expected);
    });

    it('ignore offset', async () => {
      const body = ok(await ctx.api.get(`${rollouts}?limit=2&offset=2`));
      expect(ids(body.rules)).toEqual(expected.slice(0, 2));
      expect(ids(ok(await ctx.api.get(`${rollouts}?offset=3`)).rules)).toEqual(expected);
    });
  });

  describe('namespaces', () => {
    it('walk in creation order', async () => {
      for (const key of ['ns-a', 'ns-b', 'ns-c']) await createNamespace(ctx.api, key);
      const all = keys(ok(await ctx.api.get('/api/v1/namespaces')).namespaces);
      expect(all).toEqual(['default', 'other', 'segs', 'ns-a', 'ns-b', 'ns-c']);
      const pages = await walk(ctx.api, '/api/v1/namespaces', 'namespaces', 4);
      expect(pages.map((p) => p.items.length)).toEqual([4, 2]);
      expect(pages.map((p) => p.total)).toEqual([6, 6]);
      expect(pages.flatMap((p) => keys(p.items))).toEqual(all);
      const byOffset = ok(await ctx.api.get('/api/v1/namespaces?limit=2&offset=2'));
      expect(keys(byOffset.namespaces)).toEqual(all.slice(2, 4));
    });
  });

  describe('a list read while rows are written', () => {
    // The page and its totalCount are two statements; a write committed between them must not make them disagree
    // (on PostgreSQL each statement of a READ COMMITTED read sees the latest commit).
    it('every one-page list holds exactly the rows it counts', async () => {
      await createNamespace(ctx.api, 'busy');
      let writing = true;
      const writes = inParallel(Array.from({ length: 120 }, (_, i) => `w-${i}`), 4, (key) => createFlag(ctx.api, 'busy', key))
        .finally(() => { writing = false; });
      const seen: Array<{ listed: number; counted: number }> = [];
      const readers = Array.from({ length: 3 }, async () => {
        while (writing) {
          const body = ok(await ctx.api.get(`${N('busy')}/flags`));
          seen.push({ listed: body.flags.length, counted: body.totalCount });
        }
      });
      await Promise.all([writes, ...readers]);
      expect(seen.length).toBeGreaterThan(20);
      expect(seen.filter((s) => s.listed !== s.counted)).toEqual([]);
      expect(ok(await ctx.api.get(`${N('busy')}/flags`)).totalCount).toBe(120);
    });
  });

  describe('errors', () => {
    const lists = [
      `${N('default')}/flags`, `${N('default')}/segments`, `${N('default')}/flags/ruled/rules`, `${N('default')}/flags/rolled/rollouts`,
      '/api/v1/namespaces', '/api/v1/flags', '/api/v1/segments', '/api/v1/flags/ruled/rules',
    ];

    it.each(lists)('%s: an invalid page token is 400 quoting it', async (path) => {
      expectError(await ctx.api.get(`${path}?limit=10&pageToken=Hello%20World`), 400, 3, 'pageToken is not valid: "Hello World"');
      // Valid base64 of something that is not the token's JSON.
      const notJson = Buffer.from('not json').toString('base64');
      expectError(await ctx.api.get(`${path}?limit=10&pageToken=${encodeURIComponent(notJson)}`), 400, 3, `pageToken is not valid: "${notJson}"`);
    });

    it.each([`${N('default')}/flags`, `${N('segs')}/segments`, `${N('default')}/flags/ruled/rules`])(
      '%s: offset or pageToken without a limit is refused', async (path) => {
        expectError(await ctx.api.get(`${path}?offset=5`), 400, 3, 'limit must be set when offset or pageToken is set');
        const token = ok(await ctx.api.get(`${path}?limit=1`)).nextPageToken;
        expectError(await ctx.api.get(`${path}?pageToken=${encodeURIComponent(token)}`), 400, 3, 'limit must be set when offset or pageToken is set');
        expectError(await ctx.api.get(`${path}?limit=0&offset=5`), 400, 3, 'limit must be set when offset or pageToken is set');
      },
    );

    it.each(lists)('%s: a negative limit or offset is 400 naming the field, never 500', async (path) => {
      expectInvalidNaming(await ctx.api.get(`${path}?limit=-1`), 'limit');
      if (path.endsWith('/rollouts')) {
        // ListRollouts has no offset field: the parameter is ignored like any unknown one.
        expect(ok(await ctx.api.get(`${path}?limit=10&offset=-5`)).rules).toHaveLength(5);
      } else {
        expectInvalidNaming(await ctx.api.get(`${path}?limit=10&offset=-5`), 'offset');
      }
    });

    it.each(lists)('%s: a limit that is not a number is 400', async (path) => {
      for (const limit of ['abc', '1.5', '99999999999']) {
        const r = await ctx.api.get(`${path}?limit=${limit}`);
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
      }
    });
  });
});

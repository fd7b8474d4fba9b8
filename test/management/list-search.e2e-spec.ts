/**
 * Flagpole's additions to the flag and segment lists (docs/api.md, "Searching and sorting lists"): `search` (key, name
 * or description contains the text, in any case; LIKE's wildcards are plain characters), `sort` (key, name,
 * createdAt, updatedAt, `-` for descending, names in any case), and for flags `type` and `enabled`; totalCount and
 * page tokens follow the filtered, sorted list. On every dialect: each compares text its own way, and the query is
 * written once for all of them.
 */
import { Api, createNamespace, expectInvalidNaming, inParallel, N, ok, useFlagpole } from './support';

const keys = (items: Array<{ key: string }>) => items.map((i) => i.key);

/** Every key of the list at `path`, walked in pages of `limit`; also the totalCount each page gave. */
async function walk(api: Api, path: string, field: string, limit: number): Promise<{ keys: string[]; totals: number[] }> {
  const out = { keys: [] as string[], totals: [] as number[] };
  let token = '';
  do {
    const body = ok(await api.get(`${path}&limit=${limit}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`));
    out.keys.push(...keys(body[field]));
    out.totals.push(body.totalCount);
    token = body.nextPageToken;
  } while (token !== '' && out.totals.length < 100);
  return out;
}

describe('searching, filtering and sorting the flag and segment lists', () => {
  const ctx = useFlagpole();
  const flags = `${N('shop')}/flags`;
  const segments = `${N('shop')}/segments`;

  // Created in this order, which is the creation order the lists fall back to.
  const FLAGS = [
    { key: 'checkout-v2', name: 'New Checkout', description: 'Payment page', type: 'VARIANT_FLAG_TYPE', enabled: true },
    { key: 'dark-mode', name: 'dark mode', description: 'UI theme', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
    { key: 'beta_banner', name: 'Banner', description: '100% of beta users', type: 'BOOLEAN_FLAG_TYPE', enabled: false },
    { key: 'Search-Box', name: 'search box', description: 'Checkout search', type: 'VARIANT_FLAG_TYPE', enabled: false },
    { key: 'zebra', name: 'Zebra', description: 'stripes', type: 'VARIANT_FLAG_TYPE', enabled: true },
  ];

  beforeAll(async () => {
    await createNamespace(ctx.api, 'shop');
    for (const f of FLAGS) ok(await ctx.api.post(flags, f));
    for (const s of [
      { key: 'beta-users', name: 'Beta testers', matchType: 'ANY_MATCH_TYPE' },
      { key: 'staff', name: 'Employees', description: 'everyone on the payroll', matchType: 'ALL_MATCH_TYPE' },
    ]) ok(await ctx.api.post(segments, s));
    // dark-mode changes last: it sorts last by updatedAt.
    ok(await ctx.api.put(`${flags}/dark-mode`, { name: 'dark mode', description: 'UI theme', enabled: true }));
  });

  it('without the additions, lists as Flipt does: creation order, everything', async () => {
    const body = ok(await ctx.api.get(flags));
    expect(keys(body.flags)).toEqual(FLAGS.map((f) => f.key));
    expect(body.totalCount).toBe(5);
  });

  it('searches key, name and description in any case, and counts what it found', async () => {
    const search = async (text: string) => {
      const body = ok(await ctx.api.get(`${flags}?search=${encodeURIComponent(text)}`));
      return { keys: keys(body.flags), total: body.totalCount };
    };
    // "checkout" is in one key (checkout-v2), one name (New Checkout: same flag) and one description (Search-Box).
    expect(await search('CHECKOUT')).toEqual({ keys: ['checkout-v2', 'Search-Box'], total: 2 });
    expect(await search('search')).toEqual({ keys: ['Search-Box'], total: 1 });
    expect(await search('  theme ')).toEqual({ keys: ['dark-mode'], total: 1 });
    expect(await search('nothing like it')).toEqual({ keys: [], total: 0 });
    // LIKE's wildcards and the escape character are plain text: "_" is not "any character", "%" not "anything".
    expect(await search('_')).toEqual({ keys: ['beta_banner'], total: 1 });
    expect(await search('100%')).toEqual({ keys: ['beta_banner'], total: 1 });
    expect(await search('%')).toEqual({ keys: ['beta_banner'], total: 1 });
    expect(await search('!')).toEqual({ keys: [], total: 0 });
    // A blank search is no search.
    expect((await search('   ')).total).toBe(5);
  });

  it('filters flags by type and by enabled, with search, and pages through the result', async () => {
    const get = async (query: string) => keys(ok(await ctx.api.get(`${flags}?${query}`)).flags);
    expect(await get('type=BOOLEAN_FLAG_TYPE')).toEqual(['dark-mode', 'beta_banner']);
    expect(await get('type=1&enabled=false')).toEqual(['beta_banner']);
    expect(await get('enabled=true')).toEqual(['checkout-v2', 'dark-mode', 'zebra']);
    expect(await get('type=VARIANT_FLAG_TYPE&search=s')).toEqual(['Search-Box', 'zebra']);
    const paged = await walk(ctx.api, `${flags}?enabled=true&sort=-key`, 'flags', 2);
    expect(paged).toEqual({ keys: ['zebra', 'dark-mode', 'checkout-v2'], totals: [3, 3] });
  });

  it('sorts by key and name in any case, and by creation and last change, either way', async () => {
    const sorted = async (sort: string) => keys(ok(await ctx.api.get(`${flags}?sort=${sort}`)).flags);
    expect(await sorted('key')).toEqual(['beta_banner', 'checkout-v2', 'dark-mode', 'Search-Box', 'zebra']);
    expect(await sorted('-key')).toEqual(['zebra', 'Search-Box', 'dark-mode', 'checkout-v2', 'beta_banner']);
    expect(await sorted('name')).toEqual(['beta_banner', 'dark-mode', 'checkout-v2', 'Search-Box', 'zebra']);
    expect(await sorted('createdAt')).toEqual(FLAGS.map((f) => f.key));
    expect(await sorted('-createdAt')).toEqual(FLAGS.map((f) => f.key).reverse());
    expect((await sorted('-updatedAt'))[0]).toBe('dark-mode');
    // Pages of a sorted list join up: no gaps, no repeats.
    expect((await walk(ctx.api, `${flags}?sort=name`, 'flags', 2)).keys).toEqual(await sorted('name'));
  });

  it('searches and sorts segments the same way', async () => {
    const get = async (query: string) => keys(ok(await ctx.api.get(`${segments}?${query}`)).segments);
    expect(await get('search=employ')).toEqual(['staff']);
    expect(await get('search=PAYROLL')).toEqual(['staff']);
    expect(await get('search=beta')).toEqual(['beta-users']);
    expect(await get('sort=-key')).toEqual(['staff', 'beta-users']);
  });

  it('refuses a sort it does not know, a type that is none, and a search too long to be one, naming the field', async () => {
    expectInvalidNaming(await ctx.api.get(`${flags}?sort=color`), 'sort');
    expectInvalidNaming(await ctx.api.get(`${flags}?sort=--key`), 'sort');
    expectInvalidNaming(await ctx.api.get(`${flags}?type=PINK_FLAG_TYPE`), 'type');
    expectInvalidNaming(await ctx.api.get(`${flags}?enabled=maybe`), 'enabled');
    expectInvalidNaming(await ctx.api.get(`${segments}?search=${'x'.repeat(201)}`), 'search');
  });

  it('keeps a quote or a backslash in the search as text, never as SQL', async () => {
    const made = await inParallel(["o'brien", 'back\\slash'], 2, async (name, i) =>
      ok(await ctx.api.post(flags, { key: `odd-${i}`, name })));
    expect(made).toHaveLength(2);
    expect(keys(ok(await ctx.api.get(`${flags}?search=${encodeURIComponent("o'b")}`)).flags)).toEqual(['odd-0']);
    expect(keys(ok(await ctx.api.get(`${flags}?search=${encodeURIComponent('k\\s')}`)).flags)).toEqual(['odd-1']);
  });
});

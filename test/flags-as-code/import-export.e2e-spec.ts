/**
 * Export and import in Flipt's document format over HTTP, against a real database (every dialect):
 * `GET /api/v1/namespaces/{key}/export` and `POST /api/v1/namespaces/{key}/import`. Golden documents of every
 * version (test/flags-as-code/fixtures, written from the format's facts), what the import creates as the API shows
 * it, refusals naming the place in the document with nothing written, skipExisting, drop, and limits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http } from '../support/flagpole';
import { N, ok, useFlagpole, type Api } from '../management/support';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const YAML = { 'content-type': 'application/yaml' };

describe('flags as code: import and export over HTTP', () => {
  const ctx = useFlagpole({ FLAGPOLE_LIMITS_MAX_IMPORT_BYTES: String(256 * 1024) });
  const importDoc = (ns: string, text: string, query = '', headers: Record<string, string> = YAML) =>
    http(ctx.fp.url, 'POST', `${N(ns)}/import${query}`, text, headers);
  const exportDoc = (ns: string, query = '') => http(ctx.fp.url, 'GET', `${N(ns)}/export${query}`);

  it('imports a version 1.4 document with every field, as the API then shows it', async () => {
    const summary = ok(await importDoc('staging', fixture('v1.4-complete.yml')));
    expect(summary).toEqual({
      namespaceKey: 'staging', namespaceCreated: true, flagsCreated: 3, flagsSkipped: 0, flagsDeleted: 0,
      segmentsCreated: 2, segmentsSkipped: 0, segmentsDeleted: 0,
    });
    const api = ctx.api;
    expect(ok(await api.get(N('staging')))).toMatchObject({ key: 'staging', name: 'Staging', description: 'pre-production' });

    const checkout = ok(await api.get(`${N('staging')}/flags/checkout`));
    expect(checkout).toMatchObject({
      key: 'checkout', name: 'Checkout', type: 'VARIANT_FLAG_TYPE', enabled: true, description: 'which checkout the customer sees',
      metadata: { team: 'payments', ticket: 1234 },
    });
    expect(checkout.variants.map((v: any) => [v.key, v.name, v.description, v.attachment])).toEqual([
      ['classic', 'Classic', '', ''],
      // Keys sorted, as Flipt's importer stores attachments.
      ['express', 'Express', 'one page', '{"colors":["red","green"],"nested":{"none":null,"ok":true},"steps":1}'],
    ]);
    expect(checkout.defaultVariant?.key).toBe('express');

    const rules = ok(await api.get(`${N('staging')}/flags/checkout/rules`)).rules;
    const variantKey = (id: string) => checkout.variants.find((v: any) => v.id === id).key;
    expect(rules.map((r: any) => ({
      rank: r.rank, segmentKey: r.segmentKey, segmentKeys: r.segmentKeys, op: r.segmentOperator,
      d: r.distributions.map((d: any) => [variantKey(d.variantId), d.rollout]),
    }))).toEqual([
      { rank: 1, segmentKey: 'beta-users', segmentKeys: [], op: 'OR_SEGMENT_OPERATOR', d: [['express', 100]] },
      { rank: 2, segmentKey: '', segmentKeys: ['beta-users', 'europe'], op: 'AND_SEGMENT_OPERATOR', d: [['classic', 30], ['express', 70]] },
      { rank: 3, segmentKey: 'europe', segmentKeys: [], op: 'OR_SEGMENT_OPERATOR', d: [] },
    ]);

    const rollouts = ok(await api.get(`${N('staging')}/flags/dark-mode/rollouts`)).rules;
    expect(rollouts.map((r: any) => [r.rank, r.type, r.description, r.segment ?? r.threshold])).toEqual([
      [1, 'SEGMENT_ROLLOUT_TYPE', 'staff first', expect.objectContaining({ segmentKey: 'beta-users', value: true })],
      [2, 'SEGMENT_ROLLOUT_TYPE', '', expect.objectContaining({ segmentKeys: ['beta-users', 'europe'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false })],
      [3, 'THRESHOLD_ROLLOUT_TYPE', 'half of everyone else', { percentage: 50, value: true }],
    ]);

    const europe = ok(await api.get(`${N('staging')}/segments/europe`));
    expect(europe.matchType).toBe('ANY_MATCH_TYPE');
    expect(europe.constraints.map((c: any) => [c.type, c.property, c.operator, c.value])).toEqual([
      ['STRING_COMPARISON_TYPE', 'region', 'prefix', 'eu-'],
      ['NUMBER_COMPARISON_TYPE', 'age', 'gte', '18'],
      ['DATETIME_COMPARISON_TYPE', 'signup', 'lt', '2025-01-01T00:00:00Z'],
    ]);
    const beta = ok(await api.get(`${N('staging')}/segments/beta-users`));
    expect(beta.constraints[0]).toMatchObject({ description: 'paying plans', value: '["pro","team"]' });
  });

  it('records the import in the audit trail as one namespace event with what it did', async () => {
    let events: any[] = [];
    for (let i = 0; i < 50 && events.length === 0; i++) {
      events = ok(await ctx.api.get('/api/v1/audit/events?namespaceKey=staging&type=namespace')).events;
      if (events.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'namespace', action: 'updated', status: 'success',
      payload: { key: 'staging', import: { namespace_created: true, flags_created: 3, segments_created: 2, flags_skipped: 0, flags_deleted: 0 } },
    });
  });

  it('evaluates what it imported at once', async () => {
    const ctxBody = { namespaceKey: 'staging', flagKey: 'checkout', entityId: 'u1', context: { plan: 'pro', beta: 'true', region: 'us' } };
    const variant = ok(await ctx.api.post('/evaluate/v1/variant', ctxBody));
    expect(variant).toMatchObject({ match: true, variantKey: 'express', segmentKeys: ['beta-users'] });
    const boolean = ok(await ctx.api.post('/evaluate/v1/boolean', { ...ctxBody, flagKey: 'dark-mode' }));
    expect(boolean).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON' });
  });

  it('exports the namespace as Flipt writes it: field order, omitted empty fields, attachments as values', async () => {
    const res = await exportDoc('staging');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="staging.features.yml"');
    expect(res.text).toBe(`version: "1.4"
namespace:
  key: staging
  name: Staging
  description: pre-production
flags:
- key: checkout
  name: Checkout
  type: VARIANT_FLAG_TYPE
  description: which checkout the customer sees
  enabled: true
  metadata:
    team: payments
    ticket: 1234
  variants:
  - key: classic
    name: Classic
  - default: true
    key: express
    name: Express
    description: one page
    attachment:
      colors:
      - red
      - green
      nested:
        none: null
        ok: true
      steps: 1
  rules:
  - segment: beta-users
    distributions:
    - variant: express
      rollout: 100
  - segment:
      keys:
      - beta-users
      - europe
      operator: AND_SEGMENT_OPERATOR
    distributions:
    - variant: classic
      rollout: 30
    - variant: express
      rollout: 70
  - segment: europe
- key: dark-mode
  name: Dark mode
  type: BOOLEAN_FLAG_TYPE
  enabled: true
  rollouts:
  - description: staff first
    segment:
      key: beta-users
      value: true
  - segment:
      keys:
      - beta-users
      - europe
      operator: AND_SEGMENT_OPERATOR
  - description: half of everyone else
    threshold:
      percentage: 50
      value: true
- key: empty-flag
  name: Nothing yet
  type: VARIANT_FLAG_TYPE
  enabled: false
segments:
- key: beta-users
  name: Beta users
  description: opted in
  constraints:
  - type: STRING_COMPARISON_TYPE
    property: plan
    operator: isoneof
    value: '["pro","team"]'
    description: paying plans
  - type: BOOLEAN_COMPARISON_TYPE
    property: beta
    operator: "true"
  match_type: ALL_MATCH_TYPE
- key: europe
  name: Europe
  constraints:
  - type: STRING_COMPARISON_TYPE
    property: region
    operator: prefix
    value: eu-
  - type: NUMBER_COMPARISON_TYPE
    property: age
    operator: gte
    value: "18"
  - type: DATETIME_COMPARISON_TYPE
    property: signup
    operator: lt
    value: 2025-01-01T00:00:00Z
  match_type: ANY_MATCH_TYPE
`);
  });

  it('exports JSON as one compact object per document, and sorts by key on request', async () => {
    const res = await exportDoc('staging', '?format=json&sortByKey=true');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.text.endsWith('}\n')).toBe(true);
    expect(res.text.trim().split('\n')).toHaveLength(1);
    const doc = JSON.parse(res.text);
    expect(doc.version).toBe('1.4');
    expect(doc.flags.map((f: any) => f.key)).toEqual(['checkout', 'dark-mode', 'empty-flag']);
    expect(doc.segments.map((s: any) => s.key)).toEqual(['beta-users', 'europe']);
    expect((await exportDoc('staging', '?format=xml')).status).toBe(400);
    expect((await exportDoc('nowhere')).status).toBe(404);
  });

  it('round-trips: what it exported imports into another namespace and exports the same', async () => {
    const first = (await exportDoc('staging')).text;
    const moved = first.replace('key: staging', 'key: copy');
    ok(await importDoc('copy', moved));
    expect((await exportDoc('copy')).text).toBe(moved);
  });

  it('reads every document version 1.0 to 1.3, each gated as Flipt gates it', async () => {
    for (const v of ['1.0', '1.1', '1.2', '1.3']) ok(await importDoc('legacy', fixture(`v${v}.yml`), '?skipExisting=true'));
    const flags = ok(await ctx.api.get(`${N('legacy')}/flags`)).flags;
    expect(flags.map((f: any) => [f.key, f.type])).toEqual([
      // The API lists flags created together (one import) by key; the export keeps the document's order.
      ['banner', 'VARIANT_FLAG_TYPE'], ['layout', 'VARIANT_FLAG_TYPE'], ['search', 'BOOLEAN_FLAG_TYPE'],
      ['promo', 'BOOLEAN_FLAG_TYPE'], ['pricing', 'VARIANT_FLAG_TYPE'],
    ]);
    // 1.0 attachments written as strings are JSON strings, as Flipt imports them.
    const banner = ok(await ctx.api.get(`${N('legacy')}/flags/banner`));
    expect(banner.variants[0].attachment).toBe(JSON.stringify('{"hex":"#00f"}'));
    expect(ok(await ctx.api.get(`${N('legacy')}/flags/pricing`)).defaultVariant.key).toBe('dear');
    // `everyone` came with 1.0 and was skipped by the later documents.
    expect(ok(await ctx.api.get(`${N('legacy')}/segments`)).segments.map((s: any) => s.key)).toEqual(['everyone', 'vip']);
  });

  it('reads a Flipt JSON export: a header line, two namespaces one object per line, nested metadata', async () => {
    const text = fixture('flipt-export-stream.json');
    // One namespace per request: the second document is for `foo`.
    const refused = await importDoc('default', text, '', { 'content-type': 'application/json' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('document 2, line 4, column 1');
    expect(refused.body.message).toContain('the document is for namespace "foo", not "default"');
    const [defaultDoc, fooDoc] = text.split('\n').filter((l) => l.startsWith('{'));
    ok(await importDoc('default', `# exported by Flipt\n${defaultDoc}\n`, '', { 'content-type': 'application/json' }));
    ok(await importDoc('foo', fooDoc, '', { 'content-type': 'application/json' }));
    expect(ok(await ctx.api.get(`${N('default')}/flags/flag1`)).metadata).toEqual({ args: { name: 'value' } });
    expect(ok(await ctx.api.get(`${N('foo')}/flags/flag2/rollouts`)).rules[0].threshold).toEqual({ percentage: 50, value: false });
  });

  describe('refuses an invalid document with 400 naming the place, and writes nothing', () => {
    const base = fixture('v1.4-complete.yml').replace('key: staging', 'key: refused');
    const cases: Array<[string, string, string]> = [
      ['a field newer than the version', base.replace('version: "1.4"', 'version: "1.2"'),
        'line 4, column 3, namespace: namespace (as key, name and description) is supported in version >=1.4, found 1.2'],
      ['flag.type in 1.0', fixture('v1.1.yml').replace('"1.1"', '"1.0"').replace('namespace: legacy', 'namespace: refused'),
        'line 6, column 9, flags[0].type: flag.type is supported in version >=1.1, found 1.0'],
      ['an unsupported version', 'version: "5.0"\nnamespace: refused\n', 'line 1, column 10, version: unsupported version: 5.0'],
      ['an unknown variant in a distribution', base.replace('    - variant: express\n      rollout: 100', '    - variant: turbo\n      rollout: 100'),
        'line 30, column 16, flags[0].rules[0].distributions[0].variant: flag "checkout" has no variant "turbo"'],
      ['a duplicate flag key', base.replace('key: empty-flag', 'key: checkout'),
        'line 59, column 3, flags[2]: flag "checkout" is defined twice (first at line 8, column 3, flags[0])'],
      ['a duplicate variant key', base.replace('key: classic', 'key: express'), 'flags[0].variants[1]: variant "express" is defined twice'],
      ['a bad operator', base.replace('operator: prefix', 'operator: startswith'),
        'segments[1].constraints[0]: constraint operator "startswith" is not valid for type string'],
      ['an unknown enum name', base.replace('match_type: ANY_MATCH_TYPE', 'match_type: SOME_MATCH_TYPE'),
        'segments[1].match_type: "SOME_MATCH_TYPE" is not one of ALL_MATCH_TYPE, ANY_MATCH_TYPE'],
      ['an unknown field', base.replace('    - variant: classic\n      rollout: 30', '    - variant: classic\n      weight: 30'),
        'flags[0].rules[1].distributions[0]: unknown field "weight"; expected one of variant, rollout'],
      ['a segment nobody defines', base.replace('keys: [europe]', 'keys: [asia]'),
        'flags[0].rules[2]: segment "asia" is neither in the document nor in namespace "refused"'],
      ['a key with invalid characters', base.replace('key: dark-mode', 'key: dark mode'), 'flags[1].key: contains invalid characters'],
      ['a flag without a name', base.replace('  name: Nothing yet\n', ''), 'flags[2]: name must not be empty'],
      ['a rollout percentage over 100', base.replace('percentage: 50', 'percentage: 150'), 'threshold.percentage: must be within range [0, 100]'],
      ['YAML that does not parse', 'flags: [ {key: a', 'line 1, column'],
      ['not a mapping', '- just\n- a list\n', 'must be a mapping'],
    ];
    it.each(cases)('%s', async (_name, text, message) => {
      const res = await importDoc('refused', text);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 3 });
      expect(res.body.message).toContain(message);
      expect((await ctx.api.get(N('refused'))).status).toBe(404);
    });
  });

  it('leaves existing keys alone with skipExisting, and refuses them without it, writing nothing', async () => {
    const api: Api = ctx.api;
    ok(await api.post('/api/v1/namespaces', { key: 'skip', name: 'Skip' }));
    ok(await api.post(`${N('skip')}/flags`, { key: 'checkout', name: 'Mine', enabled: false }));
    const doc = fixture('v1.4-complete.yml').replace('key: staging', 'key: skip');
    const refused = await importDoc('skip', doc);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('request body: line 8, column 3, flags[0]: flag "skip/checkout" already exists (import with skipExisting to keep it, or drop to replace the namespace\'s flags and segments)');
    expect(ok(await api.get(`${N('skip')}/flags`)).flags).toHaveLength(1);
    expect(ok(await api.get(`${N('skip')}/segments`)).segments).toHaveLength(0);

    const summary = ok(await importDoc('skip', doc, '?skipExisting=true'));
    expect(summary).toMatchObject({ namespaceCreated: false, flagsCreated: 2, flagsSkipped: 1, segmentsCreated: 2 });
    expect(ok(await api.get(`${N('skip')}/flags/checkout`))).toMatchObject({ name: 'Mine', variants: [] });
  });

  it('replaces the namespace with drop, in one transaction', async () => {
    const doc = fixture('v1.3.yml').replace('namespace: legacy', 'namespace: skip');
    const summary = ok(await importDoc('skip', doc, '?drop=true'));
    expect(summary).toMatchObject({ flagsDeleted: 3, segmentsDeleted: 2, flagsCreated: 1, segmentsCreated: 0 });
    expect(ok(await ctx.api.get(`${N('skip')}/flags`)).flags.map((f: any) => f.key)).toEqual(['pricing']);
    // A drop whose document is invalid deletes nothing.
    const bad = await importDoc('skip', `${doc}segments:\n- key: x\n`, '?drop=true');
    expect(bad.status).toBe(400);
    expect(ok(await ctx.api.get(`${N('skip')}/flags`)).flags.map((f: any) => f.key)).toEqual(['pricing']);
  });

  it('refuses a body over limits.max_import_bytes with 413, and hostile YAML with 400', async () => {
    const big = `namespace: big\nflags:\n${'- key: f\n  name: padding padding padding padding\n'.repeat(6000)}`;
    expect((await importDoc('big', big)).status).toBe(413);
    const bomb = `a: &a ["x","x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nflags:\n- key: f\n  name: f\n  metadata: {x: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]}\n`;
    const res = await importDoc('bomb', bomb);
    expect(res.status).toBe(400);
    const deep = `flags:\n- key: f\n  name: f\n  metadata: {x: ${'['.repeat(20000)}${']'.repeat(20000)}}\n`;
    const deepRes = await importDoc('deep', deep);
    expect(deepRes.status).toBe(400);
    expect((await importDoc('binary', '\u0000\u0001\u0002garbage')).status).toBe(400);
    expect((await ctx.api.get(N('bomb'))).status).toBe(404);
  });

  it('merges several documents about the namespace into one write: one transaction, one answer, one audit event', async () => {
    const two = 'flags:\n- {key: m1, name: M1}\n---\nflags:\n- {key: m2, name: M2}\nsegments:\n- {key: ms, name: MS}\n';
    expect(ok(await importDoc('merged', two))).toMatchObject({ namespaceCreated: true, flagsCreated: 2, segmentsCreated: 1 });
    let events: any[] = [];
    for (let i = 0; i < 50 && events.length === 0; i++) {
      events = ok(await ctx.api.get('/api/v1/audit/events?namespaceKey=merged&type=namespace')).events;
      if (events.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(events.map((e: any) => e.payload.import.flags_created)).toEqual([2]);

    // A key in two documents refuses them all, naming both places, and with drop deletes nothing.
    const clash = 'flags:\n- {key: m3, name: M3}\n---\nflags:\n- {key: m3, name: M3 again}\n';
    const refused = await importDoc('merged', clash, '?drop=true');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('request body: document 2, line 5, column 3, flags[0]: flag "merged/m3" is also defined at request body: line 2, column 3, flags[0]');
    expect(ok(await ctx.api.get(`${N('merged')}/flags`)).flags.map((f: any) => f.key)).toEqual(['m1', 'm2']);
  });

  it('keeps explicit rule ranks, in any order', async () => {
    const doc = 'flags:\n- key: ranked\n  name: Ranked\n  rules:\n  - {segment: a, rank: 2}\n  - {segment: b, rank: 1}\nsegments:\n- {key: a, name: A}\n- {key: b, name: B}\n';
    ok(await importDoc('ranks', doc));
    const rules = ok(await ctx.api.get(`${N('ranks')}/flags/ranked/rules`)).rules;
    expect(rules.map((r: any) => [r.segmentKey, r.rank])).toEqual([['b', 1], ['a', 2]]);
    // The export writes them in rank order (ranks are not written), so that the document reads back the same.
    expect((await exportDoc('ranks')).text).toContain('  rules:\n  - segment: b\n  - segment: a\n');
  });

  it('imports nothing from an empty body', async () => {
    expect(ok(await importDoc('default', ''))).toMatchObject({ namespaceKey: 'default', flagsCreated: 0 });
  });
});

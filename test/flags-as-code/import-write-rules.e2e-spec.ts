/**
 * An import is held to the API's write rules, on every dialect: text the databases cannot store as sent (NUL, an
 * unpaired UTF-16 surrogate) in any text field of the document (metadata and attachments are stored as JSON text, where
 * such characters are escapes, and are accepted, as through the API), and rule ranks beyond the API's int32, refuse the whole
 * import with a 400 naming the place, and nothing of it is written (the namespace exports as before, a namespace it
 * would have created does not exist).
 */
import { http } from '../support/flagpole';
import { N, ok, useFlagpole } from '../management/support';

const JSON_BODY = { 'content-type': 'application/json' };
const YAML_BODY = { 'content-type': 'application/yaml' };
const UNSTORABLE = 'must not contain NUL or unpaired surrogate characters';

/** A valid flag and segment come first: a refusal must not leave them written. */
const jsonDoc = (bad: Record<string, unknown>) => JSON.stringify({
  version: '1.4',
  flags: [{ key: 'good', name: 'Good' }, { key: 'bad', name: 'Bad', ...bad }],
  segments: [{ key: 'everyone', name: 'Everyone' }],
});
const yamlDoc = (badFlagLines: string) =>
  `version: "1.4"\nflags:\n- key: good\n  name: Good\n- key: bad\n${badFlagLines}segments:\n- key: everyone\n  name: Everyone\n`;

describe('flags as code: an import follows the API\'s write rules', () => {
  const ctx = useFlagpole();
  const importDoc = (ns: string, text: string, headers: Record<string, string>) => http(ctx.fp.url, 'POST', `${N(ns)}/import`, text, headers);
  const exportText = async (ns: string) => {
    const r = await http(ctx.fp.url, 'GET', `${N(ns)}/export?format=json`);
    expect(r.status).toBe(200);
    return r.text;
  };

  const cases: Array<[string, string, Record<string, string>, string, string]> = [
    // [what, document, content type, path named, reason]
    ['a NUL in a flag name (JSON)', jsonDoc({ name: 'a\u0000b' }), JSON_BODY, 'flags[1].name', UNSTORABLE],
    ['a NUL in a flag name (YAML)', yamlDoc('  name: "a\\0b"\n'), YAML_BODY, 'flags[1].name', UNSTORABLE],
    ['a lone surrogate in a description (JSON)', jsonDoc({ description: 'x\ud800' }), JSON_BODY, 'flags[1].description', UNSTORABLE],
    ['a lone surrogate in a description (YAML)', yamlDoc('  name: Bad\n  description: "\\udc00x"\n'), YAML_BODY, 'flags[1].description', UNSTORABLE],
    ['a NUL in a variant key', jsonDoc({ variants: [{ key: 'v\u0000' }] }), JSON_BODY, 'flags[1].variants[0].key', UNSTORABLE],
    ['a NUL in a constraint value', JSON.stringify({
      segments: [{ key: 'everyone', name: 'Everyone' }, { key: 's', name: 'S', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v\u0000' }] }],
    }), JSON_BODY, 'segments[1].constraints[0].value', UNSTORABLE],
    ['a lone surrogate in a namespace name', JSON.stringify({ namespace: { key: '{ns}', name: '\ud800' }, flags: [{ key: 'good', name: 'Good' }] }), JSON_BODY,
      'namespace.name', UNSTORABLE],
    ['a rule rank beyond int32', yamlDoc('  name: Bad\n  rules:\n  - {segment: everyone, rank: 9999999999}\n'), YAML_BODY, 'flags[1].rules[0].rank', 'out of range'],
    ['a rule rank of 1e300', jsonDoc({ rules: [{ segment: 'everyone', rank: 1e300 }] }), JSON_BODY, 'flags[1].rules[0].rank', 'out of range'],
  ];

  it.each(cases)('refuses %s with a 400 naming it, writing nothing', async (_what, doc, headers, path, reason) => {
    // Each case in namespaces of its own, so that one import written by mistake cannot hide another.
    const kept = `kept-${cases.findIndex((c) => c[1] === doc)}`;
    ok(await ctx.api.post('/api/v1/namespaces', { key: kept, name: kept }));
    ok(await ctx.api.post(`${N(kept)}/flags`, { key: 'existing', name: 'Existing' }));
    const before = await exportText(kept);
    const refused = await importDoc(kept, doc.replace('{ns}', kept), headers);
    expect({ status: refused.status, code: refused.body?.code, details: refused.body?.details }).toEqual({ status: 400, code: 3, details: [] });
    expect(refused.body.message).toContain(`${path}: `);
    expect(refused.body.message).toContain(reason);
    expect(await exportText(kept)).toBe(before);
    expect(ok(await ctx.api.get(`${N(kept)}/flags`)).flags.map((f: { key: string }) => f.key)).toEqual(['existing']);

    // Into a namespace that does not exist: it is not created either.
    const fresh = kept.replace('kept', 'fresh');
    expect((await importDoc(fresh, doc.replace('{ns}', fresh), headers)).status).toBe(400);
    expect((await ctx.api.get(N(fresh))).status).toBe(404);
  });

  it('still imports the largest rank the API takes, and text with paired surrogates and other control characters', async () => {
    const doc = jsonDoc({ name: 'Bad 😀 \u0001', rules: [{ segment: 'everyone', rank: 2147483647 }] });
    ok(await importDoc('accepted', doc, JSON_BODY));
    expect(ok(await ctx.api.get(`${N('accepted')}/flags/bad`)).name).toBe('Bad 😀 \u0001');
    expect(ok(await ctx.api.get(`${N('accepted')}/flags/bad/rules`)).rules.map((r: { rank: number }) => r.rank)).toEqual([2147483647]);
  });
});

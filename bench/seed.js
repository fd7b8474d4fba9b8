// Seeds the bench namespace through the public API: 100 flags (50 variant, 50 boolean), 10 segments with several
// constraints each, two rules per variant flag (33.3/33.3/33.4 distributions), a segment and a threshold rollout
// per boolean flag.
'use strict';

/** One API request; `init` adds fetch options (e.g. `signal: AbortSignal.timeout(ms)`). Throws unless 200. */
async function call(base, method, path, body, headers = {}, init = {}) {
  const res = await fetch(base + path, { ...init, method, headers: { ...headers, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function seed(base, ns = 'bench', headers = {}) {
  const api = (method, path, body) => call(base, method, path, body, headers);
  await api('POST', '/api/v1/namespaces', { key: ns, name: 'Bench' });
  const N = `/api/v1/namespaces/${ns}`;
  for (let s = 0; s < 10; s++) {
    await api('POST', `${N}/segments`, { key: `seg-${s}`, name: `Segment ${s}`, matchType: s % 2 ? 'ANY_MATCH_TYPE' : 'ALL_MATCH_TYPE' });
    const C = `${N}/segments/seg-${s}/constraints`;
    await api('POST', C, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: '["pro","enterprise","team"]' });
    await api('POST', C, { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: String(s) });
    await api('POST', C, { type: 'STRING_COMPARISON_TYPE', property: 'country', operator: 'neq', value: 'xx' });
  }
  for (let f = 0; f < 50; f++) {
    const key = `variant-${f}`;
    await api('POST', `${N}/flags`, { key, name: key, enabled: true });
    const ids = [];
    for (const v of ['a', 'b', 'c']) ids.push((await api('POST', `${N}/flags/${key}/variants`, { key: v, attachment: `{"v":"${v}"}` })).id);
    for (let r = 0; r < 2; r++) {
      const rule = await api('POST', `${N}/flags/${key}/rules`, { segmentKeys: [`seg-${(f + r) % 10}`, `seg-${(f + r + 1) % 10}`], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: r + 1 });
      for (const [i, rollout] of [33.3, 33.3, 33.4].entries()) {
        await api('POST', `${N}/flags/${key}/rules/${rule.id}/distributions`, { variantId: ids[i], rollout });
      }
    }
  }
  for (let f = 0; f < 50; f++) {
    const key = `boolean-${f}`;
    await api('POST', `${N}/flags`, { key, name: key, enabled: false, type: 'BOOLEAN_FLAG_TYPE' });
    await api('POST', `${N}/flags/${key}/rollouts`, { rank: 1, segment: { segmentKey: `seg-${f % 10}`, value: true } });
    await api('POST', `${N}/flags/${key}/rollouts`, { rank: 2, threshold: { percentage: 50, value: true } });
  }
}

module.exports = { seed, call };

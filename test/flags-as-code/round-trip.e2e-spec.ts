/**
 * The round trip on a namespace of thousands of entities (every dialect): part built through the API, most of it
 * imported from a generated document; thousands of evaluations recorded; export → import with drop → the same
 * evaluations, answer for answer, and the same export again.
 */
import { http } from '../support/flagpole';
import { N, ok, useFlagpole } from '../management/support';

/** A small deterministic generator (mulberry32): the same document every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLANS = ['free', 'pro', 'team', 'enterprise'];
const REGIONS = ['eu-west', 'eu-north', 'us-east', 'ap-south'];

/** Segments of every constraint kind, variant flags with rules and distributions, boolean flags with rollouts. */
function generatedDocument(segments: number, variantFlags: number, booleanFlags: number): { text: string; entities: number } {
  const r = random(19);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  let entities = 0;
  const lines: string[] = ['version: "1.4"', 'namespace: big', 'segments:'];
  for (let s = 0; s < segments; s++) {
    lines.push(`- key: seg-${s}`, `  name: Segment ${s}`, `  match_type: ${r() < 0.5 ? 'ALL_MATCH_TYPE' : 'ANY_MATCH_TYPE'}`, '  constraints:');
    entities++;
    const kinds = [
      ['STRING_COMPARISON_TYPE', 'plan', 'eq', pick(PLANS)],
      ['STRING_COMPARISON_TYPE', 'region', 'prefix', pick(['eu-', 'us-', 'ap-'])],
      ['NUMBER_COMPARISON_TYPE', 'age', pick(['gt', 'lte']), String(Math.floor(r() * 80))],
      ['BOOLEAN_COMPARISON_TYPE', 'beta', pick(['true', 'false']), ''],
      ['STRING_COMPARISON_TYPE', 'plan', 'isoneof', JSON.stringify([pick(PLANS), pick(PLANS)])],
      ['DATETIME_COMPARISON_TYPE', 'signup', pick(['lt', 'gte']), `202${Math.floor(r() * 5)}-0${1 + Math.floor(r() * 9)}-01T00:00:00Z`],
    ];
    const count = 1 + Math.floor(r() * 3);
    for (let c = 0; c < count; c++) {
      const [type, property, operator, value] = pick(kinds);
      lines.push(`  - type: ${type}`, `    property: ${property}`, `    operator: "${operator}"`, `    value: '${value}'`);
      entities++;
    }
  }
  lines.push('flags:');
  for (let f = 0; f < variantFlags; f++) {
    const variants = 2 + Math.floor(r() * 3);
    lines.push(`- key: variant-${f}`, `  name: Variant flag ${f}`, '  type: VARIANT_FLAG_TYPE', `  enabled: ${r() < 0.9}`, '  variants:');
    entities++;
    for (let v = 0; v < variants; v++) {
      lines.push(`  - key: v${v}`, ...(v === 0 && r() < 0.3 ? ['    default: true'] : []), ...(r() < 0.5 ? [`    attachment: {n: ${v}, label: "v${v}"}`] : []));
      entities++;
    }
    lines.push('  rules:');
    const rules = 1 + Math.floor(r() * 3);
    for (let k = 0; k < rules; k++) {
      const segs = [pick([...Array(segments).keys()]), pick([...Array(segments).keys()])];
      if (r() < 0.6) lines.push(`  - segment: seg-${segs[0]}`);
      else lines.push('  - segment:', `      keys: [seg-${segs[0]}, seg-${segs[1] === segs[0] ? (segs[0] + 1) % segments : segs[1]}]`, `      operator: ${pick(['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR'])}`);
      lines.push('    distributions:');
      entities++;
      let left = 100;
      for (let v = 0; v < variants && left > 0; v++) {
        const share = v === variants - 1 ? left : Math.round(r() * left * 100) / 100;
        left = Math.round((left - share) * 100) / 100;
        lines.push(`    - variant: v${v}`, `      rollout: ${share}`);
        entities++;
      }
    }
  }
  for (let f = 0; f < booleanFlags; f++) {
    lines.push(`- key: boolean-${f}`, `  name: Boolean flag ${f}`, '  type: BOOLEAN_FLAG_TYPE', `  enabled: ${r() < 0.8}`, '  rollouts:');
    entities++;
    const rollouts = 1 + Math.floor(r() * 3);
    for (let k = 0; k < rollouts; k++) {
      if (r() < 0.5) lines.push('  - segment:', `      key: seg-${Math.floor(r() * segments)}`, `      value: ${r() < 0.5}`);
      else lines.push('  - threshold:', `      percentage: ${Math.round(r() * 10000) / 100}`, `      value: ${r() < 0.5}`);
      entities++;
    }
  }
  return { text: `${lines.join('\n')}\n`, entities };
}

describe('flags as code: round trip of a large namespace', () => {
  const ctx = useFlagpole();
  const { text, entities } = generatedDocument(150, 400, 200);
  const requests: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    expect(entities).toBeGreaterThan(3000);
    const r = random(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
    for (let i = 0; i < 3000; i++) {
      const boolean = r() < 0.35;
      requests.push({
        namespaceKey: 'big',
        flagKey: boolean ? `boolean-${Math.floor(r() * 200)}` : i % 50 === 0 ? `api-${i % 5}` : `variant-${Math.floor(r() * 400)}`,
        entityId: `user-${Math.floor(r() * 100000)}`,
        context: {
          plan: pick(PLANS), region: pick(REGIONS), age: String(Math.floor(r() * 90)), beta: pick(['true', 'false']),
          signup: `202${Math.floor(r() * 5)}-0${1 + Math.floor(r() * 9)}-15T00:00:00Z`,
        },
      });
    }
  });

  /** Every answer, without what differs per call (request ids, durations, timestamps). */
  async function evaluateAll(): Promise<unknown[]> {
    const out: unknown[] = [];
    for (let i = 0; i < requests.length; i += 1000) {
      const body = ok(await ctx.api.post('/evaluate/v1/batch', { requests: requests.slice(i, i + 1000) }));
      out.push(...JSON.parse(JSON.stringify(body.responses, (k, v) => (['requestId', 'requestDurationMillis', 'timestamp'].includes(k) ? undefined : v))));
    }
    return out;
  }

  const exportBig = async () => {
    const res = await http(ctx.fp.url, 'GET', `${N('big')}/export`);
    expect(res.status).toBe(200);
    return res.text;
  };

  it(`exports, drops, imports and evaluates the same, answer for answer`, async () => {
    const imported = await http(ctx.fp.url, 'POST', `${N('big')}/import`, text, { 'content-type': 'application/yaml' });
    expect(ok(imported)).toMatchObject({ flagsCreated: 600, segmentsCreated: 150 });
    // Some of it made through the API, as most namespaces are.
    const api = ctx.api;
    for (let i = 0; i < 5; i++) {
      ok(await api.post(`${N('big')}/flags`, { key: `api-${i}`, name: `API ${i}`, enabled: true }));
      const a = ok(await api.post(`${N('big')}/flags/api-${i}/variants`, { key: 'a', attachment: '{"x":1}' }));
      const b = ok(await api.post(`${N('big')}/flags/api-${i}/variants`, { key: 'b' }));
      const rule = ok(await api.post(`${N('big')}/flags/api-${i}/rules`, { segmentKeys: ['seg-1', 'seg-2'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 }));
      ok(await api.post(`${N('big')}/flags/api-${i}/rules/${rule.id}/distributions`, { variantId: b.id, rollout: 40 }));
      ok(await api.post(`${N('big')}/flags/api-${i}/rules/${rule.id}/distributions`, { variantId: a.id, rollout: 60 }));
      ok(await api.post(`${N('big')}/flags/api-${i}/rules`, { segmentKey: 'seg-3', rank: 2 }));
    }

    const before = await evaluateAll();
    const matched = before.filter((r: any) => r.variantResponse?.match || r.booleanResponse?.reason === 'MATCH_EVALUATION_REASON');
    expect(matched.length).toBeGreaterThan(300); // the requests exercise rules, not only defaults
    const exported = await exportBig();

    const replaced = ok(await http(ctx.fp.url, 'POST', `${N('big')}/import?drop=true`, exported, { 'content-type': 'application/yaml' }));
    expect(replaced).toMatchObject({ flagsDeleted: 605, segmentsDeleted: 150, flagsCreated: 605, segmentsCreated: 150 });
    expect(await evaluateAll()).toEqual(before);
    expect(await exportBig()).toBe(exported);
  });
});

/**
 * What the fuzz suite aims at: a running Flagpole with authentication required, a fixture of one of everything in
 * the `default` namespace (so that both the namespaced and the legacy routes reach stored rows), the app's own route
 * list with each route's body fields and query parameters (from its OpenAPI document), and a snapshot of the stored
 * data to prove refused requests changed nothing.
 */
import { MikroORM } from '@mikro-orm/core';
import { RouteRegistry } from '../../../src/common/route-registry';
import { client, RunningFlagpole } from '../../support/flagpole';
import { BOOTSTRAP, bearer } from '../../auth/support';

export type Api = ReturnType<typeof client>;

export interface Fixture {
  variantIds: string[];
  ruleIds: string[];
  distributionId: string;
  constraintId: string;
  rolloutIds: string[];
  tokenId: string;
}

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
};

export interface Operation {
  method: string;
  /** Fastify syntax: `/api/v1/namespaces/:namespaceKey/flags`. */
  pattern: string;
  params: string[];
  /** Body fields with a value of the right type each (fixture ids where the name says so). */
  body: Record<string, unknown>;
  query: string[];
}

const must = async (r: Promise<{ status: number; body: any; text: string }>, what: string) => {
  const res = await r;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/**
 * Creates (or, after a fuzzed request deleted or changed part of it, re-creates) the fixture in `default`: variant
 * flag f1 (variants v1, v2; two rules on segment s1, one distribution), boolean flag b1 (a segment and a threshold
 * rollout), segment s1 with a constraint, and a spare token for the token routes.
 */
export async function seedFixture(admin: Api, previous?: Fixture): Promise<Fixture> {
  await admin.delete('/api/v1/namespaces/default/flags/f1');
  await admin.delete('/api/v1/namespaces/default/flags/b1');
  await admin.delete('/api/v1/namespaces/default/segments/s1');
  const n = '/api/v1/namespaces/default';
  await must(admin.post(`${n}/flags`, { key: 'f1', name: 'F1' }), 'flag f1');
  await must(admin.post(`${n}/flags`, { key: 'b1', name: 'B1', type: 'BOOLEAN_FLAG_TYPE' }), 'flag b1');
  const v1 = await must(admin.post(`${n}/flags/f1/variants`, { key: 'v1' }), 'variant v1');
  const v2 = await must(admin.post(`${n}/flags/f1/variants`, { key: 'v2', attachment: '{"a":1}' }), 'variant v2');
  await must(admin.post(`${n}/segments`, { key: 's1', name: 'S1' }), 'segment s1');
  const c = await must(admin.post(`${n}/segments/s1/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v' }), 'constraint');
  const r1 = await must(admin.post(`${n}/flags/f1/rules`, { segmentKey: 's1', rank: 1 }), 'rule 1');
  const r2 = await must(admin.post(`${n}/flags/f1/rules`, { segmentKey: 's1', rank: 2 }), 'rule 2');
  const d = await must(admin.post(`${n}/flags/f1/rules/${r1.id}/distributions`, { variantId: v1.id, rollout: 50 }), 'distribution');
  const ro1 = await must(admin.post(`${n}/flags/b1/rollouts`, { rank: 1, segment: { segmentKey: 's1', value: true } }), 'rollout 1');
  const ro2 = await must(admin.post(`${n}/flags/b1/rollouts`, { rank: 2, threshold: { percentage: 50, value: true } }), 'rollout 2');
  let tokenId = previous?.tokenId;
  if (!tokenId || (await admin.get(`/auth/v1/tokens/${tokenId}`)).status !== 200) {
    tokenId = (await must(admin.post('/auth/v1/method/token', { name: 'spare' }), 'spare token')).authentication.id as string;
  }
  return {
    variantIds: [v1.id, v2.id], ruleIds: [r1.id, r2.id], distributionId: d.id, constraintId: c.id,
    rolloutIds: [ro1.id, ro2.id], tokenId,
  };
}

/** True while every fixture row is still there as seeded. */
export async function fixtureIntact(admin: Api, f: Fixture): Promise<boolean> {
  const n = '/api/v1/namespaces/default';
  const [flag, rules, rollouts, segment] = await Promise.all([
    admin.get(`${n}/flags/f1`), admin.get(`${n}/flags/f1/rules`), admin.get(`${n}/flags/b1/rollouts`), admin.get(`${n}/segments/s1`),
  ]);
  if (flag.status !== 200 || rules.status !== 200 || rollouts.status !== 200 || segment.status !== 200) return false;
  const variantIds = (flag.body.variants as Array<{ id: string; key: string }>).map((v) => `${v.id}:${v.key}`);
  return (
    JSON.stringify(variantIds) === JSON.stringify([`${f.variantIds[0]}:v1`, `${f.variantIds[1]}:v2`]) &&
    JSON.stringify(rules.body.rules.map((r: { id: string }) => r.id)) === JSON.stringify(f.ruleIds) &&
    rules.body.rules[0].distributions.length === 1 &&
    JSON.stringify(rollouts.body.rules.map((r: { id: string }) => r.id)) === JSON.stringify(f.rolloutIds) &&
    segment.body.constraints.length === 1
  );
}

/** Everything a refused request must leave as it was, read with the administrator's token. */
export async function storedState(admin: Api): Promise<string> {
  const n = '/api/v1/namespaces/default';
  const reads = await Promise.all([
    admin.get('/api/v1/namespaces'), admin.get(`${n}/flags`), admin.get(`${n}/segments`), admin.get(`${n}/flags/f1/rules`),
    admin.get(`${n}/flags/b1/rollouts`), admin.get('/auth/v1/tokens?limit=100'),
  ]);
  return JSON.stringify(reads.map((r) => [r.status, r.body]));
}

const TABLES = [
  'namespaces', 'flags', 'variants', 'segments', 'constraints', 'rules', 'rule_segments', 'distributions', 'rollouts',
  'rollout_segments', 'authentications',
];

/**
 * Every stored row of every table, read straight from the app's database: cheap enough to take after each fuzzed
 * request, and it sees writes a listing would not show (another namespace, a half-written change).
 */
export async function storedRows(fp: RunningFlagpole): Promise<string> {
  const connection = fp.app.get(MikroORM).em.getConnection();
  const dump: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = (await connection.execute(`select * from ${table}`)) as Array<Record<string, unknown>>;
    dump[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return JSON.stringify(dump);
}

/** The app's routes, each with its OpenAPI body fields and query parameters where the document has them. */
export async function operations(fp: RunningFlagpole): Promise<Operation[]> {
  const doc = (await must(client(fp.url).get('/docs-json'), 'OpenAPI document')) as {
    paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
    components: { schemas: Record<string, Schema> };
  };
  const resolve = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s);
  const seen = new Set<string>();
  const out: Operation[] = [];
  for (const { method, url } of fp.app.get(RouteRegistry).list()) {
    if (seen.has(`${method} ${url}`)) continue;
    seen.add(`${method} ${url}`);
    const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    const schema = op?.requestBody ? resolve(Object.values(op.requestBody.content)[0].schema) : undefined;
    out.push({
      method,
      pattern: url,
      params: [...url.matchAll(/:(\w+)/g)].map((m) => m[1]),
      body: schema ? exampleOf(schema, resolve) as Record<string, unknown> : {},
      query: (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    });
  }
  return out;
}

/** A value of the schema's type; fields named after fixture things get a fixture reference, filled in at send time. */
function exampleOf(schema: Schema, resolve: (s: Schema) => Schema, name = ''): unknown {
  const s = schema ? resolve(schema) : undefined;
  if (!s) return 'fz';
  const byName: Record<string, unknown> = {
    key: 'fz', name: 'Fz', namespaceKey: 'default', flagKey: 'f1', segmentKey: 's1', segmentKeys: ['s1'], entityId: 'e',
    variantId: '$variant', defaultVariantId: '$variant', ruleIds: '$rules', rolloutIds: '$rollouts', rank: 3, rollout: 50,
    percentage: 50, property: 'p', operator: 'eq', value: 'v', attachment: '{"a":1}', type: 'STRING_COMPARISON_TYPE',
  };
  if (name in byName && (s.type !== 'object' || name === 'segment')) return byName[name];
  if (s.enum) return s.enum[s.enum.length - 1];
  if (s.properties) {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s.properties)) obj[k] = exampleOf(v, resolve, k);
    return obj;
  }
  switch (s.type) {
    case 'string': return 'fz';
    case 'integer': return 1;
    case 'number': return 50;
    case 'boolean': return true;
    case 'array': return s.items ? [exampleOf(s.items, resolve, name)] : [];
    default: return {};
  }
}

/** The fixture's value for a path parameter of a route. */
export function fixtureParam(pattern: string, param: string, f: Fixture): string {
  const rollouts = pattern.includes('/rollouts');
  switch (param) {
    case 'namespaceKey': return 'default';
    case 'flagKey': return rollouts ? 'b1' : 'f1';
    case 'segmentKey': return 's1';
    case 'ruleId': return f.ruleIds[0];
    case 'provider': return 'none';
    case 'key':
      if (pattern.includes('/segments')) return 's1';
      if (pattern.includes('/flags')) return 'f1';
      return 'default';
    case 'id':
      if (pattern.includes('/distributions')) return f.distributionId;
      if (pattern.includes('/variants')) return f.variantIds[1];
      if (pattern.includes('/constraints')) return f.constraintId;
      if (rollouts) return f.rolloutIds[1];
      if (pattern.includes('/rules')) return f.ruleIds[1];
      return f.tokenId;
    default: return 'x';
  }
}

/** Replaces fixture references (`$variant`, `$rules`, `$rollouts`) in a body built before the fixture existed. */
export function withFixture(value: unknown, f: Fixture): unknown {
  if (value === '$variant') return f.variantIds[0];
  if (value === '$rules') return f.ruleIds;
  if (value === '$rollouts') return f.rolloutIds;
  if (Array.isArray(value)) return value.map((v) => withFixture(v, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withFixture(v, f)]));
  }
  return value;
}

export const adminHeaders = bearer(BOOTSTRAP);

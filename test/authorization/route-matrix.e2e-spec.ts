/**
 * Every route × every role of the example policy × own and foreign namespaces, against one server enforcing
 * docs/authorization.example.yml. What each route needs is route-table.ts, written by hand; the routes come from
 * the server's own OpenAPI document, so a route added without a table entry (or an entry whose route is gone) fails
 * here. A refusal must be exactly Flipt's 403 PermissionDenied and leave the data as it was; an allowed request must
 * get past authorization (any status but 401 and 403). Allowed writes that name an object aim at one that does not
 * exist (authorization comes first, so the answer is a 404), so the fixtures that later cases rely on stay as built;
 * allowed creates of flags, segments, namespaces, tokens and imports do create, an allowed namespace update renames,
 * and an allowed namespace delete (without `force`) is refused for the flags the namespace holds.
 */
import { isDeepStrictEqual } from 'node:util';
import { bearer } from '../auth/support';
import { client } from '../support/flagpole';
import { LOGIN_ROUTES, ROUTE_TABLE, roleAllows, type Need } from './route-table';
import { DENIED, startAuthorized } from './support';

jest.setTimeout(240_000);

/** production: the production-editor's and evaluator's; team-a: the team-editor's (team-*); other: no one's but admin's. */
const NAMESPACES = ['production', 'other', 'team-a'] as const;
/** `nobody`: a token whose role the policy does not know, so it holds nothing. */
const ROLES = ['admin', 'production-editor', 'team-editor', 'viewer', 'evaluator', 'nobody'] as const;
const ROLE_METADATA = 'io.flagpole.auth.role';

type Api = ReturnType<typeof client>;

/** The ids a route's path parameters resolve to, in one namespace. */
interface Tree {
  flag: string;
  variantIds: string[];
  segment: string;
  segment2: string;
  constraintId: string;
  ruleIds: string[];
  distributionId: string;
  boolFlag: string;
  rolloutIds: string[];
  tokenId: string;
  scheduleId: string;
}

/** Objects no namespace holds, for allowed writes. */
const GHOST_ID = '00000000-0000-4000-8000-00000000dead';
const GHOST: Partial<Tree> = {
  flag: 'ghost', boolFlag: 'ghost', segment: 'ghost', variantIds: [GHOST_ID, GHOST_ID], constraintId: GHOST_ID, ruleIds: [GHOST_ID, GHOST_ID],
  distributionId: GHOST_ID, rolloutIds: [GHOST_ID, GHOST_ID], tokenId: GHOST_ID, scheduleId: GHOST_ID,
};

interface Outcome {
  status: number;
  body: unknown;
  text: string;
}

interface Planned {
  path: string;
  body?: unknown;
  contentType?: string;
  headers: Record<string, string>;
  /** The namespace the request names (what authorization judges); null: none. */
  namespace: string | null;
}

const MANAGEMENT_PREFIX = /^\/api\/v1\/(namespaces\/\{namespaceKey\}\/)?/;
const isManagement = (template: string) =>
  template.startsWith('/api/v1/') && !template.startsWith('/api/v1/audit') && !/^\/api\/v1\/namespaces(\/\{key\})?$/.test(template);
/** Flipt's legacy routes name their namespace in the query (GET, DELETE) or the body (POST, PUT), not the path. */
const isLegacy = (template: string) => isManagement(template) && !template.includes('{namespaceKey}');

/** Plausible bodies, by method and the route's path after its namespace; writes change something visible. */
const BODIES: Record<string, (t: Tree, n: number) => unknown> = {
  'POST flags': (_t, n) => ({ key: `new-${n}`, name: 'new', type: 'VARIANT_FLAG_TYPE', enabled: true }),
  'PUT flags/{key}': (_t, n) => ({ name: `changed-${n}`, description: `changed-${n}`, enabled: false }),
  'POST flags/{flagKey}/variants': (_t, n) => ({ key: `new-${n}`, name: 'new' }),
  'PUT flags/{flagKey}/variants/{id}': (_t, n) => ({ key: 'v1', name: `changed-${n}` }),
  'POST flags/{flagKey}/rules': (t) => ({ segmentKey: t.segment2, rank: 3 }),
  'PUT flags/{flagKey}/rules/{id}': (t) => ({ segmentKey: t.segment2 }),
  'PUT flags/{flagKey}/rules/order': (t) => ({ ruleIds: [...t.ruleIds].reverse() }),
  'POST flags/{flagKey}/rules/{ruleId}/distributions': (t) => ({ variantId: t.variantIds[1], rollout: 10 }),
  'PUT flags/{flagKey}/rules/{ruleId}/distributions/{id}': (t, n) => ({ variantId: t.variantIds[0], rollout: 1 + (n % 40) }),
  'POST flags/{flagKey}/rollouts': () => ({ rank: 3, threshold: { percentage: 10, value: true } }),
  'PUT flags/{flagKey}/rollouts/{id}': (_t, n) => ({ rank: 1, description: `changed-${n}`, threshold: { percentage: 1 + (n % 40), value: false } }),
  'PUT flags/{flagKey}/rollouts/order': (t) => ({ rolloutIds: [...t.rolloutIds].reverse() }),
  'POST flags/{flagKey}/schedules': () => ({ type: 'FLAG_ENABLED', steps: [{ at: '2100-01-01T00:00:00Z', enabled: true }] }),
  'PUT flags/{flagKey}/schedules/{id}': (_t, n) => ({ description: `changed-${n}`, steps: [{ at: '2100-01-02T00:00:00Z', enabled: false }] }),
  'POST segments': (_t, n) => ({ key: `new-${n}`, name: 'new', matchType: 'ALL_MATCH_TYPE' }),
  'PUT segments/{key}': (_t, n) => ({ name: `changed-${n}`, description: `changed-${n}`, matchType: 'ANY_MATCH_TYPE' }),
  'POST segments/{segmentKey}/constraints': (_t, n) => ({ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: `new-${n}` }),
  'PUT segments/{segmentKey}/constraints/{id}': (_t, n) => ({ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: `changed-${n}` }),
  'POST evaluate': () => ({ flagKey: 'f', entityId: 'e', context: {} }),
  'POST batch-evaluate': () => ({ requests: [{ flagKey: 'f', entityId: 'e', context: {} }] }),
  'PUT /api/v1/namespaces/{key}': (_t, n) => ({ name: `changed-${n}`, description: `changed-${n}` }),
  'POST /auth/v1/method/token': (_t, n) => ({ name: `matrix-${n}`, metadata: { [ROLE_METADATA]: 'viewer' } }),
  'POST /ofrep/v1/evaluate/flags/{key}': () => ({ context: { targetingKey: 'e' } }),
  'POST /ofrep/v1/evaluate/flags': () => ({ context: { targetingKey: 'e' } }),
};

/** The value of each path parameter, from the path segment before it. */
function fillPath(template: string, ns: string | null, t: Tree): string {
  const parts = template.split('/');
  return parts
    .map((part, i) => {
      const param = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!param) return part;
      if (param === 'namespaceKey' || parts[i - 1] === 'namespaces' || parts[i - 1] === 'namespace') return ns!;
      switch (parts[i - 1]) {
        case 'flags':
          return template.includes('/rollouts') ? t.boolFlag : t.flag;
        case 'variants':
          return t.variantIds[0];
        case 'segments':
          return t.segment;
        case 'constraints':
          return t.constraintId;
        case 'rules':
          return t.ruleIds[0];
        case 'distributions':
          return t.distributionId;
        case 'rollouts':
          return t.rolloutIds[0];
        case 'tokens':
          return t.tokenId;
        case 'schedules':
          return t.scheduleId;
      }
      throw new Error(`route-matrix: no value for {${param}} of ${template}; teach fillPath`);
    })
    .join('/');
}

/** The request for `route` in `ns` (null: the route names none, or the case leaves it unnamed). */
function plan(method: string, template: string, ns: string | null, t: Tree, n: number, expectDenied: boolean): Planned {
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let namespace = ns;
  let body: unknown;
  let contentType: string | undefined;
  const shape = isManagement(template) ? template.replace(MANAGEMENT_PREFIX, '') : template;
  const make = BODIES[`${method} ${shape}`];
  if (make) body = make(t, n);

  if (template === '/api/v1/namespaces' && method === 'POST') {
    // The namespace created is the one judged: the production editor's own, or a new one of the same standing.
    namespace = ns === 'production' ? ns : `${ns}-new${n}`;
    body = { key: namespace, name: namespace };
  }
  if (template === '/api/v1/namespaces/{key}' && method === 'DELETE' && expectDenied) query.force = 'true';
  if (template.endsWith('/import')) {
    body = `version: "1.4"\nflags:\n  - key: imported-${n}\n    name: imported\n    type: BOOLEAN_FLAG_TYPE\n    enabled: true\n`;
    contentType = 'application/yaml';
  }
  if (template.endsWith('/export')) query.format = 'json';
  if (template.endsWith('/distributions/{id}') && method === 'DELETE') query.variantId = t.variantIds[0];
  if (template === '/auth/v1/self/expire') query.expiresAt = '2100-01-01T00:00:00Z';
  if (template === '/evaluate/v1/variant' || template === '/evaluate/v1/boolean') {
    body = { namespaceKey: ns, flagKey: template.endsWith('boolean') ? 'b' : 'f', entityId: 'e', context: {} };
  }
  if (template === '/evaluate/v1/batch') body = { requests: [{ namespaceKey: ns, flagKey: 'f', entityId: 'e', context: {} }] };
  if (template.startsWith('/ofrep/v1/') && ns) headers['x-flipt-namespace'] = ns;
  if (template === '/api/v1/audit/events' && ns) query.namespaceKey = ns;
  if (isLegacy(template) && ns) {
    if (method === 'GET' || method === 'DELETE') query.namespaceKey = ns;
    else body = { ...(body as object | undefined), namespaceKey: ns };
  }

  const search = new URLSearchParams(query).toString();
  return { path: fillPath(template, ns, t) + (search ? `?${search}` : ''), body, contentType, headers, namespace };
}

/** Whether the table and the policy let `role` through; viewable routes are always entered (their answer is cut). */
function allowed(role: string, need: Need, namespace: string | null): boolean {
  if (typeof need === 'string') return true;
  const where = need.namespace === 'none' ? null : namespace;
  return need.needs.every(({ resource, action }) => roleAllows(role, resource, action, where));
}

/** The namespaces a route is tried in: each fixture namespace, none, or (ifNamed) both. */
function casesOf(need: Need): Array<string | null> {
  if (typeof need === 'string' || need.namespace === 'none') return [null];
  return need.namespace === 'ifNamed' ? [...NAMESPACES, null] : [...NAMESPACES];
}

describe('authorization route matrix (example policy)', () => {
  let fp: Awaited<ReturnType<typeof startAuthorized>>;
  let admin: Api;
  const fixtures = new Map<string, Tree>();
  const tokens = new Map<string, string>();
  let swaggerRoutes: string[] = [];
  let serial = 0;

  /** One call; event streams are closed as soon as their headers arrive (their status is what counts). */
  async function send(method: string, p: Planned, token: string | undefined): Promise<Outcome> {
    const abort = new AbortController();
    const headers: Record<string, string> = { ...p.headers, ...(token ? bearer(token) : {}) };
    let payload: string | undefined;
    if (p.body !== undefined) {
      headers['content-type'] = p.contentType ?? 'application/json';
      payload = typeof p.body === 'string' ? p.body : JSON.stringify(p.body);
    }
    const res = await fetch(fp.url + p.path, { method, headers, body: payload, signal: abort.signal });
    if (res.headers.get('content-type')?.includes('text/event-stream')) {
      abort.abort();
      return { status: res.status, body: undefined, text: '' };
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body, text };
  }

  async function ok<T = any>(r: Promise<{ status: number; body: T; text: string }>, what: string): Promise<T> {
    const res = await r;
    if (res.status !== 200) throw new Error(`fixture ${what}: ${res.status} ${res.text}`);
    return res.body;
  }

  async function makeToken(role: string): Promise<{ token: string; id: string }> {
    const body = await ok(admin.post('/auth/v1/method/token', { name: `matrix-${role}`, metadata: { [ROLE_METADATA]: role } }), `token ${role}`);
    return { token: body.clientToken, id: body.authentication.id };
  }

  const N = (ns: string) => `/api/v1/namespaces/${ns}`;

  /** A variant flag with two variants and two rules (the first with a distribution), on the namespace's segments. */
  async function flagTree(ns: string, key: string, segment: string, segment2: string) {
    await ok(admin.post(`${N(ns)}/flags`, { key, name: key, type: 'VARIANT_FLAG_TYPE', enabled: true }), `flag ${ns}/${key}`);
    const variantIds: string[] = [];
    for (const v of ['v1', 'v2']) variantIds.push((await ok(admin.post(`${N(ns)}/flags/${key}/variants`, { key: v, name: v }), `variant ${v}`)).id);
    const r1 = await ok(admin.post(`${N(ns)}/flags/${key}/rules`, { segmentKey: segment, rank: 1 }), 'rule 1');
    const r2 = await ok(admin.post(`${N(ns)}/flags/${key}/rules`, { segmentKey: segment2, rank: 2 }), 'rule 2');
    const d = await ok(admin.post(`${N(ns)}/flags/${key}/rules/${r1.id}/distributions`, { variantId: variantIds[0], rollout: 50 }), 'distribution');
    return { flag: key, variantIds, ruleIds: [r1.id as string, r2.id as string], distributionId: d.id as string };
  }

  /** A boolean flag with two rollouts. */
  async function boolTree(ns: string, key: string, segment: string) {
    await ok(admin.post(`${N(ns)}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true }), `flag ${ns}/${key}`);
    const a = await ok(admin.post(`${N(ns)}/flags/${key}/rollouts`, { rank: 1, threshold: { percentage: 50, value: true } }), 'rollout 1');
    const b = await ok(admin.post(`${N(ns)}/flags/${key}/rollouts`, { rank: 2, segment: { segmentKey: segment, value: false } }), 'rollout 2');
    return { boolFlag: key, rolloutIds: [a.id as string, b.id as string] };
  }

  /** A segment with one constraint. */
  async function segmentTree(ns: string, key: string) {
    await ok(admin.post(`${N(ns)}/segments`, { key, name: key, matchType: 'ALL_MATCH_TYPE' }), `segment ${ns}/${key}`);
    const c = await ok(admin.post(`${N(ns)}/segments/${key}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'x' }), 'constraint');
    return { segment: key, constraintId: c.id as string };
  }

  async function pages(path: string, field: string): Promise<any[]> {
    const items: any[] = [];
    let pageToken = '';
    do {
      const body = await ok(admin.get(`${path}${path.includes('?') ? '&' : '?'}limit=100${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`), path);
      items.push(...body[field]);
      pageToken = body.nextPageToken;
    } while (pageToken);
    return items;
  }

  /**
   * What a write to `namespace` (or, on token routes, to the tokens) could change: the namespace list (names,
   * descriptions, new and deleted namespaces) and the namespace's whole contents with its schedules, or the token list.
   */
  async function world(namespace: string | null, onTokens: boolean): Promise<unknown> {
    const [namespaces, contents, schedules, tokenList] = await Promise.all([
      pages('/api/v1/namespaces', 'namespaces'),
      namespace && !onTokens ? admin.get(`${N(namespace)}/export?format=json&sortByKey=true`).then((r) => `${r.status} ${r.text}`) : null,
      namespace && !onTokens ? admin.get(`${N(namespace)}/schedules`).then((r) => `${r.status} ${r.text}`) : null,
      onTokens ? pages('/auth/v1/tokens', 'authentications').then((list) => list.map((a) => ({ id: a.id, expiresAt: a.expiresAt, metadata: a.metadata }))) : null,
    ]);
    return { namespaces, contents, schedules, tokens: tokenList };
  }

  beforeAll(async () => {
    fp = await startAuthorized(undefined, { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true', FLAGPOLE_METRICS_REQUIRE_AUTHENTICATION: 'true', FLAGPOLE_ANALYTICS_ENABLED: 'true' });
    admin = fp.admin;
    const doc = await ok(admin.get('/docs-json'), 'OpenAPI document');
    swaggerRoutes = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    for (const role of ROLES) tokens.set(role, (await makeToken(role)).token);
    const victim = await makeToken('viewer');
    for (const ns of NAMESPACES) {
      await ok(admin.post('/api/v1/namespaces', { key: ns, name: ns }), `namespace ${ns}`);
      const seg = await segmentTree(ns, 's');
      await ok(admin.post(`${N(ns)}/segments`, { key: 's2', name: 's2', matchType: 'ANY_MATCH_TYPE' }), 'segment s2');
      const flag = await flagTree(ns, 'f', 's', 's2');
      const bool = await boolTree(ns, 'b', 's');
      const schedule = await ok(admin.post(`${N(ns)}/flags/f/schedules`, { type: 'FLAG_ENABLED', steps: [{ at: '2100-01-01T00:00:00Z', enabled: false }] }), 'schedule');
      fixtures.set(ns, { ...seg, segment2: 's2', ...flag, ...bool, tokenId: victim.id, scheduleId: schedule.id });
    }
  });
  afterAll(() => fp?.close());

  it('the table names exactly the routes the server documents', () => {
    const table = new Set(Object.keys(ROUTE_TABLE));
    const unlisted = swaggerRoutes.filter((r) => !table.has(r) && !(r in LOGIN_ROUTES));
    const gone = [...table].filter((r) => !swaggerRoutes.includes(r));
    expect({ 'served but not in route-table.ts': unlisted, 'in route-table.ts but not served': gone }).toEqual({
      'served but not in route-table.ts': [],
      'in route-table.ts but not served': [],
    });
    expect(swaggerRoutes.length).toBeGreaterThan(80);
  });

  it('without a credential only the public routes answer; everything else is 401', async () => {
    const wrong: string[] = [];
    for (const route of swaggerRoutes) {
      const need = ROUTE_TABLE[route] ?? LOGIN_ROUTES[route];
      if (!need) continue;
      const [method, template] = route.split(' ');
      const ns = casesOf(need)[0];
      const r = await send(method, plan(method, template, ns, fixtures.get(ns ?? 'production')!, ++serial, true), undefined);
      const open = r.status !== 401 && r.status !== 403;
      if (open !== (need === 'public')) wrong.push(`${route}: ${r.status} ${r.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  describe.each(ROLES)('as %s', (role) => {
    it('every route answers as the table and the policy say, and a refusal changes nothing', async () => {
      const token = tokens.get(role)!;
      const wrong: string[] = [];
      // The state before the next refused write, by what it covers; forgotten whenever an allowed write may have changed it.
      const before = new Map<string, unknown>();
      let tried = 0;
      for (const route of swaggerRoutes) {
        const need = ROUTE_TABLE[route];
        if (!need) continue; // reported by the table test
        const [method, template] = route.split(' ');
        for (const ns of casesOf(need)) {
          const n = ++serial;
          const base = fixtures.get(ns ?? 'production')!;
          // Where the request names its namespace decides; work it out on the fixture's request first.
          const probe = plan(method, template, ns, base, n, false);
          const expectAllowed = allowed(role, need, probe.namespace);
          const isWrite = typeof need !== 'string' && need.needs.some((p) => p.action !== 'read');
          // An allowed write aims at objects that do not exist (a 404 is past authorization): the fixtures stay as built.
          const request = plan(method, template, ns, expectAllowed && isWrite ? { ...base, ...GHOST } : base, n, !expectAllowed);
          // Expiring oneself is allowed to all: do it with a token of the role made for it.
          const caller = template === '/auth/v1/self/expire' ? (await makeToken(role)).token : token;
          const label = `${route}${ns === null ? '' : ` [${request.namespace}]`}`;
          const onTokens = template.startsWith('/auth/');
          const scope = `${request.namespace} ${onTokens}`;
          if (!expectAllowed && isWrite && !before.has(scope)) before.set(scope, await world(request.namespace, onTokens));
          const r = await send(method, request, caller);
          tried++;
          if (expectAllowed) {
            if (r.status === 401 || r.status === 403) wrong.push(`${label}: expected through, got ${r.status} ${r.text.slice(0, 120)}`);
            if (method !== 'GET') before.clear(); // it may have written
            continue;
          }
          // OFREP answers its refusals without a body (as its specification has it); the rest with Flipt's PermissionDenied.
          const refusal = template.startsWith('/ofrep/') ? r.text === '' : isDeepStrictEqual(r.body, DENIED);
          if (r.status !== 403 || !refusal) {
            wrong.push(`${label}: expected 403 PermissionDenied, got ${r.status} ${r.text.slice(0, 120)}`);
          }
          if (isWrite) {
            const after = await world(request.namespace, onTokens);
            if (!isDeepStrictEqual(after, before.get(scope))) wrong.push(`${label}: refused, but the data changed`);
            before.set(scope, after);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(tried).toBeGreaterThan(200);
    });

    it('the namespace list holds exactly the namespaces the role may read', async () => {
      const r = await send('GET', { path: '/api/v1/namespaces?limit=100', headers: {}, namespace: null }, tokens.get(role));
      expect(r.status).toBe(200);
      const all = (await pages('/api/v1/namespaces', 'namespaces')).map((ns) => ns.key as string);
      const keys = (r.body as { namespaces: Array<{ key: string }> }).namespaces.map((ns) => ns.key);
      expect(keys.sort()).toEqual(all.filter((key) => roleAllows(role, 'namespace', 'read', key)).sort());
    });
  });
});

/**
 * Shared helpers for the evaluation end-to-end tests: a declarative builder that creates a namespace's segments,
 * flags, variants, rules, distributions and rollouts through the management API (facts §2.1), and an independent
 * oracle for Flipt's hashing (facts §6.2 / §6.4) so that tests can predict buckets without importing src/core.
 */
import { createServer, IncomingHttpHeaders, request } from 'node:http';
import { crc32 } from 'node:zlib';
import { client, HttpResult } from '../support/flagpole';

export type Api = ReturnType<typeof client>;

export type ComparisonType =
  | 'STRING_COMPARISON_TYPE'
  | 'NUMBER_COMPARISON_TYPE'
  | 'BOOLEAN_COMPARISON_TYPE'
  | 'DATETIME_COMPARISON_TYPE'
  | 'ENTITY_ID_COMPARISON_TYPE';
export type SegmentOperator = 'OR_SEGMENT_OPERATOR' | 'AND_SEGMENT_OPERATOR';

export interface ConstraintSpec {
  type: ComparisonType;
  property: string;
  operator: string;
  value?: string;
}

export interface SegmentSpec {
  key: string;
  name?: string;
  description?: string;
  matchType?: 'ALL_MATCH_TYPE' | 'ANY_MATCH_TYPE';
  constraints?: ConstraintSpec[];
}

export interface RuleSpec {
  segments: string[];
  operator?: SegmentOperator;
  /** [variantKey, rollout] pairs, created in this order (the order distributions are bucketed in). */
  distributions?: Array<[string, number]>;
}

export interface RolloutSpec {
  description?: string;
  threshold?: { percentage: number; value: boolean };
  segment?: { segments: string[]; operator?: SegmentOperator; value: boolean };
}

export interface FlagSpec {
  key: string;
  name?: string;
  description?: string;
  type?: 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE';
  enabled?: boolean;
  variants?: Array<{ key: string; name?: string; attachment?: string }>;
  /** Key of one of the variants. */
  defaultVariant?: string;
  /** Ranked 1, 2, … in array order. */
  rules?: RuleSpec[];
  /** Ranked 1, 2, … in array order. */
  rollouts?: RolloutSpec[];
}

/** Flipt's readonly test data's `flag_boolean` (its integration suites evaluate it in several places). */
export const READONLY_FLAG_BOOLEAN: FlagSpec = {
  key: 'flag_boolean',
  type: 'BOOLEAN_FLAG_TYPE',
  enabled: false,
  rollouts: [
    { segment: { segments: ['segment_001'], value: true } },
    { segment: { segments: ['segment_002'], value: false } },
    { segment: { segments: ['segment_003'], value: true } },
    { segment: { segments: ['segment_004'], value: false } },
    { threshold: { percentage: 50, value: true } },
  ],
};

export interface NamespaceSpec {
  key: string;
  segments?: SegmentSpec[];
  flags?: FlagSpec[];
}

/** Ids of what was created, for later updates and deletes. */
export interface Built {
  /** variants[flagKey][variantKey] = variant id */
  variants: Record<string, Record<string, string>>;
  /** rules[flagKey] = rule ids in rank order */
  rules: Record<string, string[]>;
  /** distributions[flagKey][ruleIndex] = distribution ids in creation order */
  distributions: Record<string, string[][]>;
  /** rollouts[flagKey] = rollout ids in rank order */
  rollouts: Record<string, string[]>;
  /** constraints[segmentKey] = constraint ids in creation order */
  constraints: Record<string, string[]>;
}

/** Fails with the response body when the call did not answer 200. */
export function ok<T = any>(res: HttpResult<T>, what = 'request'): T {
  if (res.status !== 200) throw new Error(`${what} → ${res.status} ${res.text}`);
  return res.body;
}

export const nsPath = (ns: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}`;

export async function createNamespace(api: Api, key: string): Promise<void> {
  if (key === 'default') return;
  ok(await api.post('/api/v1/namespaces', { key, name: key, description: '' }), `create namespace ${key}`);
}

export async function createSegment(api: Api, ns: string, s: SegmentSpec): Promise<string[]> {
  ok(
    await api.post(`${nsPath(ns)}/segments`, {
      key: s.key,
      name: s.name ?? s.key,
      description: s.description ?? '',
      matchType: s.matchType ?? 'ALL_MATCH_TYPE',
    }),
    `create segment ${s.key}`,
  );
  const ids: string[] = [];
  for (const c of s.constraints ?? []) {
    const created = ok(await api.post(`${nsPath(ns)}/segments/${s.key}/constraints`, c), `create constraint on ${s.key}`);
    ids.push(created.id);
  }
  return ids;
}

export async function createFlag(api: Api, ns: string, f: FlagSpec, built: Built): Promise<void> {
  ok(
    await api.post(`${nsPath(ns)}/flags`, {
      key: f.key,
      name: f.name ?? f.key,
      description: f.description ?? '',
      enabled: f.enabled ?? true,
      type: f.type ?? 'VARIANT_FLAG_TYPE',
    }),
    `create flag ${f.key}`,
  );
  const variants: Record<string, string> = (built.variants[f.key] = {});
  for (const v of f.variants ?? []) {
    const created = ok(
      await api.post(`${nsPath(ns)}/flags/${f.key}/variants`, { key: v.key, name: v.name ?? v.key, attachment: v.attachment ?? '' }),
      `create variant ${f.key}/${v.key}`,
    );
    variants[v.key] = created.id;
  }
  if (f.defaultVariant) {
    ok(
      await api.put(`${nsPath(ns)}/flags/${f.key}`, {
        name: f.name ?? f.key,
        description: f.description ?? '',
        enabled: f.enabled ?? true,
        defaultVariantId: variants[f.defaultVariant],
      }),
      `set default variant of ${f.key}`,
    );
  }
  built.rules[f.key] = [];
  built.distributions[f.key] = [];
  for (const [i, r] of (f.rules ?? []).entries()) {
    const rule = ok(
      await api.post(`${nsPath(ns)}/flags/${f.key}/rules`, {
        segmentKeys: r.segments,
        segmentOperator: r.operator ?? 'OR_SEGMENT_OPERATOR',
        rank: i + 1,
      }),
      `create rule ${i + 1} of ${f.key}`,
    );
    built.rules[f.key].push(rule.id);
    const dists: string[] = [];
    for (const [variantKey, rollout] of r.distributions ?? []) {
      const d = ok(
        await api.post(`${nsPath(ns)}/flags/${f.key}/rules/${rule.id}/distributions`, { variantId: variants[variantKey], rollout }),
        `create distribution ${variantKey} on ${f.key}`,
      );
      dists.push(d.id);
    }
    built.distributions[f.key].push(dists);
  }
  built.rollouts[f.key] = [];
  for (const [i, r] of (f.rollouts ?? []).entries()) {
    const body: Record<string, unknown> = { rank: i + 1, description: r.description ?? '' };
    if (r.threshold) body.threshold = r.threshold;
    if (r.segment) {
      body.segment = {
        segmentKeys: r.segment.segments,
        segmentOperator: r.segment.operator ?? 'OR_SEGMENT_OPERATOR',
        value: r.segment.value,
      };
    }
    const rollout = ok(await api.post(`${nsPath(ns)}/flags/${f.key}/rollouts`, body), `create rollout ${i + 1} of ${f.key}`);
    built.rollouts[f.key].push(rollout.id);
  }
}

/** Creates the namespace (unless `default`), its segments, then its flags, all through the management API. */
export async function buildNamespace(api: Api, spec: NamespaceSpec): Promise<Built> {
  const built: Built = { variants: {}, rules: {}, distributions: {}, rollouts: {}, constraints: {} };
  await createNamespace(api, spec.key);
  for (const s of spec.segments ?? []) built.constraints[s.key] = await createSegment(api, spec.key, s);
  for (const f of spec.flags ?? []) await createFlag(api, spec.key, f, built);
  return built;
}

// ---- evaluation shortcuts ---------------------------------------------------------------------------------------

export interface EvalRequest {
  namespaceKey?: string;
  flagKey: string;
  entityId?: string;
  context?: Record<string, string>;
  requestId?: string;
}

export const variant = (api: Api, req: EvalRequest) => api.post('/evaluate/v1/variant', req);
export const boolean = (api: Api, req: EvalRequest) => api.post('/evaluate/v1/boolean', req);
export const batch = (api: Api, requests: EvalRequest[], extra: Record<string, unknown> = {}) =>
  api.post('/evaluate/v1/batch', { ...extra, requests });

/** Evaluates many requests through /evaluate/v1/batch, in chunks; returns the batch items in request order. */
export async function evaluateMany(api: Api, requests: EvalRequest[], chunk = 500): Promise<any[]> {
  const out: any[] = [];
  for (let i = 0; i < requests.length; i += chunk) {
    const body = ok(await batch(api, requests.slice(i, i + chunk)), 'batch');
    out.push(...body.responses);
  }
  return out;
}

// ---- hashing oracle (facts §6.2 / §6.4), independent of src/core ---------------------------------------------------

/** crc32(utf8(flagKey + entityId)) mod 1000 — variant distribution bucket. */
export const variantBucket = (flagKey: string, entityId: string) => crc32(flagKey + entityId) % 1000;

/** crc32(utf8(entityId + flagKey)) mod 100 — boolean threshold bucket. */
export const thresholdBucket = (entityId: string, flagKey: string) => crc32(entityId + flagKey) % 100;

/** Go's cumulative bounds: each share float32(rollout) × 10 truncated (facts §6.4). */
export function bounds(rollouts: number[]): number[] {
  let total = 0;
  return rollouts.map((r) => (total += Math.trunc(Math.fround(Math.fround(r) * 10))));
}

/** Index of the distribution an entity lands in under Flipt's server rules, -1 when no bound covers the bucket. */
export function expectedDistribution(flagKey: string, entityId: string, rollouts: number[]): number {
  const bucket = variantBucket(flagKey, entityId);
  return bounds(rollouts).findIndex((b) => b > bucket);
}

/** The first entity id `prefix-<n>` whose variant bucket satisfies `test`. */
export function findEntity(flagKey: string, test: (bucket: number) => boolean, prefix = 'entity'): string {
  for (let n = 0; n < 1_000_000; n++) {
    const id = `${prefix}-${n}`;
    if (test(variantBucket(flagKey, id))) return id;
  }
  throw new Error(`no entity found for ${flagKey}`);
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** RFC 3339 in UTC with optional fractional seconds, as protojson prints a Timestamp. */
export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

export const sorted = (keys: string[]) => [...keys].sort();

// ---- a recording HTTP proxy, to see what the real clients send and get, without changing them ----------------------

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: string;
  status: number;
  responseHeaders: IncomingHttpHeaders;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/** Forwards every request to `target` (an http://host:port base) and records each exchange. */
export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (up) => {
          exchanges.push({
            method: req.method ?? '',
            url: req.url ?? '',
            requestHeaders: req.headers,
            requestBody: requestBody.toString('utf8'),
            status: up.statusCode ?? 0,
            responseHeaders: up.headers,
          });
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      out.end(requestBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

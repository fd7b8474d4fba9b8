/**
 * Shared pieces of the management API end-to-end tests: one Flagpole per test file, Flipt's error body, matchers for
 * generated values, and small create helpers that fail loudly when the setup call itself fails.
 */
import { client, HttpResult, RunningFlagpole, startFlagpole } from '../support/flagpole';

export type Api = ReturnType<typeof client>;

/** Starts one app for the file (beforeAll) and closes it (afterAll). Use `ctx.api` inside tests. */
export function useFlagpole(env: Record<string, string> = {}): { fp: RunningFlagpole; api: Api } {
  const ctx = {} as { fp: RunningFlagpole; api: Api };
  beforeAll(async () => {
    ctx.fp = await startFlagpole(env);
    ctx.api = client(ctx.fp.url);
  });
  afterAll(() => ctx.fp?.close());
  return ctx;
}

/** RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits (protobuf JSON Timestamp). */
export const TIMESTAMP_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$/;
export const TIMESTAMP = expect.stringMatching(TIMESTAMP_RE);
export const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

/** Flipt's gateway error body. */
export function errorBody(code: number, message: string) {
  return { code, message, details: [] };
}

/** Asserts status and the exact error body in one comparison, so a failure shows both. */
export function expectError(r: HttpResult, status: number, code: number, message: string): void {
  expect({ status: r.status, body: r.body }).toEqual({ status, body: errorBody(code, message) });
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
}

/** Asserts a 400 InvalidArgument whose message names `field` (Flagpole's own texts, decisions.md item 4). */
export function expectInvalidNaming(r: HttpResult, field: string): void {
  expect({ status: r.status, code: r.body?.code, details: r.body?.details }).toEqual({ status: 400, code: 3, details: [] });
  expect(r.body.message).toContain(field);
}

/** Asserts a 200 and returns the body; on failure the body is printed. */
export function ok<T = any>(r: HttpResult<T>): T {
  expect({ status: r.status, body: r.body }).toMatchObject({ status: 200 });
  return r.body;
}

export const N = (ns: string) => `/api/v1/namespaces/${ns}`;

export async function createNamespace(api: Api, key: string, extra: Record<string, unknown> = {}) {
  return ok(await api.post('/api/v1/namespaces', { key, name: key, ...extra }));
}

export async function createFlag(api: Api, ns: string, key: string, extra: Record<string, unknown> = {}) {
  return ok(await api.post(`${N(ns)}/flags`, { key, name: key, ...extra }));
}

export async function createVariant(api: Api, ns: string, flagKey: string, key: string, extra: Record<string, unknown> = {}) {
  return ok(await api.post(`${N(ns)}/flags/${flagKey}/variants`, { key, ...extra }));
}

export async function createSegment(api: Api, ns: string, key: string, extra: Record<string, unknown> = {}) {
  return ok(await api.post(`${N(ns)}/segments`, { key, name: key, ...extra }));
}

export async function createConstraint(api: Api, ns: string, segmentKey: string, body: Record<string, unknown>) {
  return ok(await api.post(`${N(ns)}/segments/${segmentKey}/constraints`, body));
}

export async function createRule(api: Api, ns: string, flagKey: string, body: Record<string, unknown>) {
  return ok(await api.post(`${N(ns)}/flags/${flagKey}/rules`, body));
}

export async function createDistribution(api: Api, ns: string, flagKey: string, ruleId: string, body: Record<string, unknown>) {
  return ok(await api.post(`${N(ns)}/flags/${flagKey}/rules/${ruleId}/distributions`, body));
}

export async function createRollout(api: Api, ns: string, flagKey: string, body: Record<string, unknown>) {
  return ok(await api.post(`${N(ns)}/flags/${flagKey}/rollouts`, body));
}

/** Runs `work` over `items` with at most `concurrency` calls in flight; results keep the items' order. */
export async function inParallel<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i], i);
    }
  });
  await Promise.all(workers);
  return out;
}

/**
 * @flipt-io/flipt-client-js 0.5.1, unchanged (clients.md A3): it loads Flagpole's snapshot and evaluates with
 * Flipt's Rust engine (WASM). For every flag of a namespace built through the management API, its answers must
 * equal the server's for 2,000 entity ids; its refresh must take the 304 path while nothing changed and pick up a
 * write after it.
 *
 * The comparison namespace keeps to cases where Flipt's server (Go) and engine (Rust) agree (clients.md A3.7), so a
 * difference is Flagpole's fault, not an engine quirk:
 * - every rule's distributions sum to exactly 100 with shares whose truncated (Go) and rounded (Rust) bounds
 *   coincide (50/50, 33/33/34, 20/30/50) — the engine normalises sums below 100 and rounds 33.33-style shares;
 * - numbers in constraints and contexts are integers (the engine parses i32);
 * - no context value has surrounding whitespace (the engine does not trim), booleans are `true`/`false`, datetimes
 *   are RFC 3339 with whole seconds (the engine accepts no date-only form and drops sub-seconds);
 * - every context carries every property the constraints name (Go answers false for most operators on a missing
 *   property), and no constraint has an unknown type;
 * - segmentKeys are compared as sets (both sides iterate hash maps).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, buildNamespace, ConstraintSpec, EvalRequest, evaluateMany, nsPath, ok, recordingProxy, RecordingProxy, sorted } from './fixtures';

const NS = 'local';
const ENTITIES = 2000;

/** The real client in its own Node process (see flipt-client-js-runner.mjs for why). */
class LocalEngine {
  private readonly child: ChildProcess;
  private readonly waiting: Array<(answer: any) => void> = [];
  stderr = '';

  constructor() {
    this.child = spawn(process.execPath, [join(__dirname, 'flipt-client-js-runner.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.waiting.shift()?.(JSON.parse(line)));
    this.child.stderr!.on('data', (d) => (this.stderr += d));
    this.child.on('exit', () => this.waiting.splice(0).forEach((w) => w({ error: `engine process exited: ${this.stderr}` })));
  }

  call<T = any>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push((answer) => (answer.error !== undefined ? reject(new Error(answer.error)) : resolve(answer.ok)));
      this.child.stdin!.write(JSON.stringify({ op, ...args }) + '\n');
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.call('close').catch(() => undefined);
    await exited;
  }
}

const c = (type: ConstraintSpec['type'], property: string, operator: string, value = ''): ConstraintSpec => ({ type, property, operator, value });
const S = 'STRING_COMPARISON_TYPE';

const segments = [
  { key: 'plan-pro', constraints: [c(S, 'plan', 'eq', 'pro')] },
  { key: 'region-eu', constraints: [c(S, 'region', 'eq', 'eu')] },
  { key: 'beta', constraints: [c('BOOLEAN_COMPARISON_TYPE', 'beta', 'true')] },
  { key: 'adults', constraints: [c('NUMBER_COMPARISON_TYPE', 'age', 'gte', '18')] },
  { key: 'young', constraints: [c('NUMBER_COMPARISON_TYPE', 'age', 'lt', '30')] },
  { key: 'recent', constraints: [c('DATETIME_COMPARISON_TYPE', 'signup', 'gt', '2023-06-01T00:00:00Z')] },
  { key: 'vip', constraints: [c('ENTITY_ID_COMPARISON_TYPE', 'entityId', 'isoneof', '["user-7","user-42","user-1999"]')] },
  { key: 'sevens', constraints: [c('ENTITY_ID_COMPARISON_TYPE', 'entityId', 'contains', '77')] },
  {
    key: 'europe',
    matchType: 'ANY_MATCH_TYPE' as const,
    constraints: [c(S, 'country', 'eq', 'fr'), c(S, 'country', 'eq', 'de'), c(S, 'country', 'isoneof', '["ch","at"]')],
  },
  { key: 'not-us', constraints: [c(S, 'country', 'neq', 'us'), c(S, 'email', 'suffix', '@example.com'), c(S, 'email', 'prefix', 'u')] },
  { key: 'everyone' },
];

const flags = [
  {
    key: 'multi-variant',
    variants: [{ key: 'a', attachment: '{"color":"red"}' }, { key: 'b' }, { key: 'c', attachment: '[1,2,3]' }, { key: 'd', attachment: '{"d":true}' }],
    defaultVariant: 'd',
    rules: [
      { segments: ['plan-pro', 'region-eu', 'adults'], operator: 'AND_SEGMENT_OPERATOR' as const, distributions: [['a', 50], ['b', 50]] as Array<[string, number]> },
      { segments: ['beta', 'vip'], operator: 'OR_SEGMENT_OPERATOR' as const, distributions: [['a', 33], ['b', 33], ['c', 34]] as Array<[string, number]> },
      { segments: ['europe', 'recent'], operator: 'AND_SEGMENT_OPERATOR' as const, distributions: [['a', 20], ['b', 30], ['c', 50]] as Array<[string, number]> },
      { segments: ['sevens'] },
      { segments: ['young', 'not-us'], operator: 'AND_SEGMENT_OPERATOR' as const, distributions: [['b', 100]] as Array<[string, number]> },
    ],
  },
  {
    key: 'fifty-fifty',
    variants: [{ key: 'x' }, { key: 'y', attachment: '"why"' }],
    rules: [{ segments: ['everyone'], distributions: [['x', 50], ['y', 50]] as Array<[string, number]> }],
  },
  {
    key: 'thirds',
    variants: [{ key: 'one' }, { key: 'two' }, { key: 'three' }, { key: 'rest' }],
    rules: [
      { segments: ['plan-pro'], distributions: [['one', 33], ['two', 33], ['three', 34]] as Array<[string, number]> },
      { segments: ['region-eu'], distributions: [['rest', 100]] as Array<[string, number]> },
    ],
  },
  {
    key: 'bool-mixed',
    type: 'BOOLEAN_FLAG_TYPE' as const,
    enabled: true,
    rollouts: [
      { segment: { segments: ['plan-pro', 'region-eu'], operator: 'AND_SEGMENT_OPERATOR' as const, value: false } },
      { segment: { segments: ['vip'], value: true } },
      { threshold: { percentage: 30, value: false } },
      { segment: { segments: ['beta', 'europe'], operator: 'OR_SEGMENT_OPERATOR' as const, value: true } },
      { threshold: { percentage: 60, value: false } },
    ],
  },
  { key: 'bool-threshold', type: 'BOOLEAN_FLAG_TYPE' as const, enabled: false, rollouts: [{ threshold: { percentage: 50, value: true } }] },
  {
    key: 'bool-segments',
    type: 'BOOLEAN_FLAG_TYPE' as const,
    enabled: false,
    rollouts: [
      { segment: { segments: ['sevens', 'recent'], operator: 'OR_SEGMENT_OPERATOR' as const, value: true } },
      { segment: { segments: ['adults', 'young'], operator: 'AND_SEGMENT_OPERATOR' as const, value: true } },
    ],
  },
  { key: 'off-variant', enabled: false, variants: [{ key: 'v', attachment: '{"off":1}' }], defaultVariant: 'v' },
];

/** Deterministic, varied contexts that always name every property. */
function contextFor(i: number): Record<string, string> {
  const signup = new Date(Date.UTC(2023, 0, 1) + i * 9_876_543).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    plan: ['free', 'pro', 'enterprise'][i % 3],
    region: ['eu', 'us'][Math.floor(i / 3) % 2],
    beta: i % 7 === 0 ? 'true' : 'false',
    age: String((i * 13) % 80),
    signup,
    country: ['fr', 'de', 'ch', 'us', 'jp', 'at'][Math.floor(i / 2) % 6],
    email: i % 4 === 0 ? `u${i}@example.com` : `x${i}@example.org`,
  };
}

/** Distinct outcomes the 2,000 contexts produce per flag (so that no rule or rollout goes untested). */
const MIN_OUTCOMES: Record<string, number> = {
  'multi-variant': 12, 'fifty-fifty': 2, thirds: 5, 'bool-mixed': 7, 'bool-threshold': 2, 'bool-segments': 5, 'off-variant': 1,
};

const entities = Array.from({ length: ENTITIES }, (_, i) => ({ entityId: `user-${i}`, context: contextFor(i) }));

describe('@flipt-io/flipt-client-js (local evaluation) agrees with the server', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let proxy: RecordingProxy;
  let engine: LocalEngine;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildNamespace(api, { key: NS, segments, flags });
    proxy = await recordingProxy(fp.url);
    engine = new LocalEngine();
    await engine.call('init', { options: { namespace: NS, url: proxy.url, updateInterval: 3600, errorStrategy: 'fail' } });
  }, 120_000);
  afterAll(async () => {
    await engine?.stop();
    await proxy?.close();
    await fp?.close();
  });

  it('fetched the snapshot the way clients.md A3.2 describes', () => {
    const [first] = proxy.exchanges;
    expect(first.method).toBe('GET');
    expect(first.url).toBe(`/internal/v1/evaluation/snapshot/namespace/${NS}`);
    expect(first.requestHeaders['x-flipt-accept-server-version']).toBe('1.47.0');
    expect(first.status).toBe(200);
    expect(first.responseHeaders.etag).toMatch(/^[0-9a-f]{40}$/);
  });

  it('lists the namespace’s flags', async () => {
    const listed = await engine.call<any[]>('listFlags');
    expect(listed.map((f) => f.key).sort()).toEqual(flags.map((f) => f.key).sort());
    const types = Object.fromEntries(listed.map((f) => [f.key, f.type]));
    expect(types['bool-mixed']).toBe('BOOLEAN_FLAG_TYPE');
    expect(types['multi-variant']).toBe('VARIANT_FLAG_TYPE');
  });

  describe.each(flags.map((f) => [f.key, f.type === 'BOOLEAN_FLAG_TYPE' ? 'boolean' : 'variant'] as const))('%s', (flagKey, kind) => {
    it(`gives the server's answer for ${ENTITIES} entity ids`, async () => {
      const requests: EvalRequest[] = entities.map((e) => ({ namespaceKey: NS, flagKey, ...e }));
      const server = await evaluateMany(api, requests);
      const local = await engine.call<any[]>('evaluate', { requests: entities.map((e) => ({ kind, flagKey, ...e })) });

      const mismatches: unknown[] = [];
      const outcomes = new Map<string, number>();
      for (let i = 0; i < ENTITIES; i++) {
        const s = kind === 'boolean' ? server[i].booleanResponse : server[i].variantResponse;
        if (!s) throw new Error(`server item ${i}: ${JSON.stringify(server[i])}`);
        if (local[i].error) throw new Error(`engine item ${i}: ${local[i].error}`);
        const l = local[i].ok;
        const view = (r: any) =>
          kind === 'boolean'
            ? { enabled: r.enabled, reason: r.reason, segmentKeys: sorted(r.segmentKeys ?? []) }
            : { match: r.match, variantKey: r.variantKey, reason: r.reason, segmentKeys: sorted(r.segmentKeys ?? []), variantAttachment: r.variantAttachment ?? '' };
        const sv = view(s);
        const lv = view(l);
        if (JSON.stringify(sv) !== JSON.stringify(lv)) mismatches.push({ entity: entities[i], server: sv, local: lv });
        const key = JSON.stringify(kind === 'boolean' ? [sv.enabled, sv.reason, sv.segmentKeys] : [(sv as any).variantKey, sv.reason, sv.segmentKeys]);
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
      expect(mismatches).toHaveLength(0);
      // the data reaches every rule / rollout: distinct (value, reason, segmentKeys) outcomes seen
      expect(outcomes.size).toBeGreaterThanOrEqual(MIN_OUTCOMES[flagKey]);
    }, 120_000);
  });

  it('the client’s batch matches the server’s batch, a missing flag included', async () => {
    const sample = entities.slice(0, 40);
    const requests = sample.flatMap((e) => [
      { flagKey: 'multi-variant', ...e },
      { flagKey: 'bool-mixed', ...e },
      { flagKey: 'missing', ...e },
    ]);
    const local = await engine.call<any>('batch', { requests });
    const server = ok(await api.post('/evaluate/v1/batch', { requests: requests.map((r) => ({ namespaceKey: NS, ...r })) }));
    expect(local.responses).toHaveLength(requests.length);
    local.responses.forEach((l: any, i: number) => {
      const s = server.responses[i];
      expect(l.type).toBe(s.type);
      if (s.type === 'VARIANT_EVALUATION_RESPONSE_TYPE') {
        expect([l.variantEvaluationResponse.variantKey, l.variantEvaluationResponse.match]).toEqual([s.variantResponse.variantKey, s.variantResponse.match]);
      } else if (s.type === 'BOOLEAN_EVALUATION_RESPONSE_TYPE') {
        expect(l.booleanEvaluationResponse.enabled).toBe(s.booleanResponse.enabled);
      } else {
        expect(l.errorEvaluationResponse).toMatchObject({ flagKey: 'missing', namespaceKey: NS, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
        expect(s.errorResponse).toEqual({ flagKey: 'missing', namespaceKey: NS, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
      }
    });
  });

  it('refresh(): 304 while nothing changed, then the change after a write', async () => {
    const probe = { kind: 'variant', flagKey: 'fifty-fifty', entityId: 'user-1', context: contextFor(1) };
    const before = (await engine.call<any[]>('evaluate', { requests: [probe] }))[0].ok;
    expect(before.match).toBe(true);

    const seen = proxy.exchanges.length;
    expect(await engine.call('refresh')).toBe(false);
    const unchanged = proxy.exchanges.slice(seen);
    expect(unchanged).toHaveLength(1);
    expect(unchanged[0].requestHeaders['if-none-match']).toBe(proxy.exchanges[0].responseHeaders.etag);
    expect(unchanged[0].status).toBe(304);
    expect(unchanged[0].responseHeaders.etag).toBe(proxy.exchanges[0].responseHeaders.etag);

    // disable the flag: the server answers FLAG_DISABLED at once, the client after its refresh
    ok(await api.put(`${nsPath(NS)}/flags/fifty-fifty`, { name: 'fifty-fifty', enabled: false }));
    const server = ok(await api.post('/evaluate/v1/variant', { namespaceKey: NS, flagKey: 'fifty-fifty', entityId: 'user-1', context: contextFor(1) }));
    expect(server.reason).toBe('FLAG_DISABLED_EVALUATION_REASON');
    expect((await engine.call<any[]>('evaluate', { requests: [probe] }))[0].ok.reason).toBe(before.reason);

    const mark = proxy.exchanges.length;
    expect(await engine.call('refresh')).toBe(true);
    const changed = proxy.exchanges.slice(mark);
    expect(changed).toHaveLength(1);
    expect(changed[0].status).toBe(200);
    expect(changed[0].responseHeaders.etag).not.toBe(proxy.exchanges[0].responseHeaders.etag);
    const after = (await engine.call<any[]>('evaluate', { requests: [probe] }))[0].ok;
    expect(after).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '' });

    // and a further refresh is a 304 with the new ETag
    expect(await engine.call('refresh')).toBe(false);
    expect(proxy.exchanges[proxy.exchanges.length - 1].status).toBe(304);
  });

  it('a deleted flag becomes unknown to the client after refresh', async () => {
    ok(await api.delete(`${nsPath(NS)}/flags/off-variant`));
    expect(await engine.call('refresh')).toBe(true);
    const [r] = await engine.call<any[]>('evaluate', { requests: [{ kind: 'variant', flagKey: 'off-variant', entityId: 'user-1', context: {} }] });
    expect(r.error).toMatch(/off-variant/);
  });
});

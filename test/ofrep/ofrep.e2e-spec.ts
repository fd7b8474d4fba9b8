/**
 * OFREP over real HTTP (issue 17; docs/api.md "OFREP"): single and bulk evaluations, ETags, the namespace headers,
 * OFREP's error bodies, Flipt's configuration endpoint, authentication. The evaluation vectors of Flipt's OFREP
 * integration suite (facts §13.5) run against the part of its readonly data they rest on (rebuilt as
 * test/evaluation/flipt-readonly-suite does).
 */
import { BOOTSTRAP, bearer, createToken, expectUnauthenticated, TOKEN_REQUIRED } from '../auth/support';
import { Api, buildNamespace, FlagSpec, ok, variantBucket } from '../evaluation/fixtures';
import { client, HttpResult, RunningFlagpole, startFlagpole } from '../support/flagpole';

const FIXED = 'some-fixed-entity-id';
const SINGLE = (key: string) => `/ofrep/v1/evaluate/flags/${encodeURIComponent(key)}`;
const BULK = '/ofrep/v1/evaluate/flags';
const pad = (i: number) => String(i).padStart(3, '0');
const inSegment = (n: string) => ({ type: 'STRING_COMPARISON_TYPE' as const, property: 'in_segment', operator: 'eq', value: `segment_${n}` });
const fiftyFifty: Array<[string, number]> = [['variant_001', 50], ['variant_002', 50]];
const twoVariants = [{ key: 'variant_001' }, { key: 'variant_002' }];
const ETAG = /^"[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{16}"$/;

/** In creation order; the bulk answer lists them so, without the disabled variant flag. */
const flags: FlagSpec[] = [
  {
    key: 'flag_001',
    variants: twoVariants,
    rules: Array.from({ length: 6 }, (_, i) => ({ segments: [`segment_${pad(i + 1)}`], distributions: fiftyFifty })),
  },
  { key: 'flag_using_entity_id', variants: twoVariants, rules: [{ segments: ['segment_entity_id'], distributions: [['variant_001', 100]] }] },
  { key: 'flag_disabled', enabled: false, variants: twoVariants, rules: [{ segments: ['segment_001'], distributions: fiftyFifty }] },
  {
    key: 'flag_boolean',
    type: 'BOOLEAN_FLAG_TYPE',
    enabled: false,
    rollouts: [
      { segment: { segments: ['segment_001'], value: true } },
      { segment: { segments: ['segment_002'], value: false } },
      { threshold: { percentage: 50, value: true } },
    ],
  },
  {
    key: 'colour',
    variants: [{ key: 'blue', attachment: '{"hex":"#00f"}' }, { key: 'red' }],
    rules: [{ segments: ['everyone'], distributions: [['blue', 100]] }],
  },
  { key: 'with_default', variants: [{ key: 'red' }, { key: 'green' }], defaultVariant: 'red' },
  { key: 'adults', variants: [{ key: 'yes' }], rules: [{ segments: ['adult'], distributions: [['yes', 100]] }] },
];
const LISTED = ['flag_001', 'flag_using_entity_id', 'flag_boolean', 'colour', 'with_default', 'adults'];

/** OFREP's error body, exactly. */
function expectOfrepError(r: HttpResult, status: number, body: Record<string, unknown>): void {
  expect({ status: r.status, body: r.body }).toEqual({ status, body });
  expect(r.headers.get('content-type')).toContain('application/json');
}

/** A refusal as OFREP has it: the status and no body at all. */
function expectNoBody(r: HttpResult, status: number): void {
  expect({ status: r.status, text: r.text, type: r.headers.get('content-type') }).toEqual({ status, text: '', type: null });
}

describe('OFREP', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildNamespace(api, {
      key: 'default',
      segments: [
        ...Array.from({ length: 6 }, (_, i) => ({ key: `segment_${pad(i + 1)}`, constraints: [inSegment(pad(i + 1))] })),
        { key: 'segment_entity_id', constraints: [{ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'eq', value: 'user@flipt.io' }] },
        { key: 'everyone' },
        { key: 'adult', constraints: [{ type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }] },
      ],
      flags,
    });
    await buildNamespace(api, { key: 'prod', flags: [{ key: 'prod_only', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
    await buildNamespace(api, { key: 'live', flags: [{ key: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
  });
  afterAll(() => fp?.close());

  describe("Flipt's OFREP suite (facts §13.5), with X-Flipt-Namespace absent, empty and default", () => {
    describe.each([[{}], [{ 'x-flipt-namespace': '' }], [{ 'x-flipt-namespace': 'default' }]])('%j', (headers: Record<string, string>) => {
      it('boolean flag_boolean {in_segment: segment_001} → true, TARGETING_MATCH', async () => {
        const r = await api.post(SINGLE('flag_boolean'), { context: { in_segment: 'segment_001' } }, headers);
        expect({ status: r.status, body: r.body }).toEqual({
          status: 200,
          body: { key: 'flag_boolean', reason: 'TARGETING_MATCH', variant: 'true', metadata: {}, value: true },
        });
        expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      });

      it('idontexist → 404 FLAG_NOT_FOUND', async () => {
        expectOfrepError(await api.post(SINGLE('idontexist'), { context: {} }, headers), 404, {
          key: 'idontexist', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found idontexist',
        });
      });

      it('string flag_001 {in_segment: segment_005, targetingKey: some-fixed-entity-id} → variant_002, TARGETING_MATCH', async () => {
        expect(variantBucket('flag_001', FIXED)).toBe(553);
        const r = ok(await api.post(SINGLE('flag_001'), { context: { in_segment: 'segment_005', targetingKey: FIXED } }, headers));
        expect(r).toEqual({ key: 'flag_001', reason: 'TARGETING_MATCH', variant: 'variant_002', metadata: { segments: 'segment_005' }, value: 'variant_002' });
      });

      it('bulk with the same context gives the same values', async () => {
        const context = { in_segment: 'segment_005', targetingKey: FIXED };
        const body = ok(await api.post(BULK, { context: { ...context, flags: 'flag_001' } }, headers));
        expect(body.flags).toEqual([{ key: 'flag_001', reason: 'TARGETING_MATCH', variant: 'variant_002', metadata: { segments: 'segment_005' }, value: 'variant_002' }]);
        const all = ok(await api.post(BULK, { context: { in_segment: 'segment_001', targetingKey: FIXED } }, headers));
        expect(all.flags.find((f: { key: string }) => f.key === 'flag_boolean')).toEqual({
          key: 'flag_boolean', reason: 'TARGETING_MATCH', variant: 'true', metadata: {}, value: true,
        });
      });
    });
  });

  describe('single evaluation', () => {
    const evaluate = (key: string, context: Record<string, unknown> = {}) => api.post(SINGLE(key), { context });

    it('a variant with an attachment: the variant key as value, the attachment and segments in metadata (as Flipt)', async () => {
      expect(ok(await evaluate('colour', { targetingKey: 'u1' }))).toEqual({
        key: 'colour', reason: 'TARGETING_MATCH', variant: 'blue', metadata: { segments: 'everyone', attachment: '{"hex":"#00f"}' }, value: 'blue',
      });
    });

    it('reasons: no match UNKNOWN, disabled DISABLED, default variant DEFAULT; a value every time', async () => {
      expect(ok(await evaluate('flag_001', { in_segment: 'unknown', targetingKey: FIXED }))).toEqual({
        key: 'flag_001', reason: 'UNKNOWN', variant: '', metadata: {}, value: '',
      });
      expect(ok(await evaluate('flag_disabled', { in_segment: 'segment_001' }))).toEqual({
        key: 'flag_disabled', reason: 'DISABLED', variant: '', metadata: {}, value: '',
      });
      expect(ok(await evaluate('with_default'))).toEqual({ key: 'with_default', reason: 'DEFAULT', variant: 'red', metadata: {}, value: 'red' });
    });

    it('the entity is targetingKey (ENTITY_ID constraints see it)', async () => {
      expect(ok(await evaluate('flag_using_entity_id', { targetingKey: 'user@flipt.io' }))).toMatchObject({ value: 'variant_001', reason: 'TARGETING_MATCH' });
      expect(ok(await evaluate('flag_using_entity_id', { targetingKey: 'someone@else' }))).toMatchObject({ value: '', reason: 'UNKNOWN' });
    });

    it('typed contexts: numbers and booleans are compared as their text', async () => {
      expect(ok(await evaluate('adults', { age: 21, subscriber: true }))).toMatchObject({ value: 'yes', reason: 'TARGETING_MATCH' });
      expect(ok(await evaluate('adults', { age: 12 }))).toMatchObject({ value: '', reason: 'UNKNOWN' });
    });

    it('an empty body is an empty context', async () => {
      const r = await api.post(SINGLE('with_default'), '');
      expect({ status: r.status, value: r.body.value }).toEqual({ status: 200, value: 'red' });
    });

    it('malformed JSON → 400 PARSE_ERROR; a context that is not an object → 400 INVALID_CONTEXT', async () => {
      const r = await api.post(SINGLE('colour'), '{"context":');
      expect({ status: r.status, body: r.body }).toEqual({
        status: 400, body: { key: 'colour', errorCode: 'PARSE_ERROR', errorDetails: expect.stringMatching(/^invalid JSON in request body: /) },
      });
      expectOfrepError(await api.post(SINGLE('colour'), { context: ['a'] }), 400, {
        key: 'colour', errorCode: 'INVALID_CONTEXT', errorDetails: 'invalid values for key(s) in json body: context must be an object',
      });
      expectOfrepError(await api.post(SINGLE('colour'), '[]'), 400, {
        key: 'colour', errorCode: 'INVALID_CONTEXT', errorDetails: 'invalid values for key(s) in json body: the request must be a JSON object',
      });
    });

    it('namespace from X-Flipt-Namespace or X-Flagpole-Namespace; disagreeing headers are refused', async () => {
      const expected = { key: 'prod_only', reason: 'DEFAULT', variant: 'true', metadata: {}, value: true };
      expect(ok(await api.post(SINGLE('prod_only'), {}, { 'x-flipt-namespace': 'prod' }))).toEqual(expected);
      expect(ok(await api.post(SINGLE('prod_only'), {}, { 'x-flagpole-namespace': 'prod' }))).toEqual(expected);
      expect(ok(await api.post(SINGLE('prod_only'), {}, { 'x-flipt-namespace': 'prod', 'x-flagpole-namespace': 'prod' }))).toEqual(expected);
      expect((await api.post(SINGLE('prod_only'), {})).status).toBe(404);
      expectOfrepError(await api.post(SINGLE('prod_only'), {}, { 'x-flipt-namespace': 'prod', 'x-flagpole-namespace': 'default' }), 400, {
        key: 'prod_only', errorCode: 'INVALID_CONTEXT', errorDetails: 'X-Flipt-Namespace and X-Flagpole-Namespace name different namespaces',
      });
      expectOfrepError(await api.post(SINGLE('prod_only'), {}, { 'x-flipt-namespace': 'nowhere' }), 404, {
        key: 'prod_only', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found prod_only',
      });
    });
  });

  describe('bulk evaluation', () => {
    it('lists every boolean flag and every enabled variant flag in creation order, with an ETag', async () => {
      const r = await api.post(BULK, { context: { targetingKey: FIXED, in_segment: 'segment_005' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('etag')).toMatch(ETAG);
      expect(r.body.flags.map((f: { key: string }) => f.key)).toEqual(LISTED);
      expect(r.body.flags[0]).toEqual({ key: 'flag_001', reason: 'TARGETING_MATCH', variant: 'variant_002', metadata: { segments: 'segment_005' }, value: 'variant_002' });
    });

    it('context.flags selects keys (disabled variant flags too); a flag that cannot be evaluated fails inside the list', async () => {
      const r = ok(await api.post(BULK, { context: { targetingKey: FIXED, flags: ' flag_disabled , idontexist,colour' } }));
      expect(r).toEqual({
        eventStreams: [{ type: 'sse', endpoint: { requestUri: '/ofrep/v1/_stream/default/events' }, inactivityDelaySec: 120 }],
        flags: [
          { key: 'flag_disabled', reason: 'DISABLED', variant: '', metadata: {}, value: '' },
          { key: 'idontexist', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found idontexist' },
          { key: 'colour', reason: 'TARGETING_MATCH', variant: 'blue', metadata: { segments: 'everyone', attachment: '{"hex":"#00f"}' }, value: 'blue' },
        ],
      });
    });

    it('If-None-Match with the current ETag → 304, no body, nothing evaluated; another context → another ETag', async () => {
      const context = { targetingKey: 'u1', plan: 'pro' };
      const first = await api.post(BULK, { context });
      const etag = first.headers.get('etag')!;
      const again = await api.post(BULK, { context: { plan: 'pro', targetingKey: 'u1' } }, { 'if-none-match': etag });
      expect({ status: again.status, text: again.text, etag: again.headers.get('etag') }).toEqual({ status: 304, text: '', etag });
      const other = await api.post(BULK, { context: { targetingKey: 'u2', plan: 'pro' } }, { 'if-none-match': etag });
      expect(other.status).toBe(200);
      expect(other.headers.get('etag')).toMatch(ETAG);
      expect(other.headers.get('etag')).not.toBe(etag);
      const selected = await api.post(BULK, { context: { ...context, flags: 'colour' } }, { 'if-none-match': etag });
      expect(selected.status).toBe(200);
    });

    it('a write to the namespace changes the ETag and the answer; a write elsewhere does not', async () => {
      const live = { 'x-flipt-namespace': 'live' };
      const context = { targetingKey: 'u1' };
      const before = await api.post(BULK, { context }, live);
      expect(before.body.flags).toEqual([{ key: 'switch', reason: 'DEFAULT', variant: 'true', metadata: {}, value: true }]);
      const etag = before.headers.get('etag')!;
      expect((await api.post(BULK, { context }, { ...live, 'if-none-match': etag })).status).toBe(304);

      ok(await api.put('/api/v1/namespaces/live/flags/switch', { name: 'switch', enabled: false }));
      const after = await api.post(BULK, { context }, { ...live, 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.body.flags).toEqual([{ key: 'switch', reason: 'DEFAULT', variant: 'false', metadata: {}, value: false }]);
      const changed = after.headers.get('etag')!;
      expect(changed).toMatch(ETAG);
      expect(changed).not.toBe(etag);

      ok(await api.post('/api/v1/namespaces/prod/flags', { key: 'elsewhere', name: 'elsewhere', type: 'BOOLEAN_FLAG_TYPE' }));
      expect((await api.post(BULK, { context }, { ...live, 'if-none-match': changed })).status).toBe(304);
    });

    it('the namespace headers select the namespace; an unknown namespace lists nothing', async () => {
      const prod = ok(await api.post(BULK, {}, { 'x-flagpole-namespace': 'prod' }));
      expect(prod.flags.map((f: { key: string }) => f.key)).toContain('prod_only');
      const unknown = await api.post(BULK, {}, { 'x-flipt-namespace': 'nowhere' });
      expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 200, body: { flags: [] } });
      expect(unknown.headers.get('etag')).toMatch(ETAG);
    });

    it('bulk errors carry no key: PARSE_ERROR, INVALID_CONTEXT', async () => {
      const r = await api.post(BULK, '{"context":{');
      expect({ status: r.status, body: r.body }).toEqual({
        status: 400, body: { errorCode: 'PARSE_ERROR', errorDetails: expect.stringMatching(/^invalid JSON in request body: /) },
      });
      expectOfrepError(await api.post(BULK, { context: { flags: ['colour'] } }), 400, {
        errorCode: 'INVALID_CONTEXT', errorDetails: 'invalid values for key(s) in json body: context.flags must be a string of comma-separated flag keys',
      });
      const many = Array.from({ length: 1001 }, (_, i) => `f${i}`).join(',');
      expectOfrepError(await api.post(BULK, { context: { flags: many } }), 400, {
        errorCode: 'INVALID_CONTEXT', errorDetails: 'invalid field context.flags: may name at most 1000 flags (limits.max_batch_requests)',
      });
    });
  });

  it('GET /ofrep/v1/configuration as Flipt serves it (cache off: no polling advertised)', async () => {
    expect(ok(await api.get('/ofrep/v1/configuration'))).toEqual({
      name: 'flagpole',
      capabilities: { cacheInvalidation: { polling: { enabled: false, minPollingIntervalMs: 0 } }, flagEvaluation: { supportedTypes: ['string', 'boolean'] } },
    });
  });

  it('counts OFREP evaluations in the evaluation metrics', async () => {
    await buildNamespace(api, { key: 'metered', flags: [{ key: 'm', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
    const ns = { 'x-flipt-namespace': 'metered' };
    for (let i = 0; i < 2; i++) ok(await api.post(SINGLE('m'), { context: { targetingKey: `u${i}` } }, ns));
    ok(await api.post(BULK, { context: { targetingKey: 'u9' } }, ns));
    expect((await api.post(SINGLE('gone'), {}, ns)).status).toBe(404);
    const text = (await api.get('/metrics')).text;
    const value = (line: string) => Number(text.split('\n').find((l) => l.startsWith(line))?.split(' ').pop());
    expect(value('flagpole_evaluations_requests_total{namespace="metered",flag="m"}')).toBe(3);
    expect(value('flagpole_evaluations_errors_total{namespace="metered",flag="_unknown"}')).toBe(1);
    expect(value('flagpole_evaluations_latency_milliseconds_count{namespace="metered"}')).toBe(2);
  });
});

describe('OFREP authentication', () => {
  describe('required', () => {
    let fp: RunningFlagpole;
    let api: Api;
    let prodToken: string;

    beforeAll(async () => {
      fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_CACHE_ENABLED: 'true', FLAGPOLE_CACHE_TTL: '30s' });
      api = client(fp.url);
      const admin = client(fp.url, bearer(BOOTSTRAP));
      await buildNamespace(admin, { key: 'prod', flags: [{ key: 'p', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
      await buildNamespace(admin, { key: 'default', flags: [{ key: 'd', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
      prodToken = (await createToken(api, { name: 'prod only', namespaceKey: 'prod' })).clientToken;
    });
    afterAll(() => fp?.close());

    it('401 without a body on every OFREP route; the other routes keep Flipt\'s body', async () => {
      expectNoBody(await api.post(SINGLE('d'), { context: {} }), 401);
      expectNoBody(await api.post(BULK, { context: {} }), 401);
      expectNoBody(await api.get('/ofrep/v1/configuration'), 401);
      expectNoBody(await api.post(SINGLE('d'), { context: {} }, bearer('not-a-token')), 401);
      // Refused before the body is read, so a malformed body changes nothing.
      expectNoBody(await api.post(SINGLE('d'), '{"context":'), 401);
      expectUnauthenticated(await api.post('/evaluate/v1/boolean', { flagKey: 'd', entityId: 'e' }));
    });

    it('a valid token evaluates; the configuration advertises polling at the cache TTL', async () => {
      expect(ok(await api.post(SINGLE('d'), { context: {} }, bearer(BOOTSTRAP)))).toMatchObject({ key: 'd', value: true });
      expect(ok(await api.get('/ofrep/v1/configuration', undefined, bearer(BOOTSTRAP))).capabilities.cacheInvalidation).toEqual({
        polling: { enabled: true, minPollingIntervalMs: 30_000 },
      });
    });

    it('a namespaced token works in its namespace only (named by either header); 401 without a body elsewhere', async () => {
      const token = bearer(prodToken);
      expect(ok(await api.post(SINGLE('p'), { context: {} }, { ...token, 'x-flipt-namespace': 'prod' }))).toMatchObject({ key: 'p', value: true });
      expect(ok(await api.post(BULK, { context: {} }, { ...token, 'x-flagpole-namespace': 'prod' })).flags).toHaveLength(1);
      expect((await api.get('/ofrep/v1/configuration', undefined, { ...token, 'x-flipt-namespace': 'prod' })).status).toBe(200);
      expectNoBody(await api.post(SINGLE('d'), { context: {} }, token), 401);
      expectNoBody(await api.post(BULK, { context: {} }, { ...token, 'x-flipt-namespace': 'default' }), 401);
      expectNoBody(await api.post(SINGLE('p'), { context: {} }, { ...token, 'x-flipt-namespace': 'prod', 'x-flagpole-namespace': 'default' }), 401);
    });
  });

  it('authentication.exclude.ofrep opens OFREP, and only OFREP', async () => {
    const fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_AUTHENTICATION_EXCLUDE_OFREP: 'true' });
    try {
      const api = client(fp.url);
      ok(await client(fp.url, bearer(BOOTSTRAP)).post('/api/v1/namespaces/default/flags', { key: 'd', name: 'd', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
      expect(ok(await api.post(SINGLE('d'), { context: {} }))).toMatchObject({ key: 'd', value: true });
      expect(ok(await api.post(BULK, { context: {} })).flags).toHaveLength(1);
      expect((await api.get('/ofrep/v1/configuration')).status).toBe(200);
      expectUnauthenticated(await api.post('/evaluate/v1/boolean', { flagKey: 'd', entityId: 'e' }));
      expectUnauthenticated(await api.get('/api/v1/namespaces'));
    } finally {
      await fp.close();
    }
  });
});

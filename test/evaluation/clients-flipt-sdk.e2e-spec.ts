/**
 * @flipt-io/flipt 1.5.0 (Flipt's server SDK), unchanged, against Flagpole (clients.md A1): evaluation.variant /
 * boolean / batch and flags.listFlags, with the expectations of the SDK's own integration test, its text/plain
 * bodies and snake_case `request_id`, and its error handling (it throws `body.message`).
 */
import { ClientTokenAuthentication, FliptClient } from '@flipt-io/flipt';
import { RunningFlagpole } from '../support/flagpole';
import { startWithData, STORAGES } from '../support/file-backed';
import { buildNamespace, recordingProxy, RecordingProxy, RFC3339_UTC, UUID_V4 } from './fixtures';

describe.each(STORAGES)('@flipt-io/flipt server SDK, flag state in %s', (storage) => {
  let fp: RunningFlagpole;
  let proxy: RecordingProxy;
  let sdk: FliptClient;

  beforeAll(async () => {
    // the data of the SDK's integration test (flipt-server-sdks src/integration.test.ts)
    fp = await startWithData(storage, (api) => buildNamespace(api, {
      key: 'default',
      segments: [{ key: 'segment1', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'fizz', operator: 'eq', value: 'buzz' }] }],
      flags: [
        { key: 'flag1', name: 'Flag 1', variants: [{ key: 'variant1', attachment: '{"a":1}' }], rules: [{ segments: ['segment1'], distributions: [['variant1', 100]] }] },
        { key: 'flag_boolean', name: 'Flag Boolean', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ segment: { segments: ['segment1'], value: true } }] },
        { key: 'flag3', name: 'Flag 3', enabled: false },
      ],
    }));
    proxy = await recordingProxy(fp.url);
    sdk = new FliptClient({
      url: proxy.url,
      authenticationStrategy: new ClientTokenAuthentication('some-token'),
      headers: { 'x-custom-header': 'custom-value' },
      timeout: 10,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await fp?.close();
  });

  it('variant', async () => {
    const variant = await sdk.evaluation.variant({ namespaceKey: 'default', flagKey: 'flag1', entityId: 'entity', context: { fizz: 'buzz' } });
    expect(variant.flagKey).toEqual('flag1');
    expect(variant.match).toEqual(true);
    expect(variant.reason).toEqual('MATCH_EVALUATION_REASON');
    expect(variant.variantKey).toEqual('variant1');
    expect(variant.variantAttachment).toEqual('{"a":1}');
    expect(variant.segmentKeys).toContain('segment1');
    expect(typeof variant.requestDurationMillis).toBe('number');
    expect(variant.timestamp).toMatch(RFC3339_UTC);
  });

  it('boolean', async () => {
    const boolean = await sdk.evaluation.boolean({ namespaceKey: 'default', flagKey: 'flag_boolean', entityId: 'entity', context: { fizz: 'buzz' } });
    expect(boolean.flagKey).toEqual('flag_boolean');
    expect(boolean.enabled).toEqual(true);
    expect(boolean.reason).toEqual('MATCH_EVALUATION_REASON');
    expect(boolean.segmentKeys).toContain('segment1');
    const fallback = await sdk.evaluation.boolean({ namespaceKey: 'default', flagKey: 'flag_boolean', entityId: 'entity', context: {} });
    expect(fallback).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });
  });

  it('batch (variant, boolean, not found)', async () => {
    const batch = await sdk.evaluation.batch({
      requests: [
        { namespaceKey: 'default', flagKey: 'flag1', entityId: 'entity', context: { fizz: 'buzz' } },
        { namespaceKey: 'default', flagKey: 'flag_boolean', entityId: 'entity', context: { fizz: 'buzz' } },
        { namespaceKey: 'default', flagKey: 'notfound', entityId: 'entity', context: {} },
      ],
    });
    expect(batch.responses).toHaveLength(3);
    expect(batch.requestId).toMatch(UUID_V4);
    expect(batch.responses[0].type).toEqual('VARIANT_EVALUATION_RESPONSE_TYPE');
    expect(batch.responses[0].variantResponse).toMatchObject({ flagKey: 'flag1', match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: 'variant1' });
    expect(batch.responses[0].variantResponse!.segmentKeys).toContain('segment1');
    expect(batch.responses[1].type).toEqual('BOOLEAN_EVALUATION_RESPONSE_TYPE');
    expect(batch.responses[1].booleanResponse).toMatchObject({ flagKey: 'flag_boolean', enabled: true, reason: 'MATCH_EVALUATION_REASON' });
    expect(batch.responses[2].type).toEqual('ERROR_EVALUATION_RESPONSE_TYPE');
    expect(batch.responses[2].errorResponse).toEqual({ flagKey: 'notfound', namespaceKey: 'default', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
  });

  it('batch with the SDK’s snake_case request_id', async () => {
    const batch = await sdk.evaluation.batch({ request_id: 'sdk-batch-1', requests: [{ namespaceKey: 'default', flagKey: 'flag1', entityId: 'e', context: {} }] } as any);
    expect(batch.requestId).toBe('sdk-batch-1');
  });

  it('sends JSON as text/plain with its custom and auth headers, and Flagpole reads it', () => {
    const posts = proxy.exchanges.filter((e) => e.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    for (const e of posts) {
      expect(e.requestHeaders['content-type']).toBe('text/plain;charset=UTF-8');
      expect(e.requestHeaders['x-custom-header']).toBe('custom-value');
      expect(e.requestHeaders.authorization).toBe('Bearer some-token');
      expect(e.status).toBe(200);
    }
    expect(posts.map((e) => e.url)).toEqual(expect.arrayContaining(['/evaluate/v1/variant', '/evaluate/v1/boolean', '/evaluate/v1/batch']));
  });

  it('listFlags', async () => {
    const response = await sdk.flags.listFlags('default');
    expect(response.flags.length).toBe(3);
    const flag1 = response.flags.find((f) => f.key === 'flag1');
    expect(flag1).toMatchObject({ enabled: true, type: 'VARIANT_FLAG_TYPE', namespaceKey: 'default' });
    expect(flag1!.variants.map((v) => v.key)).toEqual(['variant1']);
    expect(response.flags.find((f) => f.key === 'flag_boolean')).toMatchObject({ enabled: false, type: 'BOOLEAN_FLAG_TYPE' });
    expect(response.totalCount).toBe(3);
  });

  it('listFlags pages with limit and pageToken (and passes reference)', async () => {
    // Creation order; from files all flags are created at once, and list by key (as Flipt's declarative storage lists).
    const order = storage === 'database' ? ['flag1', 'flag_boolean', 'flag3'] : ['flag1', 'flag3', 'flag_boolean'];
    const first = await sdk.flags.listFlags('default', { limit: 2, reference: 'main' });
    expect(first.flags.map((f) => f.key)).toEqual(order.slice(0, 2));
    expect(first.nextPageToken).not.toBe('');
    const second = await sdk.flags.listFlags('default', { limit: 2, pageToken: first.nextPageToken });
    expect(second.flags.map((f) => f.key)).toEqual(order.slice(2));
    expect(second.nextPageToken).toBe('');
    const listCall = proxy.exchanges.find((e) => e.url.includes('reference=main'));
    expect(listCall?.url).toBe('/api/v1/namespaces/default/flags?reference=main&limit=2');
  });

  it('errors surface as Error(message) from Flipt-shaped bodies', async () => {
    await expect(sdk.evaluation.variant({ namespaceKey: 'default', flagKey: 'nope', entityId: 'e', context: {} })).rejects.toThrow(
      new Error('flag "default/nope" not found'),
    );
    await expect(sdk.evaluation.boolean({ namespaceKey: 'default', flagKey: 'flag1', entityId: 'e', context: {} })).rejects.toThrow(
      new Error('flag type VARIANT_FLAG_TYPE invalid'),
    );
    await expect(sdk.evaluation.variant({ namespaceKey: 'default', flagKey: 'flag_boolean', entityId: 'e', context: {} })).rejects.toThrow(
      new Error('flag type BOOLEAN_FLAG_TYPE invalid'),
    );
    await expect(sdk.flags.listFlags('default', { limit: 1, pageToken: 'Hello World' })).rejects.toThrow('pageToken is not valid: "Hello World"');
  });
});

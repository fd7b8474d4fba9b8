import { createdTokenPayload, payloadFromAnswer, payloadFromRequest, subjectOf } from './audit-payloads';

describe("audit payloads in Flipt's shapes", () => {
  it('maps a rule answer with several segments as Flipt joins them', () => {
    const rule = payloadFromAnswer('rule', {
      id: 'r1', flagKey: 'f', segmentKey: '', segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2, namespaceKey: 'ns',
      distributions: [{ id: 'd1', ruleId: 'r1', variantId: 'v1', rollout: 50, createdAt: 'x' }],
    });
    expect(rule).toEqual({
      id: 'r1', flag_key: 'f', segment_key: 'a,b', segment_operator: 'AND_SEGMENT_OPERATOR', rank: 2, namespace_key: 'ns',
      distributions: [{ id: 'd1', rule_id: 'r1', variant_id: 'v1', rollout: 50 }],
    });
  });

  it('maps a flag with its default variant by key', () => {
    expect(payloadFromAnswer('flag', { key: 'f', name: 'F', description: '', enabled: true, namespaceKey: 'ns', defaultVariant: { key: 'on' }, variants: [] })).toEqual({
      key: 'f', name: 'F', description: '', enabled: true, namespace_key: 'ns', default_variant: 'on',
    });
  });

  it('spells request fields as Flipt does and leaves out empty ones', () => {
    expect(payloadFromRequest({ flagKey: 'f', id: '1', namespaceKey: 'ns', variantId: undefined })).toEqual({ flag_key: 'f', id: '1', namespace_key: 'ns' });
  });

  it('never puts the client token in a token payload', () => {
    const payload = createdTokenPayload({ body: { name: 'ci', description: 'd', namespaceKey: 'prod' } }, { clientToken: 'secret', authentication: { id: 'a1' } });
    expect(payload).toEqual({ id: 'a1', name: 'ci', description: 'd', namespace_key: 'prod' });
  });

  it('names the resource an event is about', () => {
    expect(subjectOf('variant', 'updated', { id: 'v1', flag_key: 'f' }, 'ns', {})).toEqual({ namespace: 'ns', flag: 'f', segment: null, resource: 'variant:ns/v1' });
    expect(subjectOf('distribution', 'created', { id: 'd1' }, 'ns', { flagKey: 'f' })).toMatchObject({ flag: 'f', resource: 'distribution:ns/d1' });
    expect(subjectOf('constraint', 'deleted', { id: 'c1', segment_key: 's' }, 'ns', {})).toMatchObject({ segment: 's', flag: null });
    expect(subjectOf('namespace', 'created', { key: 'prod' }, null, {})).toMatchObject({ namespace: 'prod', resource: 'namespace:prod' });
    expect(subjectOf('token', 'created', { id: 't' }, null, {})).toMatchObject({ namespace: null, resource: 'token:t' });
  });
});

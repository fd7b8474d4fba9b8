import { BOOLEAN_RESPONSE_SCHEMA, VARIANT_RESPONSE_SCHEMA } from './evaluation-response.schemas';

describe('serialiser schemas of the single answers', () => {
  it('list every field in the order Flagpole writes it, with types only', () => {
    expect(VARIANT_RESPONSE_SCHEMA).toEqual({
      type: 'object',
      properties: {
        match: { type: 'boolean' },
        segmentKeys: { type: 'array', items: { type: 'string' } },
        reason: { type: 'string' },
        variantKey: { type: 'string' },
        variantAttachment: { type: 'string' },
        requestId: { type: 'string' },
        requestDurationMillis: { type: 'number' },
        timestamp: { type: 'string' },
        flagKey: { type: 'string' },
      },
    });
    expect(Object.keys(BOOLEAN_RESPONSE_SCHEMA.properties!)).toEqual([
      'enabled', 'reason', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey', 'segmentKeys',
    ]);
  });
});

import { distributionBounds, selectDistribution, thresholdBucket, variantBucket } from './bucketing';

describe('variantBucket = crc32(flagKey + entityId) % 1000', () => {
  it.each<[string, string, number]>([
    // facts §6.4, consistent with Flipt's integration tests
    ['flag_001', 'some-fixed-entity-id', 553],
    ['flag_002', 'some-fixed-entity-id', 378],
    ['flag_variant_and_segments', 'some-fixed-entity-id', 531],
    // clients.md A3.6
    ['variant-5050', 'user-1', 747],
    ['variant-5050', 'user-3', 279],
    ['variant-5050', 'user-7', 990],
  ])('%s + %s → %p', (flagKey, entityId, bucket) => {
    expect(variantBucket(flagKey, entityId)).toBe(bucket);
  });

  it('hashes UTF-8 bytes', () => {
    // "é" is two bytes in UTF-8; a Latin-1 hash would differ
    expect(variantBucket('f', 'é')).toBe(variantBucket('fé', ''));
    expect(variantBucket('f', 'é')).not.toBe(variantBucket('f', 'e'));
  });
});

describe('thresholdBucket = crc32(entityId + flagKey) % 100', () => {
  it.each<[string, string, number]>([
    ['fixed', 'flag_boolean', 9],
    ['hello', 'flag_boolean', 96],
    ['fixed', 'boolean_disabled', 38],
    ['beover50', 'boolean_disabled', 99],
    ['', 'flag_boolean_no_constraints', 95],
    ['user-1', 'bool-threshold-50', 42],
    ['user-2', 'bool-threshold-50', 80],
  ])('%j + %s → %p', (entityId, flagKey, bucket) => {
    expect(thresholdBucket(entityId, flagKey)).toBe(bucket);
  });
});

describe('distributionBounds', () => {
  it.each<[number[], number[]]>([
    [[50, 50], [500, 1000]],
    [[100], [1000]],
    [[33.33, 33.33, 33.34], [333, 666, 999]], // truncation loses bucket 999
    [[33.34], [333]], // float32(33.34) * 10 = 333.4 → 333
    [[0.05, 99.95], [0, 999]],
    [[25, 25], [250, 500]], // sum below 100 leaves buckets 500–999 unmatched
    [[60, 60], [600, 1200]], // sum above 100: the second variant gets only 400 buckets
    [[12.3, 45.6, 42.1], [123, 579, 1000]],
  ])('%j → %j', (rollouts, bounds) => {
    expect(distributionBounds(rollouts)).toEqual(bounds);
  });
});

describe('selectDistribution: first bound above the bucket', () => {
  it.each<[number[], number, number]>([
    [[500, 1000], 0, 0],
    [[500, 1000], 499, 0],
    [[500, 1000], 500, 1],
    [[500, 1000], 999, 1],
    [[333, 666, 999], 999, -1],
    [[250, 500], 500, -1],
    [[0, 999], 0, 1], // an empty range is never chosen
    [[], 0, -1],
  ])('bounds %j, bucket %p → %p', (bounds, bucket, index) => {
    expect(selectDistribution(bounds, bucket)).toBe(index);
  });
});

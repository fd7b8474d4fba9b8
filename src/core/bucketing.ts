/**
 * Consistent hashing exactly as Flipt does it, so that an entity lands in the same variant / threshold bucket on
 * Flagpole as on Flipt and in Flipt's client-side engines. Note the two hashes concatenate in opposite orders.
 */
import { crc32 } from 'node:zlib';

export const VARIANT_BUCKET_COUNT = 1000;
export const THRESHOLD_BUCKET_COUNT = 100;

/** Bucket in [0, 1000) for variant distributions: crc32(utf8(flagKey + entityId)) mod 1000. */
export function variantBucket(flagKey: string, entityId: string): number {
  return crc32(flagKey + entityId) % VARIANT_BUCKET_COUNT;
}

/** Bucket in [0, 100) for boolean threshold rollouts: crc32(utf8(entityId + flagKey)) mod 100. */
export function thresholdBucket(entityId: string, flagKey: string): number {
  return crc32(entityId + flagKey) % THRESHOLD_BUCKET_COUNT;
}

/**
 * Cumulative upper bounds of the distributions' bucket ranges. Each share is computed in float32 and truncated
 * (33.34 → 333), because Flipt multiplies float32 rollouts by a float32 10; shares therefore need not add up to
 * 1000, and buckets past the last bound belong to no variant.
 */
export function distributionBounds(rollouts: readonly number[]): number[] {
  const bounds: number[] = [];
  let total = 0;
  for (const rollout of rollouts) {
    total += Math.trunc(Math.fround(Math.fround(rollout) * 10));
    bounds.push(total);
  }
  return bounds;
}

/** Index of the first bound above `bucket`, or -1 when the bucket lies beyond every bound (no variant). */
export function selectDistribution(bounds: readonly number[], bucket: number): number {
  for (let i = 0; i < bounds.length; i++) {
    if (bounds[i] > bucket) return i;
  }
  return -1;
}

/**
 * Rules and segment rollouts name their segments the same way: the deprecated `segmentKey` or `segmentKeys`, never
 * both. Keys are de-duplicated (first occurrence wins) and one segment always means the OR operator.
 */
import { ValidationError } from '../common/errors';
import { maxLength } from '../common/validation';
import { SegmentOperator } from '../wire';

const FIELD = 'segmentKey or segmentKeys';

export interface SegmentRefs {
  keys: string[];
  operator: number;
}

export function resolveSegmentRefs(segmentKey: string | undefined, segmentKeys: string[] | undefined, operator: number | undefined): SegmentRefs {
  const single = segmentKey ?? '';
  const many = segmentKeys ?? [];
  if (single === '' && many.length === 0) throw new ValidationError(FIELD, 'must not be empty');
  if (single !== '' && many.length > 0) throw new ValidationError(FIELD, 'only one can be present');
  const keys = [...new Set(single !== '' ? [single] : many)];
  if (keys.some((k) => k === '')) throw new ValidationError('segmentKeys', 'must not contain empty keys');
  keys.forEach((k) => maxLength('segmentKeys', k));
  return { keys, operator: keys.length === 1 ? SegmentOperator.OR : (operator ?? SegmentOperator.OR) };
}

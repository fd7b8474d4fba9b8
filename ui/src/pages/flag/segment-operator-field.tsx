import type { SegmentOperator } from '../../api/types';

/** OR / AND between the segments of a rule or rollout; only meaningful with two or more segments. */
export function SegmentOperatorField({ value, onChange, count }: { value: SegmentOperator; onChange(v: SegmentOperator): void; count: number }) {
  return (
    <fieldset className="inline-radios" disabled={count < 2}>
      <legend>Match when</legend>
      <label>
        <input type="radio" checked={value === 'OR_SEGMENT_OPERATOR'} onChange={() => onChange('OR_SEGMENT_OPERATOR')} /> any segment matches (OR)
      </label>
      <label>
        <input type="radio" checked={value === 'AND_SEGMENT_OPERATOR'} onChange={() => onChange('AND_SEGMENT_OPERATOR')} /> all segments match (AND)
      </label>
      {count < 2 && <p className="hint">Add a second segment to choose.</p>}
    </fieldset>
  );
}

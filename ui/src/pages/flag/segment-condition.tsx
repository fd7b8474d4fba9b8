import { Fragment } from 'react';
import type { SegmentOperator } from '../../api/types';

/** "segment a OR segment b": the segments of a rule or rollout and how they combine. */
export function SegmentCondition({ keys, operator }: { keys: string[]; operator: SegmentOperator }) {
  const word = operator === 'AND_SEGMENT_OPERATOR' ? 'and' : 'or';
  return (
    <span className="condition">
      {keys.map((k, i) => (
        <Fragment key={k}>
          {i > 0 && <span className="operator">{word}</span>}
          <span className="segment-key">{k}</span>
        </Fragment>
      ))}
    </span>
  );
}

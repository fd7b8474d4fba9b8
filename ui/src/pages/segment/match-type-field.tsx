import type { MatchType } from '../../api/types';

export function MatchTypeField({ value, onChange }: { value: MatchType; onChange(v: MatchType): void }) {
  return (
    <fieldset className="inline-radios">
      <legend>An entity is in the segment when it matches</legend>
      <label>
        <input type="radio" checked={value === 'ALL_MATCH_TYPE'} onChange={() => onChange('ALL_MATCH_TYPE')} /> all constraints
      </label>
      <label>
        <input type="radio" checked={value === 'ANY_MATCH_TYPE'} onChange={() => onChange('ANY_MATCH_TYPE')} /> any constraint
      </label>
      <p className="hint">A segment without constraints matches every entity.</p>
    </fieldset>
  );
}

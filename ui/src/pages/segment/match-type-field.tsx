import type { MatchType } from '../../api/types';

/** All or any constraints; `locked` (the id of the reason) shows the choice without letting it change. */
export function MatchTypeField({ value, onChange, locked }: { value: MatchType; onChange(v: MatchType): void; locked?: string }) {
  return (
    <fieldset className="inline-radios" disabled={Boolean(locked)} aria-describedby={locked}>
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

/**
 * The console's context box: key/value rows, or a JSON object pasted as it is, with a "Rows | JSON" choice that
 * carries the context across. JSON that is not a context says why under the box; the page then refuses to evaluate.
 */
import { useId } from 'react';
import { Field } from '../../components/field';
import { KeyValueEditor } from '../../components/key-value-editor';
import { contextOfJson, switchView, type ContextDraft, type ContextView } from './context-json';

export function ContextInput({ draft, onChange }: { draft: ContextDraft; onChange(draft: ContextDraft): void }) {
  const name = useId();
  const problem = draft.view === 'json' ? contextOfJson(draft.json).problem : undefined;
  const choose = (view: ContextView) => {
    const next = switchView(draft, view);
    if (next) onChange(next);
  };
  return (
    <div className="context-input">
      <fieldset className="context-views">
        <legend className="visually-hidden">Enter the context as</legend>
        {(['rows', 'json'] as const).map((view) => (
          <label key={view}>
            <input
              type="radio"
              name={name}
              checked={draft.view === view}
              // Leaving JSON that is not a context would lose it: fix it first (the message under the box says so).
              disabled={view === 'rows' && Boolean(problem)}
              onChange={() => choose(view)}
            />
            {view === 'rows' ? 'Rows' : 'JSON'}
          </label>
        ))}
      </fieldset>
      {draft.view === 'rows' ? (
        <KeyValueEditor legend="Context" pairs={draft.pairs} onChange={(pairs) => onChange({ ...draft, pairs })} />
      ) : (
        <Field
          label="Context (JSON)"
          hint={<>An object of strings, e.g. <code>{'{"plan": "pro", "age": 30}'}</code>: numbers and booleans are sent as strings.</>}
          error={problem && `${problem.replace(/\.?$/, '.')} Fix it to evaluate or to go back to rows.`}
        >
          {(props) => (
            <textarea {...props} className="code" rows={7} spellCheck={false} value={draft.json} onChange={(e) => onChange({ ...draft, json: e.target.value })} />
          )}
        </Field>
      )}
    </div>
  );
}

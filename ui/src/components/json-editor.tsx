import { Field } from './field';

/** Why `text` is not JSON, or undefined when it is (or is empty: no attachment). */
export function jsonProblem(text: string): string | undefined {
  if (!text.trim()) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    return `Not valid JSON: ${(e as Error).message}`;
  }
}

/** A variant's attachment: any JSON value, checked as you type, with a button to indent it. */
export function JsonEditor({ label, value, onChange }: { label: string; value: string; onChange(text: string): void }) {
  const problem = jsonProblem(value);
  return (
    <Field label={label} hint="Any JSON value, e.g. {&quot;color&quot;: &quot;blue&quot;}. Leave empty for none." error={problem}>
      {(props) => (
        <div className="json-editor">
          <textarea {...props} className="code" rows={6} spellCheck={false} value={value} onChange={(e) => onChange(e.target.value)} />
          <button type="button" disabled={Boolean(problem) || !value.trim()} onClick={() => onChange(JSON.stringify(JSON.parse(value), null, 2))}>
            Format JSON
          </button>
        </div>
      )}
    </Field>
  );
}

export interface Pair {
  key: string;
  value: string;
}

/** Rows of key/value text boxes (an evaluation context), each row labelled for screen readers by its number. */
export function KeyValueEditor({ pairs, onChange, legend }: { pairs: Pair[]; onChange(pairs: Pair[]): void; legend: string }) {
  const set = (i: number, change: Partial<Pair>) => onChange(pairs.map((p, j) => (j === i ? { ...p, ...change } : p)));
  return (
    <fieldset className="key-values">
      <legend>{legend}</legend>
      {pairs.map((p, i) => (
        <div className="key-value-row" key={i}>
          <input aria-label={`Context key ${i + 1}`} placeholder="key" value={p.key} onChange={(e) => set(i, { key: e.target.value })} />
          <input aria-label={`Context value ${i + 1}`} placeholder="value" value={p.value} onChange={(e) => set(i, { value: e.target.value })} />
          <button type="button" className="icon" aria-label={`Remove context entry ${i + 1}`} onClick={() => onChange(pairs.filter((_, j) => j !== i))}>
            ×
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...pairs, { key: '', value: '' }])}>
        Add context entry
      </button>
    </fieldset>
  );
}

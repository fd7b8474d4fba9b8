/**
 * Values that are a list shown as one: separate items (chips), never joined by commas, since a comma may be part of
 * a value (`at,ch`, and keys allow commas). Used for constraint values and for lists in the audit trail. Spans with
 * list roles rather than `<ul>`, so that it may stand inside a sentence (`<p>`, `<ins>`) and still read as a list.
 */
export function ValueList({ label, items }: { label: string; items: readonly string[] }) {
  return (
    <span className="value-list" role="list" aria-label={label}>
      {items.map((item, i) => (
        <span role="listitem" key={i}>
          <code>{item}</code>
        </span>
      ))}
    </span>
  );
}

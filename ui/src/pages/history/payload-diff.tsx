/**
 * What one audit event did to its resource: for an update the fields that changed (old → new, added, removed); for a
 * create the values it was made with; for a delete what it was, from the stored `before`.
 */
import type { AuditEvent } from '../../api/audit';
import { diffPayloads, fieldsOf, formatLeaf, type DiffRow } from '../../lib/payload-diff';

/**
 * Fields a create's or delete's value list leaves out: what the event's heading says already (its key, the flag or
 * segment it belongs to), the namespace the page is about, and ids, which tell a reader nothing.
 */
const SAID_ELSEWHERE = ['namespace_key', 'id'];
const SAID_IN_HEADING: Record<string, string[]> = {
  flag: ['key'],
  segment: ['key'],
  namespace: ['key'],
  variant: ['key', 'flag_key'],
  constraint: ['segment_key'],
  rule: ['flag_key', 'rule_id'],
  rollout: ['flag_key'],
  distribution: ['rule_id'],
};
/** Longer value lists start folded, so that one big rule does not push the rest of the history off the screen. */
const OPEN_UP_TO = 6;

export function PayloadDiff({ event }: { event: AuditEvent }) {
  const { action, payload, before } = event;
  const skip = [...SAID_ELSEWHERE, ...(SAID_IN_HEADING[event.type] ?? [])];
  if (action === 'updated' && before) {
    const rows = diffPayloads(before, payload);
    if (rows.length === 0) return <p className="muted diff-note">No field changed.</p>;
    return <DiffList rows={rows} />;
  }
  if (action === 'deleted' && before) return <Values summary="What it was" fields={fieldsOf(before, skip)} />;
  const unknownBefore = action === 'created' ? undefined : `Its values before this ${action === 'deleted' ? 'deletion' : 'change'} are not recorded.`;
  return (
    <>
      {unknownBefore && <p className="muted diff-note">{unknownBefore}</p>}
      <Values summary={action === 'created' ? 'Created with' : action === 'deleted' ? 'Identified by' : 'Values now'} fields={fieldsOf(payload, skip)} />
    </>
  );
}

function Values({ summary, fields }: { summary: string; fields: Array<[string, unknown]> }) {
  if (fields.length === 0) return null;
  return (
    <details className="diff-values" open={fields.length <= OPEN_UP_TO}>
      <summary>
        {summary} ({fields.length} {fields.length === 1 ? 'field' : 'fields'})
      </summary>
      <dl className="diff">
        {fields.map(([field, value]) => (
          <div className="diff-row" key={field}>
            <dt>{field}</dt>
            <dd>
              <span className="diff-value">{formatLeaf(value)}</span>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function DiffList({ rows }: { rows: DiffRow[] }) {
  return (
    <dl className="diff" aria-label="Changes">
      {rows.map((row) => (
        <div className={`diff-row diff-${row.kind}`} key={row.field}>
          <dt>{row.field}</dt>
          <dd>
            <DiffValues row={row} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Old values struck through, both tinted, and words for screen readers, which announce neither. */
function DiffValues({ row }: { row: DiffRow }) {
  const old = (v: unknown) => (
    <del className="diff-value">
      <span className="visually-hidden">was </span>
      {formatLeaf(v)}
    </del>
  );
  const now = (v: unknown) => (
    <ins className="diff-value">
      <span className="visually-hidden">now </span>
      {formatLeaf(v)}
    </ins>
  );
  switch (row.kind) {
    case 'changed':
      return (
        <>
          {old(row.before)} <span aria-hidden="true" className="diff-arrow">→</span> {now(row.after)}
        </>
      );
    case 'added':
      return (
        <>
          <span className="diff-tag">added</span> {now(row.after)}
        </>
      );
    case 'removed':
      return (
        <>
          <span className="diff-tag">removed</span> {old(row.before)}
        </>
      );
  }
}

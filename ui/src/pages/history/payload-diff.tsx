/**
 * What one audit event did to its resource: for an update the fields that changed (old → new, added, removed); for a
 * create the values it was made with; for a delete what it was, from the stored `before`; for the lifecycle check's
 * `stale` and `unstale`, why the flag became potentially stale, or that it no longer is.
 */
import type { AuditEvent } from '../../api/audit';
import { kindLabel } from '../../lib/lifecycle';
import { StaleReasons } from '../lifecycle/lifecycle-words';
import { ValueList } from '../../components/value-list';
import { readablePayload, reorderedIds, rolloutName, ruleName, type AuditNames } from '../../lib/audit-names';
import { diffPayloads, fieldsOf, formatLeaf, ItemsLeaf, type DiffRow } from '../../lib/payload-diff';

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
  distribution: ['rule_id', 'rule', 'variant'],
};
/** Longer value lists start folded, so that one big rule does not push the rest of the history off the screen. */
const OPEN_UP_TO = 6;

export function PayloadDiff({ event, names }: { event: AuditEvent; names: AuditNames }) {
  const reorder = reorderedIds(event.payload);
  if (reorder) return <NewOrder event={event} names={names} />;
  const { action } = event;
  if (action === 'stale' || action === 'unstale') return <LifecycleChange event={event} />;
  // Names rather than ids, lists as lists, no empty `distributions []` (lib/audit-names.ts).
  const payload = readablePayload(event.type, event.payload, names) ?? {};
  const before = readablePayload(event.type, event.before, names);
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

/** The lifecycle check's verdict: the reasons in words (payload `{key, namespace_key, kind, reasons}`). */
function LifecycleChange({ event }: { event: AuditEvent }) {
  const { kind, reasons } = event.payload as { kind?: string; reasons?: unknown };
  const of = kind ? ` (${kindLabel(kind).toLowerCase()} flag)` : '';
  if (event.action === 'unstale') return <p className="diff-note">No longer potentially stale{of}.</p>;
  return (
    <div className="diff-values">
      <p className="diff-note">Found potentially stale{of}:</p>
      <StaleReasons reasons={Array.isArray(reasons) ? reasons.filter((r) => r && typeof r === 'object') : []} />
    </div>
  );
}

/**
 * A reorder: the new order of the rules (or rollouts) by their segments, and the order before when it is recorded. The
 * first reorder has no order before it on record; the order it replaced was the order of creation, so nothing is said.
 */
function NewOrder({ event, names }: { event: AuditEvent; names: AuditNames }) {
  const now = reorderedIds(event.payload)!;
  const was = reorderedIds(event.before);
  const name = (id: unknown) => (now.what === 'rules' ? ruleName(id, names) : rolloutName(id, names));
  const list = (ids: unknown[], label: string) => (
    <ol className="audit-order" aria-label={label}>
      {ids.map((id, i) => (
        <li key={i}>{name(id)}</li>
      ))}
    </ol>
  );
  return (
    <div className="diff-values">
      <p className="diff-note">The {now.what} now apply in this order:</p>
      {list(now.ids, `New order of the ${now.what}`)}
      {was && (
        <details>
          <summary>Order before</summary>
          {list(was.ids, `Order of the ${now.what} before`)}
        </details>
      )}
    </div>
  );
}

/** A value: a list as separate items (a comma may be part of one), anything else as text. */
function Leaf({ field, value }: { field: string; value: unknown }) {
  return value instanceof ItemsLeaf ? <ValueList label={field} items={value.items} /> : <>{formatLeaf(value)}</>;
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
              <span className="diff-value">
                <Leaf field={field} value={value} />
              </span>
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
      <Leaf field={row.field} value={v} />
    </del>
  );
  const now = (v: unknown) => (
    <ins className="diff-value">
      <span className="visually-hidden">now </span>
      <Leaf field={row.field} value={v} />
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

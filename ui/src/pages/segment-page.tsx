/**
 * One segment: its details and its constraints; the History view, the audit trail's changes to both. When read-only,
 * or the caller may not change segments here, the same page shows them without letting them change.
 */
import { useState, type FormEvent } from 'react';
import { keys } from '../api/query-keys';
import { deleteConstraint, deleteSegment, getSegment, updateSegment, type SegmentInput } from '../api/segments';
import type { Constraint, Segment } from '../api/types';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { NotLoaded } from '../components/not-loaded';
import { useNotify } from '../components/notices';
import { StaleSaveDialog } from '../components/stale-save-dialog';
import { PageHeader } from '../components/page-header';
import { ActionsHeader, EditDeleteButtons } from '../components/row-actions';
import { currentView, detailsAndHistory, ViewTabs } from '../components/view-tabs';
import { useAction } from '../hooks/use-action';
import { useDraft } from '../hooks/use-draft';
import { useLoad } from '../hooks/use-load';
import { useStaleCheck } from '../hooks/use-stale-check';
import { operatorLabel, typeLabel } from '../lib/constraints';
import { nameProblem } from '../lib/keys';
import { navigate, path, useRoute } from '../routing/hash-router';
import { useLeaveGuard } from '../routing/leave-guards';
import { Link } from '../routing/link';
import { useLoadError, useLockNote, useLocks, useMayCopyOut, useWriteLock } from '../session/permissions';
import { useReadOnly } from '../session/read-only';
import { CopyDialog } from './copy-dialog';
import { HistorySection } from './history/history-section';
import { copySegment } from './segment/copy-segment';
import { ConstraintForm } from './segment/constraint-form';
import { ConstraintValue } from './segment/constraint-value';
import { MatchTypeField } from './segment/match-type-field';

export function SegmentPage({ ns, segmentKey }: { ns: string; segmentKey: string }) {
  const segment = useLoad(keys.segment(ns, segmentKey), (signal) => getSegment(ns, segmentKey, signal));
  const [deleting, setDeleting] = useState(false);
  const [copying, setCopying] = useState(false);
  const readOnly = useReadOnly();
  const locks = useLocks();
  const notify = useNotify();
  const deleteLock = useWriteLock('segment', 'delete', ns);
  const mayCopy = useMayCopyOut('segment', ns);
  const loadError = useLoadError('segment', ns, segment.error);
  const views = detailsAndHistory(path('namespaces', ns, 'segments', segmentKey), !locks('audit', 'read', ns));
  const view = currentView(useRoute().query, views);

  if (!segment.data) {
    const back = <Link to={path('namespaces', ns, 'segments')}>Back to the segments</Link>;
    return <NotLoaded title={segmentKey} what="segment" error={loadError} back={back} />;
  }
  const s = segment.data;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={path('namespaces', ns, 'segments')}>Segments</Link> / <span aria-current="page">{s.key}</span>
      </nav>
      <PageHeader
        title={s.name}
        subtitle={<span className="key">{s.key}</span>}
        actions={
          <>
            {mayCopy && (
              <button type="button" onClick={() => setCopying(true)} {...readOnly?.locked}>
                Copy to namespace
              </button>
            )}
            <button type="button" className="danger" onClick={() => setDeleting(true)} {...deleteLock?.locked}>
              Delete segment
            </button>
          </>
        }
      />
      <ViewTabs label={`Segment ${s.key}`} views={views} current={view} />
      {view === 'history' ? (
        <HistorySection
          ns={ns}
          filter={{ namespaceKey: ns, segmentKey: s.key }}
          subject={`segment ${s.key}`}
          hint="Changes to this segment and its constraints, newest first."
        />
      ) : (
        <>
          <SegmentDetails ns={ns} segment={s} onSaved={segment.set} />
          <ConstraintsSection ns={ns} segment={s} />
        </>
      )}
      {copying && <CopyDialog ns={ns} source={copySegment(s)} onClose={() => setCopying(false)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete segment ${s.key}?`}
          confirmLabel="Delete segment"
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await deleteSegment(ns, s.key);
            notify(`Segment ${s.key} deleted`);
            // Deleted: unsaved edits of its details have nothing left to be saved to.
            navigate(path('namespaces', ns, 'segments'), { force: true });
          }}
        >
          <p>A segment that rules or rollouts still use cannot be deleted: remove it from them first.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** Name, description and match type, saved with "Save details"; leaving with unsaved edits asks first. */
function SegmentDetails({ ns, segment, onSaved }: { ns: string; segment: Segment; onSaved(s: Segment): void }) {
  const { draft, setDraft, dirty } = useDraft<SegmentInput>({ key: segment.key, name: segment.name, description: segment.description, matchType: segment.matchType });
  const notify = useNotify();
  const { describedBy: locked, note } = useLockNote(useWriteLock('segment', 'update', ns));
  useLeaveGuard(dirty && !locked);
  const nameError = nameProblem(draft.name);
  const stale = useStaleCheck(segment, () => getSegment(ns, segment.key));
  const save = useAction(async (checked: boolean) => {
    if (checked && !(await stale.isCurrent())) return;
    onSaved(await updateSegment(ns, draft));
    notify(`Segment ${segment.key} saved`);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(true);
  };
  return (
    <section className="card" aria-labelledby="segment-details">
      <h2 id="segment-details">Details</h2>
      {note}
      <form className="form" onSubmit={submit}>
        <Field label="Name" describedBy={locked} error={locked ? undefined : nameError}>
          {(p) => <input {...p} required readOnly={Boolean(locked)} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />}
        </Field>
        <Field label="Description" describedBy={locked}>
          {(p) => (
            <textarea {...p} rows={2} readOnly={Boolean(locked)} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
          )}
        </Field>
        <MatchTypeField value={draft.matchType} onChange={(matchType) => setDraft({ ...draft, matchType })} locked={locked} />
        <ErrorMessage error={save.error} />
        {!locked && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={save.busy || !dirty || Boolean(nameError)}>
              Save details
            </button>
          </div>
        )}
      </form>
      {stale.newer && (
        <StaleSaveDialog
          what="segment"
          changedAt={stale.newer.updatedAt}
          busy={save.busy}
          onClose={stale.settle}
          onReload={() => {
            const newer = stale.newer as Segment;
            stale.settle();
            onSaved(newer);
            setDraft({ key: newer.key, name: newer.name, description: newer.description, matchType: newer.matchType });
          }}
          onOverwrite={() => void save.run(false).then(stale.settle)}
        />
      )}
    </section>
  );
}

function ConstraintsSection({ ns, segment }: { ns: string; segment: Segment }) {
  const [editing, setEditing] = useState<{ constraint?: Constraint }>();
  const [deleting, setDeleting] = useState<Constraint>();
  const notify = useNotify();
  const locks = useLocks();
  const addLock = locks('segment', 'create', ns);
  const canEdit = !locks('segment', 'update', ns);
  const canDelete = !locks('segment', 'delete', ns);
  return (
    <section className="card" aria-labelledby="constraints-heading">
      <div className="section-header">
        <h2 id="constraints-heading">Constraints</h2>
        <button type="button" onClick={() => setEditing({})} {...addLock?.locked}>
          Add constraint
        </button>
      </div>
      {segment.constraints.length === 0 ? (
        <p className="empty">No constraints: this segment matches every entity.</p>
      ) : (
        <div className="table-scroll">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Property</th>
                <th scope="col">Type</th>
                <th scope="col">Condition</th>
                <th scope="col">Description</th>
                {(canEdit || canDelete) && <ActionsHeader />}
              </tr>
            </thead>
            <tbody>
              {segment.constraints.map((c) => (
                <tr key={c.id}>
                  <td className="key">{c.property}</td>
                  <td>{typeLabel(c.type)}</td>
                  <td>
                    {operatorLabel(c.type, c.operator)} <ConstraintValue constraint={c} />
                  </td>
                  <td className="description">{c.description}</td>
                  {(canEdit || canDelete) && (
                    <td className="row-actions">
                      <EditDeleteButtons
                        what={`constraint on ${c.property}`}
                        onEdit={canEdit ? () => setEditing({ constraint: c }) : undefined}
                        onDelete={canDelete ? () => setDeleting(c) : undefined}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <ConstraintForm
          ns={ns}
          segmentKey={segment.key}
          constraint={editing.constraint}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            notify('Constraint saved');
            setEditing(undefined);
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete the constraint on ${deleting.property}?`}
          confirmLabel="Delete constraint"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await deleteConstraint(ns, segment.key, deleting.id);
            notify('Constraint deleted');
          }}
        >
          <p>
            {deleting.property} {operatorLabel(deleting.type, deleting.operator)} <ConstraintValue constraint={deleting} />
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

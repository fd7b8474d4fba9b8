/**
 * A boolean flag's rollouts, evaluated top to bottom: a threshold rollout (a percentage of entities) or a segment
 * rollout decides the value; when none matches, the flag's "Enabled" switch is the value.
 */
import { useState } from 'react';
import { keys } from '../../api/query-keys';
import { deleteRollout, listRollouts, orderRollouts } from '../../api/rollouts';
import { segmentKeysOf, type Flag, type Rollout, type Segment } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { useNotify } from '../../components/notices';
import { RankedItem } from '../../components/ranked-item';
import { useLoad } from '../../hooks/use-load';
import { useReorder } from '../../hooks/use-reorder';
import { RolloutForm } from './rollout-form';
import { useLocks } from '../../session/permissions';
import { SegmentCondition } from './segment-condition';

export function RolloutsSection({ ns, flag, segments }: { ns: string; flag: Flag; segments: Segment[] }) {
  const rollouts = useLoad(keys.rollouts(ns, flag.key), (signal) => listRollouts(ns, flag.key, signal));
  const [editing, setEditing] = useState<{ rollout?: Rollout }>();
  const [deleting, setDeleting] = useState<{ rollout: Rollout; index: number }>();
  const notify = useNotify();
  const locks = useLocks();
  const addLock = locks('flag', 'create', ns);
  const canEdit = !locks('flag', 'update', ns);
  const canDelete = !locks('flag', 'delete', ns);
  const reorder = useReorder(rollouts, (ids) => orderRollouts(ns, flag.key, ids), 'Rollout');
  const list = rollouts.data ?? [];

  return (
    <section className="card" aria-labelledby="rollouts-heading">
      <div className="section-header">
        <div>
          <h2 id="rollouts-heading">Rollouts</h2>
          <p className="hint">
            Evaluated from top to bottom; the first that applies decides. Otherwise the value is the flag's "Enabled" switch (now{' '}
            <strong>{flag.enabled ? 'true' : 'false'}</strong>).
          </p>
        </div>
        <button type="button" onClick={() => setEditing({})} {...addLock?.locked}>
          Add rollout
        </button>
      </div>
      <ErrorMessage error={rollouts.error ?? reorder.error} />
      {!rollouts.data && rollouts.loading && <Loading what="Loading rollouts" />}
      {rollouts.data && list.length === 0 && <p className="empty">No rollouts: every evaluation gets the default value.</p>}
      <ol className="ranked">
        {list.map((r, i) => (
          <RankedItem
            key={r.id}
            index={i}
            count={list.length}
            what="rollout"
            onMove={canEdit ? (a, b) => void reorder.run(a, b) : undefined}
            moving={reorder.busy}
            onEdit={canEdit ? () => setEditing({ rollout: r }) : undefined}
            onDelete={canDelete ? () => setDeleting({ rollout: r, index: i }) : undefined}
          >
            <RolloutSummary rollout={r} />
            {r.description && <p className="muted">{r.description}</p>}
          </RankedItem>
        ))}
      </ol>
      {editing && (
        <RolloutForm
          ns={ns}
          flagKey={flag.key}
          segments={segments}
          rollout={editing.rollout}
          nextRank={Math.max(0, ...list.map((r) => r.rank)) + 1}
          onClose={() => setEditing(undefined)}
          onSaved={() => notify(editing.rollout ? 'Rollout saved' : 'Rollout added')}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete rollout ${deleting.index + 1}?`}
          confirmLabel="Delete rollout"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await deleteRollout(ns, flag.key, deleting.rollout.id);
            notify('Rollout deleted');
          }}
        >
          <RolloutSummary rollout={deleting.rollout} />
        </ConfirmDialog>
      )}
    </section>
  );
}

function RolloutSummary({ rollout }: { rollout: Rollout }) {
  if (rollout.threshold) {
    return (
      <p>
        <span className="badge">Threshold</span> <strong>{rollout.threshold.percentage}%</strong> of entities get{' '}
        <strong>{String(rollout.threshold.value)}</strong>
      </p>
    );
  }
  const s = rollout.segment!;
  return (
    <p>
      <span className="badge">Segment</span> <span className="muted">If</span>{' '}
      <SegmentCondition keys={segmentKeysOf(s)} operator={s.segmentOperator} /> <span className="muted">then</span> <strong>{String(s.value)}</strong>
    </p>
  );
}

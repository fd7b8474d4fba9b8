/**
 * A boolean flag's rollouts, evaluated top to bottom: a threshold rollout (a percentage of entities) or a segment
 * rollout decides the value; when none matches, the flag's "Enabled" switch is the value. Listed, reordered and
 * deleted by ranked-section.tsx; edited in a dialog (rollout-form.tsx).
 */
import { keys } from '../../api/query-keys';
import { deleteRollout, listRollouts, orderRollouts } from '../../api/rollouts';
import { segmentKeysOf, type Flag, type Rollout, type Segment } from '../../api/types';
import { useLoad } from '../../hooks/use-load';
import { RankedSection } from './ranked-section';
import { RolloutForm } from './rollout-form';
import { SegmentCondition } from './segment-condition';

export function RolloutsSection({ ns, flag, segments }: { ns: string; flag: Flag; segments: Segment[] }) {
  const rollouts = useLoad(keys.rollouts(ns, flag.key), (signal) => listRollouts(ns, flag.key, signal));
  return (
    <RankedSection
      ns={ns}
      what="rollout"
      hint={
        <>
          Evaluated from top to bottom; the first that applies decides. Otherwise the value is the flag's "Enabled" switch (now{' '}
          <strong>{flag.enabled ? 'true' : 'false'}</strong>).
        </>
      }
      loaded={rollouts}
      saveOrder={(ids) => orderRollouts(ns, flag.key, ids)}
      remove={(rollout) => deleteRollout(ns, flag.key, rollout.id)}
      empty="No rollouts: every evaluation gets the default value."
      renderItem={(r) => (
        <>
          <RolloutSummary rollout={r} />
          {r.description && <p className="muted">{r.description}</p>}
        </>
      )}
      renderForm={({ item, ...form }) => <RolloutForm ns={ns} flagKey={flag.key} segments={segments} rollout={item} {...form} />}
      renderDeleting={(rollout) => <RolloutSummary rollout={rollout} />}
    />
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

/**
 * A variant flag's rules, evaluated top to bottom: the first whose segments match decides the variant. Reordered
 * with the up/down buttons (one `PUT …/rules/order`), edited in a dialog (rule-form.tsx).
 */
import { useState } from 'react';
import { keys } from '../../api/query-keys';
import { deleteRule, listRules, orderRules } from '../../api/rules';
import { segmentKeysOf, type Flag, type Rule, type Segment } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { useNotify } from '../../components/notices';
import { RankedItem } from '../../components/ranked-item';
import { useLoad } from '../../hooks/use-load';
import { useReorder } from '../../hooks/use-reorder';
import { RuleForm } from './rule-form';
import { useLocks } from '../../session/permissions';
import { SegmentCondition } from './segment-condition';
import { SplitWarning } from './split-warning';

export function RulesSection({ ns, flag, segments }: { ns: string; flag: Flag; segments: Segment[] }) {
  const rules = useLoad(keys.rules(ns, flag.key), (signal) => listRules(ns, flag.key, signal));
  const [editing, setEditing] = useState<{ rule?: Rule }>();
  const [deleting, setDeleting] = useState<{ rule: Rule; index: number }>();
  const notify = useNotify();
  const locks = useLocks();
  const addLock = locks('flag', 'create', ns);
  const canEdit = !locks('flag', 'update', ns);
  const canDelete = !locks('flag', 'delete', ns);
  const reorder = useReorder(rules, (ids) => orderRules(ns, flag.key, ids), 'Rule');
  const list = rules.data ?? [];
  const variantKey = (id: string) => flag.variants.find((v) => v.id === id)?.key ?? 'deleted variant';

  return (
    <section className="card" aria-labelledby="rules-heading">
      <div className="section-header">
        <div>
          <h2 id="rules-heading">Rules</h2>
          <p className="hint">Evaluated from top to bottom: the first rule whose segments match serves its variants.</p>
        </div>
        <button type="button" onClick={() => setEditing({})} disabled={segments.length === 0} {...addLock?.locked}>
          Add rule
        </button>
      </div>
      {segments.length === 0 && !addLock && <p className="hint">Rules target segments: create a segment first.</p>}
      <ErrorMessage error={rules.error ?? reorder.error} />
      {!rules.data && rules.loading && <Loading what="Loading rules" />}
      {rules.data && list.length === 0 && <p className="empty">No rules: every evaluation gets the default variant, if any.</p>}
      <ol className="ranked">
        {list.map((rule, i) => (
          <RankedItem
            key={rule.id}
            index={i}
            count={list.length}
            what="rule"
            onMove={canEdit ? (a, b) => void reorder.run(a, b) : undefined}
            moving={reorder.busy}
            onEdit={canEdit ? () => setEditing({ rule }) : undefined}
            onDelete={canDelete ? () => setDeleting({ rule, index: i }) : undefined}
          >
            <p>
              <span className="muted">If</span> <SegmentCondition keys={segmentKeysOf(rule)} operator={rule.segmentOperator} />
            </p>
            <p>
              <span className="muted">then serve</span>{' '}
              {rule.distributions.length === 0 ? (
                <em>no variant (the match is reported without one)</em>
              ) : (
                rule.distributions.map((d) => (
                  <span key={d.id} className="share">
                    <span className="key">{variantKey(d.variantId)}</span> {d.rollout}%
                  </span>
                ))
              )}
            </p>
            <SplitWarning rule={rule} />
          </RankedItem>
        ))}
      </ol>
      {editing && (
        <RuleForm
          ns={ns}
          flag={flag}
          segments={segments}
          rule={editing.rule}
          nextRank={Math.max(0, ...list.map((r) => r.rank)) + 1}
          onClose={() => setEditing(undefined)}
          onSaved={() => notify(editing.rule ? 'Rule saved' : 'Rule added')}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete rule ${deleting.index + 1}?`}
          confirmLabel="Delete rule"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await deleteRule(ns, flag.key, deleting.rule.id);
            notify('Rule deleted');
          }}
        >
          <p>
            Entities it matched fall through to the next rule. Segments: <SegmentCondition keys={segmentKeysOf(deleting.rule)} operator={deleting.rule.segmentOperator} />
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

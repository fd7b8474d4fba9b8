/**
 * A variant flag's rules, evaluated top to bottom: the first whose segments match decides the variant. Listed,
 * reordered and deleted by ranked-section.tsx; edited in a dialog (rule-form.tsx), or just their split, in place
 * (inline-split.tsx).
 */
import { keys } from '../../api/query-keys';
import { deleteRule, listRules, orderRules } from '../../api/rules';
import { segmentKeysOf, type Flag, type Segment } from '../../api/types';
import { useLoad } from '../../hooks/use-load';
import { RuleSplit } from './inline-split';
import { RankedSection } from './ranked-section';
import { RuleForm } from './rule-form';
import { SegmentCondition } from './segment-condition';

export function RulesSection({ ns, flag, segments }: { ns: string; flag: Flag; segments: Segment[] }) {
  const rules = useLoad(keys.rules(ns, flag.key), (signal) => listRules(ns, flag.key, signal));
  return (
    <RankedSection
      ns={ns}
      what="rule"
      hint="Evaluated from top to bottom: the first rule whose segments match serves its variants."
      loaded={rules}
      saveOrder={(ids) => orderRules(ns, flag.key, ids)}
      remove={(rule) => deleteRule(ns, flag.key, rule.id)}
      empty="No rules: every evaluation gets the default variant, if any."
      addBlocked={segments.length === 0 ? 'Rules target segments: create a segment first.' : undefined}
      renderItem={(rule, index, canEdit) => (
        <>
          <p>
            <span className="muted">If</span> <SegmentCondition keys={segmentKeysOf(rule)} operator={rule.segmentOperator} />
          </p>
          <RuleSplit
            ns={ns}
            flag={flag}
            rule={rule}
            position={index + 1}
            canEdit={canEdit}
            // The cache shows the saved split at once; the read that the writes set off confirms it.
            onSaved={(saved) => void rules.set((rules.data ?? []).map((r) => (r.id === saved.id ? saved : r)))}
          />
        </>
      )}
      renderForm={({ item, ...form }) => <RuleForm ns={ns} flag={flag} segments={segments} rule={item} {...form} />}
      renderDeleting={(rule) => (
        <p>
          Entities it matched fall through to the next rule. Segments: <SegmentCondition keys={segmentKeysOf(rule)} operator={rule.segmentOperator} />
        </p>
      )}
    />
  );
}

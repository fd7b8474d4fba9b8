/**
 * Marks a rule whose variant percentages do not add up to 100 %. The API checks each percentage but not their sum,
 * and deleting a variant deletes its shares: a rule left at 80 % serves no variant to a fifth of the entities it
 * matches, and one over 100 % never reaches its last variants. No distributions at all is a choice (the match is
 * reported without a variant), not a mistake. Where the split can be edited, the warning points at "Edit split".
 */
import type { Rule } from '../../api/types';
import { totalPercent } from '../../lib/distributions';

export function SplitWarning({ rule, editable }: { rule: Rule; editable: boolean }) {
  if (rule.distributions.length === 0) return null;
  const total = totalPercent(rule.distributions.map((d) => ({ variantId: d.variantId, percent: d.rollout })));
  if (total === 100) return null;
  const gap = Math.round((100 - total) * 100) / 100;
  return (
    <p className="notice-inline split-warning" role="note">
      <span aria-hidden="true">⚠</span> The percentages add up to {total}%, not 100%:{' '}
      {gap > 0
        ? `${gap}% of the entities this rule matches get no variant.`
        : 'the variants past 100% are never served.'}{' '}
      {editable ? 'Edit the split to fix it.' : 'Edit the rule to fix the split.'}
    </p>
  );
}

/**
 * The console's "which rule / rollout matched" line: loads the flag's rules or rollouts and names the one that gave
 * the answer (see matched-rule.ts), or says plainly when the answer does not tell.
 */
import type { ReactNode } from 'react';
import { keys } from '../../api/query-keys';
import { listRollouts } from '../../api/rollouts';
import { listRules } from '../../api/rules';
import { segmentKeysOf, type SegmentOperator } from '../../api/types';
import { useLoad, type Loaded } from '../../hooks/use-load';
import { path } from '../../routing/hash-router';
import { Link } from '../../routing/link';
import { rolloutThatAnswered, ruleThatAnswered } from './matched-rule';

interface FlagRef {
  ns: string;
  flagKey: string;
}

/** The rule of a variant match, from the segment keys the answer reported. */
export function MatchedRule({ ns, flagKey, segmentKeys }: FlagRef & { segmentKeys: string[] }) {
  const rules = useLoad(keys.rules(ns, flagKey), (signal) => listRules(ns, flagKey, signal));
  if (!rules.data) return <Pending what="rules" loaded={rules} />;
  const found = ruleThatAnswered(rules.data, segmentKeys);
  if (!found) return <p className="muted">No rule of this flag could give this answer now: its rules changed since.</p>;
  return (
    <Named ns={ns} flagKey={flagKey}>
      Matched rule {found.position}: <Condition keys={segmentKeysOf(found.item)} operator={found.item.segmentOperator} />
    </Named>
  );
}

/** The rollout of a boolean match, when the answer (value and segment keys) singles one out. */
export function MatchedRollout({ ns, flagKey, enabled, segmentKeys }: FlagRef & { enabled: boolean; segmentKeys: string[] }) {
  const rollouts = useLoad(keys.rollouts(ns, flagKey), (signal) => listRollouts(ns, flagKey, signal));
  if (!rollouts.data) return <Pending what="rollouts" loaded={rollouts} />;
  const finding = rolloutThatAnswered(rollouts.data, { enabled, segmentKeys });
  if ('none' in finding) return <p className="muted">No rollout of this flag could give this answer now: its rollouts changed since.</p>;
  if ('candidates' in finding) {
    return (
      <p className="muted" data-testid="result-rollout">
        The boolean answer does not name the rollout: any of the {finding.candidates} percentage rollouts that serve{' '}
        <strong>{String(enabled)}</strong> could have given it, by the entity's bucket.
      </p>
    );
  }
  const { item, position } = finding.found;
  return (
    <Named ns={ns} flagKey={flagKey} testId="result-rollout">
      Matched rollout {position}:{' '}
      {item.threshold ? (
        <>
          <strong>{item.threshold.percentage}%</strong> of entities get <strong>{String(item.threshold.value)}</strong>
        </>
      ) : (
        <>
          <Condition keys={segmentKeysOf(item.segment!)} operator={item.segment!.segmentOperator} /> <span className="muted">then</span>{' '}
          <strong>{String(item.segment!.value)}</strong>
        </>
      )}
    </Named>
  );
}

/**
 * "if segment beta", "if segments beta or staff": one run of text, so that the segment keys listed under Segments
 * stay the only elements on the card that say just a key.
 */
function Condition({ keys: segmentKeys, operator }: { keys: string[]; operator: SegmentOperator }) {
  const word = operator === 'AND_SEGMENT_OPERATOR' ? ' and ' : ' or ';
  return <span className="condition-text">{`if ${segmentKeys.length > 1 ? 'segments' : 'segment'} ${segmentKeys.join(word)}`}</span>;
}

function Named({ ns, flagKey, testId = 'result-rule', children }: FlagRef & { testId?: string; children: ReactNode }) {
  return (
    <>
      <p className="matched" data-testid={testId}>
        {children}
      </p>
      <Link className="hint" to={path('namespaces', ns, 'flags', flagKey)}>
        See it on the flag's page
      </Link>
    </>
  );
}

function Pending({ what, loaded }: { what: string; loaded: Loaded<unknown> }) {
  return <p className="muted">{loaded.error ? `Could not load the flag's ${what}: ${loaded.error}` : `Finding the ${what.slice(0, -1)}…`}</p>;
}

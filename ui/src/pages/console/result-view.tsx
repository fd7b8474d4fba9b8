/**
 * The console's answer card: what a client got (variant or enabled, or OFREP's value), why (the reason, and the rule
 * or rollout that matched), and the response as JSON.
 */
import { Fragment } from 'react';
import type { BooleanEvaluation, OfrepEvaluation, VariantEvaluation } from '../../api/types';
import { prettyJson } from '../../lib/json';
import { MatchedRollout, MatchedRule } from './matched-rule-view';

export type Answer =
  | { kind: 'variant'; r: VariantEvaluation }
  | { kind: 'boolean'; r: BooleanEvaluation }
  | { kind: 'ofrep'; r: OfrepEvaluation };

const REASONS: Record<string, string> = {
  MATCH_EVALUATION_REASON: 'A rule or rollout matched.',
  DEFAULT_EVALUATION_REASON: 'Nothing matched: the default was served.',
  FLAG_DISABLED_EVALUATION_REASON: 'The flag is disabled.',
  UNKNOWN_EVALUATION_REASON: 'Nothing matched and there is no default variant.',
  // OFREP's names for the same four.
  TARGETING_MATCH: 'A rule or rollout matched.',
  DEFAULT: "Nothing matched: the default variant, or the boolean flag's own value, was served.",
  DISABLED: 'The flag is disabled.',
  UNKNOWN: 'Nothing matched and there is no default variant.',
};

export function AnswerView({ ns, answer }: { ns: string; answer: Answer }) {
  return answer.kind === 'ofrep' ? <OfrepResultView ns={ns} r={answer.r} /> : <ResultView ns={ns} answer={answer} />;
}

function ResultView({ ns, answer }: { ns: string; answer: Exclude<Answer, { kind: 'ofrep' }> }) {
  const r = answer.r;
  const matched = answer.kind === 'variant' ? answer.r.match && r.segmentKeys.length > 0 : r.reason === 'MATCH_EVALUATION_REASON';
  return (
    <>
      <dl className="result-list">
        {answer.kind === 'variant' ? (
          <>
            <dt>Match</dt>
            <dd className={answer.r.match ? 'good' : ''}>{answer.r.match ? 'yes' : 'no'}</dd>
            <dt>Variant</dt>
            <dd className="key" data-testid="result-variant">{answer.r.variantKey || '—'}</dd>
          </>
        ) : (
          <>
            <dt>Enabled</dt>
            <dd className="key" data-testid="result-enabled">{String(answer.r.enabled)}</dd>
          </>
        )}
        <Reason reason={r.reason} />
        {matched && (
          <>
            <dt>{answer.kind === 'variant' ? 'Rule' : 'Rollout'}</dt>
            <dd>
              {answer.kind === 'variant' ? (
                <MatchedRule ns={ns} flagKey={r.flagKey} segmentKeys={r.segmentKeys} />
              ) : (
                <MatchedRollout ns={ns} flagKey={r.flagKey} enabled={answer.r.enabled} segmentKeys={r.segmentKeys} />
              )}
            </dd>
          </>
        )}
        <dt>Segments</dt>
        <dd>{r.segmentKeys.length ? r.segmentKeys.join(', ') : '—'}</dd>
        {answer.kind === 'variant' && answer.r.variantAttachment && (
          <>
            <dt>Attachment</dt>
            <dd>
              <pre className="code">{prettyJson(answer.r.variantAttachment)}</pre>
            </dd>
          </>
        )}
        <dt>Took</dt>
        <dd>{r.requestDurationMillis.toFixed(2)} ms</dd>
      </dl>
      <ResponseJson value={r} />
    </>
  );
}

/**
 * OFREP's answer as a provider reads it: the value (a boolean, or the variant key as a string) and its metadata. A
 * variant match names its segments in the metadata, so its rule can be found; a boolean answer names nothing.
 */
function OfrepResultView({ ns, r }: { ns: string; r: OfrepEvaluation }) {
  const metadata = Object.entries(r.metadata ?? {});
  const segments = typeof r.metadata?.segments === 'string' ? r.metadata.segments.split(',').filter(Boolean) : [];
  const matched = r.reason === 'TARGETING_MATCH';
  return (
    <>
      <dl className="result-list">
        <dt>Value</dt>
        <dd className="key" data-testid="result-value">{JSON.stringify(r.value)}</dd>
        <dt>Variant</dt>
        <dd className="key" data-testid="result-variant">{r.variant || '—'}</dd>
        <Reason reason={r.reason} />
        {matched && typeof r.value === 'string' && segments.length > 0 && (
          <>
            <dt>Rule</dt>
            <dd>
              <MatchedRule ns={ns} flagKey={r.key} segmentKeys={segments} />
            </dd>
          </>
        )}
        {matched && typeof r.value === 'boolean' && (
          <>
            <dt>Rollout</dt>
            <dd className="muted" data-testid="result-rollout">
              OFREP's boolean answer does not name the rollout.
            </dd>
          </>
        )}
        <dt>Metadata</dt>
        <dd>
          {metadata.length ? (
            <dl className="result-metadata">
              {metadata.map(([k, v]) => (
                <Fragment key={k}>
                  <dt className="key">{k}</dt>
                  <dd data-testid={`result-metadata-${k}`}>{k === 'attachment' ? <pre className="code">{prettyJson(v)}</pre> : v}</dd>
                </Fragment>
              ))}
            </dl>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <ResponseJson value={r} />
    </>
  );
}

function ResponseJson({ value }: { value: unknown }) {
  return (
    <details>
      <summary>Response JSON</summary>
      <pre className="code">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

function Reason({ reason }: { reason: string }) {
  return (
    <>
      <dt>Reason</dt>
      <dd>
        <span className="key" data-testid="result-reason">{reason}</span>
        <div className="muted">{REASONS[reason] ?? ''}</div>
      </dd>
    </>
  );
}

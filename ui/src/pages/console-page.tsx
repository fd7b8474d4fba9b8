/**
 * Evaluates a flag as a client would (`/evaluate/v1/variant` or `/boolean`, by the flag's type) for an entity id
 * and a context, and shows the result with its reason. Also offers the same request as a curl command.
 */
import { useState, type FormEvent } from 'react';
import { apiUrl } from '../api/client';
import { evaluateBoolean, evaluateVariant, type EvaluationInput } from '../api/evaluation';
import { flagPages, getFlag } from '../api/flags';
import type { BooleanEvaluation, VariantEvaluation } from '../api/types';
import { CopyButton } from '../components/copy-button';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { KeyValueEditor, type Pair } from '../components/key-value-editor';
import { PageHeader } from '../components/page-header';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';
import { prettyJson } from '../lib/json';
import { randomId } from '../lib/random-id';
import { useRoute } from '../routing/hash-router';

type Result = { kind: 'variant'; r: VariantEvaluation } | { kind: 'boolean'; r: BooleanEvaluation };

const REASONS: Record<string, string> = {
  MATCH_EVALUATION_REASON: 'A rule or rollout matched.',
  DEFAULT_EVALUATION_REASON: 'Nothing matched: the default was served.',
  FLAG_DISABLED_EVALUATION_REASON: 'The flag is disabled.',
  UNKNOWN_EVALUATION_REASON: 'Nothing matched and there is no default variant.',
};

export function ConsolePage({ ns }: { ns: string }) {
  const { query } = useRoute();
  const [flagKey, setFlagKey] = useState(query.get('flag') ?? '');
  const [entityId, setEntityId] = useState(() => randomId());
  const [context, setContext] = useState<Pair[]>([{ key: '', value: '' }]);
  const [result, setResult] = useState<Result>();
  // Flag keys for the suggestions; limit 0 asks for all of them in one call.
  const flags = useLoad((signal) => flagPages(ns)(0, '', signal), [ns]);

  const input: EvaluationInput = {
    namespaceKey: ns,
    flagKey: flagKey.trim(),
    entityId,
    context: Object.fromEntries(context.filter((p) => p.key.trim()).map((p) => [p.key.trim(), p.value])),
  };
  const evaluate = useAction(async () => {
    setResult(undefined);
    const flag = flags.data?.items.find((f) => f.key === input.flagKey) ?? (await getFlag(ns, input.flagKey));
    setResult(flag.type === 'BOOLEAN_FLAG_TYPE' ? { kind: 'boolean', r: await evaluateBoolean(input) } : { kind: 'variant', r: await evaluateVariant(input) });
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void evaluate.run();
  };
  const kind = flags.data?.items.find((f) => f.key === input.flagKey)?.type === 'BOOLEAN_FLAG_TYPE' ? 'boolean' : 'variant';
  const curl = `curl -s ${apiUrl(`evaluate/v1/${kind}`)} -H 'Content-Type: application/json' -H 'Authorization: Bearer $FLAGPOLE_TOKEN' -d '${JSON.stringify(input).replace(/'/g, "'\\''")}'`;

  return (
    <>
      <PageHeader title="Console" subtitle={<>Evaluate a flag in namespace <strong>{ns}</strong> as a client would</>} />
      <div className="console">
        <form className="card form" onSubmit={submit}>
          <Field label="Flag key">
            {(p) => (
              <>
                <input {...p} className="code" list="console-flags" required value={flagKey} onChange={(e) => setFlagKey(e.target.value)} autoFocus={!flagKey} />
                <datalist id="console-flags">
                  {flags.data?.items.map((f) => (
                    <option key={f.key} value={f.key}>
                      {f.name}
                    </option>
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <Field label="Entity ID" hint="Who is asking: a user or device id. The same id always lands in the same percentage bucket.">
            {(p) => (
              <div className="inline-form">
                <input {...p} className="code" value={entityId} onChange={(e) => setEntityId(e.target.value)} />
                <button type="button" onClick={() => setEntityId(randomId())}>
                  New random id
                </button>
              </div>
            )}
          </Field>
          <KeyValueEditor legend="Context" pairs={context} onChange={setContext} />
          <ErrorMessage error={evaluate.error} />
          <div className="form-actions">
            <button type="submit" className="primary" disabled={evaluate.busy}>
              {evaluate.busy ? 'Evaluating…' : 'Evaluate'}
            </button>
            <CopyButton text={curl} label="Copy as curl" />
          </div>
        </form>
        <section className="card result" aria-labelledby="result-heading" aria-live="polite">
          <h2 id="result-heading">Result</h2>
          {result ? <ResultView result={result} /> : <p className="muted">Evaluate a flag to see what a client would get, and why.</p>}
        </section>
      </div>
    </>
  );
}

function ResultView({ result }: { result: Result }) {
  const r = result.r;
  return (
    <>
      <dl className="result-list">
        {result.kind === 'variant' ? (
          <>
            <dt>Match</dt>
            <dd className={result.r.match ? 'good' : ''}>{result.r.match ? 'yes' : 'no'}</dd>
            <dt>Variant</dt>
            <dd className="key" data-testid="result-variant">{result.r.variantKey || '—'}</dd>
          </>
        ) : (
          <>
            <dt>Enabled</dt>
            <dd className="key" data-testid="result-enabled">{String(result.r.enabled)}</dd>
          </>
        )}
        <dt>Reason</dt>
        <dd>
          <span className="key" data-testid="result-reason">{r.reason}</span>
          <div className="muted">{REASONS[r.reason] ?? ''}</div>
        </dd>
        <dt>Segments</dt>
        <dd>{r.segmentKeys.length ? r.segmentKeys.join(', ') : '—'}</dd>
        {result.kind === 'variant' && result.r.variantAttachment && (
          <>
            <dt>Attachment</dt>
            <dd>
              <pre className="code">{prettyJson(result.r.variantAttachment)}</pre>
            </dd>
          </>
        )}
        <dt>Took</dt>
        <dd>{r.requestDurationMillis.toFixed(2)} ms</dd>
      </dl>
      <details>
        <summary>Response JSON</summary>
        <pre className="code">{JSON.stringify(r, null, 2)}</pre>
      </details>
    </>
  );
}

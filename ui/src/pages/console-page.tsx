/**
 * Evaluates a flag as a client would (`/evaluate/v1/variant` or `/boolean`, by the flag's type, or OFREP's route as
 * OpenFeature's providers call it) for an entity id and a context, and shows the result with its reason. Also
 * offers the same request as a curl command.
 */
import { Fragment, useId, useState, type FormEvent } from 'react';
import { apiUrl } from '../api/client';
import { keys } from '../api/query-keys';
import { evaluateBoolean, evaluateOfrep, evaluateVariant, ofrepRequest, type EvaluationInput } from '../api/evaluation';
import { flagPages, getFlag } from '../api/flags';
import type { BooleanEvaluation, OfrepEvaluation, VariantEvaluation } from '../api/types';
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
import { useSession } from '../session/session';

type Protocol = 'flagpole' | 'ofrep';
type Result = { kind: 'variant'; r: VariantEvaluation } | { kind: 'boolean'; r: BooleanEvaluation };
type Answer = Result | { kind: 'ofrep'; r: OfrepEvaluation };

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

/** A shell word: single-quoted, any quote inside closed, escaped and reopened. */
const shellWord = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** The variable the copied command takes the token from; the console says so beside the button. */
const TOKEN_VARIABLE = 'FLAGPOLE_TOKEN';

/**
 * The request as a curl command. Everything the user typed is single-quoted, so the shell passes it as it is; the
 * Authorization header alone is double-quoted, so that the shell puts the token in for `$FLAGPOLE_TOKEN` (single
 * quotes would send the variable's name, and every call would answer 401).
 */
function curlOf(url: string, body: unknown, headers: Record<string, string> = {}): string {
  const quoted = Object.entries({ 'Content-Type': 'application/json', ...headers }).map(([k, v]) => `-H ${shellWord(`${k}: ${v}`)}`);
  return `curl -s ${url} ${quoted.join(' ')} -H "Authorization: Bearer $${TOKEN_VARIABLE}" -d ${shellWord(JSON.stringify(body))}`;
}

export function ConsolePage({ ns }: { ns: string }) {
  const { query } = useRoute();
  const [flagKey, setFlagKey] = useState(query.get('flag') ?? '');
  const [entityId, setEntityId] = useState(() => randomId());
  const [context, setContext] = useState<Pair[]>([{ key: '', value: '' }]);
  const [protocol, setProtocol] = useState<Protocol>('flagpole');
  const [result, setResult] = useState<Answer>();
  const protocolHint = useId();
  const { state } = useSession();
  const tokenRequired = state.status === 'ready' && state.required;
  // Flag keys for the suggestions; limit 0 asks for all of them in one call.
  const flags = useLoad(keys.flags(ns), (signal) => flagPages(ns)(0, '', signal));

  const input: EvaluationInput = {
    namespaceKey: ns,
    flagKey: flagKey.trim(),
    entityId,
    context: Object.fromEntries(context.filter((p) => p.key.trim()).map((p) => [p.key.trim(), p.value])),
  };
  const evaluate = useAction(async () => {
    setResult(undefined);
    // OFREP needs no flag type: its one route answers both kinds, and an unknown key is its own FLAG_NOT_FOUND.
    if (protocol === 'ofrep') return setResult({ kind: 'ofrep', r: await evaluateOfrep(input) });
    const flag = flags.data?.items.find((f) => f.key === input.flagKey) ?? (await getFlag(ns, input.flagKey));
    setResult(flag.type === 'BOOLEAN_FLAG_TYPE' ? { kind: 'boolean', r: await evaluateBoolean(input) } : { kind: 'variant', r: await evaluateVariant(input) });
  });
  const choose = (p: Protocol) => {
    // The card and error of the other protocol would read as this one's answer.
    setProtocol(p);
    setResult(undefined);
    evaluate.clearError();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void evaluate.run();
  };
  const kind = flags.data?.items.find((f) => f.key === input.flagKey)?.type === 'BOOLEAN_FLAG_TYPE' ? 'boolean' : 'variant';
  const ofrep = ofrepRequest(input);
  const curl = protocol === 'ofrep' ? curlOf(apiUrl(ofrep.path), ofrep.body, ofrep.headers) : curlOf(apiUrl(`evaluate/v1/${kind}`), input);

  return (
    <>
      <PageHeader title="Console" subtitle={<>Evaluate a flag in namespace <strong>{ns}</strong> as a client would</>} />
      <div className="console">
        <form className="card form" onSubmit={submit}>
          <fieldset className="inline-radios" aria-describedby={protocolHint}>
            <legend>Answer as</legend>
            <label>
              <input type="radio" name="console-protocol" checked={protocol === 'flagpole'} onChange={() => choose('flagpole')} /> Flagpole API
            </label>
            <label>
              <input type="radio" name="console-protocol" checked={protocol === 'ofrep'} onChange={() => choose('ofrep')} /> OFREP
            </label>
            <p className="hint" id={protocolHint}>
              {protocol === 'ofrep' ? (
                <>
                  <code>POST /ofrep/v1/evaluate/flags/{'{key}'}</code>, as OpenFeature's OFREP providers call it: the namespace in{' '}
                  <code>X-Flipt-Namespace</code>, the entity id as <code>targetingKey</code>.
                </>
              ) : (
                <>
                  <code>POST /evaluate/v1/variant</code> or <code>/boolean</code>, by the flag's type.
                </>
              )}
            </p>
          </fieldset>
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
          {tokenRequired && (
            <p className="hint">
              The command reads your client token from <code>${TOKEN_VARIABLE}</code>: run{' '}
              <code className="nowrap">export {TOKEN_VARIABLE}=…</code> first.
            </p>
          )}
        </form>
        <section className="card result" aria-labelledby="result-heading" aria-live="polite">
          <h2 id="result-heading">Result</h2>
          {!result ? (
            <p className="muted">Evaluate a flag to see what a client would get, and why.</p>
          ) : result.kind === 'ofrep' ? (
            <OfrepResultView r={result.r} />
          ) : (
            <ResultView result={result} />
          )}
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
        <Reason reason={r.reason} />
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
      <ResponseJson value={r} />
    </>
  );
}

/** OFREP's answer as a provider reads it: the value (a boolean, or the variant key as a string) and its metadata. */
function OfrepResultView({ r }: { r: OfrepEvaluation }) {
  const metadata = Object.entries(r.metadata ?? {});
  return (
    <>
      <dl className="result-list">
        <dt>Value</dt>
        <dd className="key" data-testid="result-value">{JSON.stringify(r.value)}</dd>
        <dt>Variant</dt>
        <dd className="key" data-testid="result-variant">{r.variant || '—'}</dd>
        <Reason reason={r.reason} />
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

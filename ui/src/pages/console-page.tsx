/**
 * Evaluates a flag as a client would (`/evaluate/v1/variant` or `/boolean`, by the flag's type, or OFREP's route as
 * OpenFeature's providers call it) for an entity id and a context (rows or pasted JSON), and shows the result with
 * its reason and the rule or rollout that matched. Also offers the same request as curl and as Node code
 * (pages/console/ holds the pieces). The entity and context typed are still there when you come back
 * (console/console-memory.ts).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { apiBase, apiUrl } from '../api/client';
import { evaluateBoolean, evaluateOfrep, evaluateVariant, ofrepRequest, type EvaluationInput } from '../api/evaluation';
import { flagPages, getFlag } from '../api/flags';
import { keys } from '../api/query-keys';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { PageHeader } from '../components/page-header';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';
import { randomId } from '../lib/random-id';
import { useQueryState } from '../routing/use-query-state';
import { useSession } from '../session/session';
import type { FlagKind } from './console/code-snippets';
import { ContextInput } from './console/context-input';
import { contextOfDraft, emptyDraft } from './console/context-json';
import { recallConsole, rememberConsole } from './console/console-memory';
import { CopyCode } from './console/copy-code';
import { AnswerView, type Answer } from './console/result-view';

type Protocol = 'flagpole' | 'ofrep';

export function ConsolePage({ ns }: { ns: string }) {
  // The flag is kept in the address (replaced as it is typed), so that the namespace switcher keeps it.
  const [{ flag: flagKey }, setQuery] = useQueryState({ flag: '' });
  const setFlagKey = (flag: string) => setQuery({ flag }, 'replace');
  const [memory] = useState(() => recallConsole(ns));
  const [entityId, setEntityId] = useState(() => memory?.entityId ?? randomId());
  const [draft, setDraft] = useState(() => memory?.draft ?? emptyDraft());
  useEffect(() => rememberConsole(ns, { entityId, draft }), [ns, entityId, draft]);
  const [protocol, setProtocol] = useState<Protocol>('flagpole');
  const [result, setResult] = useState<Answer>();
  const protocolHint = useId();
  const { state } = useSession();
  const tokenRequired = state.status === 'ready' && state.required;
  // Flag keys for the suggestions; limit 0 asks for all of them in one call.
  const flags = useLoad(keys.flags(ns), (signal) => flagPages(ns)(0, '', signal));

  // Undefined while the pasted JSON is not a context: nothing is evaluated or copied then.
  const { context } = contextOfDraft(draft);
  const input: EvaluationInput = { namespaceKey: ns, flagKey: flagKey.trim(), entityId, context: context ?? {} };
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
    if (context) void evaluate.run();
  };
  const kind: FlagKind = flags.data?.items.find((f) => f.key === input.flagKey)?.type === 'BOOLEAN_FLAG_TYPE' ? 'boolean' : 'variant';
  const ofrep = ofrepRequest(input);
  const curl = protocol === 'ofrep' ? { url: apiUrl(ofrep.path), body: ofrep.body, headers: ofrep.headers } : { url: apiUrl(`evaluate/v1/${kind}`), body: input };
  const snippet = context && { input, kind, baseUrl: apiBase().replace(/\/$/, '') };

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
          <ContextInput draft={draft} onChange={setDraft} />
          <ErrorMessage error={evaluate.error} />
          <div className="form-actions">
            <button type="submit" className="primary" disabled={evaluate.busy || !context}>
              {evaluate.busy ? 'Evaluating…' : 'Evaluate'}
            </button>
          </div>
          <CopyCode snippet={snippet} curl={curl} tokenRequired={tokenRequired} />
        </form>
        <section className="card result" aria-labelledby="result-heading" aria-live="polite">
          <h2 id="result-heading">Result</h2>
          {result ? <AnswerView ns={ns} answer={result} /> : <p className="muted">Evaluate a flag to see what a client would get, and why.</p>}
        </section>
      </div>
    </>
  );
}

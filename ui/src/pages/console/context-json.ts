/**
 * The console's evaluation context as rows or as pasted JSON, and the way between the two. Flipt's context is a
 * map<string, string>: a JSON number or boolean becomes its text (as OpenFeature's Flipt provider sends it), and
 * anything else that is not a string (null, an object, an array) is refused with the key it was found under.
 */
import type { Pair } from '../../components/key-value-editor';

export type ContextView = 'rows' | 'json';

/** What the context box holds: both views' text, so switching back and forth loses nothing typed. */
export interface ContextDraft {
  view: ContextView;
  pairs: Pair[];
  json: string;
}

export type ContextResult = { context: Record<string, string>; problem?: undefined } | { context?: undefined; problem: string };

export const emptyDraft = (): ContextDraft => ({ view: 'rows', pairs: [{ key: '', value: '' }], json: '' });

/** The rows as a context: blank keys are left out and keys are trimmed, as a row that was never filled in. */
export function contextOfPairs(pairs: Pair[]): Record<string, string> {
  return Object.fromEntries(pairs.filter((p) => p.key.trim()).map((p) => [p.key.trim(), p.value]));
}

/** Pasted JSON as a context, or why it is not one. An empty box is an empty context. */
export function contextOfJson(text: string): ContextResult {
  if (!text.trim()) return { context: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `Not valid JSON: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: `The context must be a JSON object such as {"plan": "pro"}, not ${describe(value)}.` };
  }
  const context: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') context[key] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') context[key] = String(v);
    else return { problem: `"${key}" is ${describe(v)}: context values are strings (numbers and booleans are turned into strings), so nested values cannot be sent.` };
  }
  return { context };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The context the draft holds in its current view, or why it holds none. */
export function contextOfDraft(draft: ContextDraft): ContextResult {
  return draft.view === 'rows' ? { context: contextOfPairs(draft.pairs) } : contextOfJson(draft.json);
}

/** The draft shown in `view`, the context carried over; refused (undefined) when the JSON to leave is not a context. */
export function switchView(draft: ContextDraft, view: ContextView): ContextDraft | undefined {
  if (view === draft.view) return draft;
  if (view === 'json') return { ...draft, view, json: JSON.stringify(contextOfPairs(draft.pairs), null, 2) };
  const { context } = contextOfJson(draft.json);
  if (!context) return undefined;
  const pairs = Object.entries(context).map(([key, value]) => ({ key, value }));
  return { ...draft, view, pairs: pairs.length ? pairs : [{ key: '', value: '' }] };
}

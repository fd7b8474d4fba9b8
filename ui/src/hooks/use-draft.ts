/**
 * A details form's working copy of what is saved: `dirty` while it differs (and so leaving asks first). When the
 * saved values change under it (saved here, or loaded again after another part of the page wrote), the fields the
 * user has not touched follow them and the edited ones stay: a refresh never drops what was typed.
 */
import { useState } from 'react';

/** Fields of text, numbers and booleans, compared by value. */
type Fields = object;

export interface Draft<T extends Fields> {
  draft: T;
  setDraft(draft: T): void;
  dirty: boolean;
}

export function useDraft<T extends Fields>(saved: T): Draft<T> {
  const [base, setBase] = useState(saved);
  const [draft, setDraft] = useState(saved);
  // Derived while rendering (React's pattern for state that follows a prop), compared field by field: callers build
  // `saved` afresh on every render.
  if (!sameFields(base, saved)) {
    setBase(saved);
    setDraft(rebase(draft, base, saved));
  }
  return { draft, setDraft, dirty: !sameFields(draft, saved) };
}

function sameFields<T extends Fields>(a: T, b: T): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof T>;
  return [...keys].every((k) => Object.is(a[k], b[k]));
}

/** `draft` moved from `before` onto `after`: each field the draft left as it was takes its new value. */
function rebase<T extends Fields>(draft: T, before: T, after: T): T {
  const next = { ...after };
  for (const k of Object.keys(draft) as Array<keyof T>) if (!Object.is(draft[k], before[k])) next[k] = draft[k];
  return next;
}

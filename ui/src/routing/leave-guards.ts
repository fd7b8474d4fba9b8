/**
 * Unsaved edits, and the question before leaving them. A form with changes holds a leave guard (useLeaveGuard):
 * while one is held, the router's navigation waits for the user's answer (the pending leave, which LeavePrompt
 * asks), and closing or reloading the tab gets the browser's own `beforeunload` question.
 */
import { useEffect, useSyncExternalStore } from 'react';

const guards = new Set<symbol>();

export const hasUnsavedEdits = (): boolean => guards.size > 0;

function onBeforeUnload(e: BeforeUnloadEvent): void {
  e.preventDefault();
  // Older browsers ask only when returnValue is set.
  e.returnValue = '';
}

/** While `unsaved`, leaving the page asks first (in the app) or makes the browser ask (closing, reloading). */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const guard = Symbol('unsaved edits');
    guards.add(guard);
    if (guards.size === 1) window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      guards.delete(guard);
      if (guards.size === 0) window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [unsaved]);
}

/** A navigation waiting for the user's answer: leave (dropping the edits) or stay. */
export interface PendingLeave {
  leave(): void;
  stay(): void;
}

let pending: PendingLeave | undefined;
const pendingListeners = new Set<() => void>();

function setPending(p: PendingLeave | undefined): void {
  pending = p;
  for (const l of pendingListeners) l();
}

/** Runs `go` at once without unsaved edits; otherwise once the user agrees (a second request while asking is dropped). */
export function askToLeave(go: () => void): void {
  if (guards.size === 0) return go();
  if (pending) return;
  const asked: PendingLeave = {
    leave: () => {
      if (pending !== asked) return;
      setPending(undefined);
      go();
    },
    stay: () => {
      if (pending === asked) setPending(undefined);
    },
  };
  setPending(asked);
}

/** The navigation waiting for an answer, for the one prompt that asks it. */
export function usePendingLeave(): PendingLeave | undefined {
  return useSyncExternalStore(
    (onChange) => {
      pendingListeners.add(onChange);
      return () => pendingListeners.delete(onChange);
    },
    () => pending,
  );
}

/**
 * Routing by the URL's hash (`/#/namespaces/default/flags`): the server only ever sees `/`, so it needs no
 * catch-all route (unknown server paths keep the API's 404) and a proxy's path prefix changes nothing.
 *
 * With unsaved edits on the page (leave-guards.ts), the app's own navigation (links, navigate()) and Back/Forward
 * first ask. Back/Forward are told apart from new addresses by the index this router keeps in each history entry's
 * state: a step to another index is undone, unseen, until the user agrees. An address typed into the address bar
 * is a deliberate choice and goes through.
 */
import { useSyncExternalStore } from 'react';
import { askToLeave, hasUnsavedEdits } from './leave-guards';

export interface Route {
  /** Decoded path segments: `['namespaces', 'default', 'flags']`. */
  segments: string[];
  query: URLSearchParams;
}

/** The hash the app shows; `version` changes when the page must render again with the same hash. */
interface Shown {
  hash: string;
  version: number;
}

const INDEX = 'flagpoleIndex';
const listeners = new Set<() => void>();
let shown: Shown = { hash: window.location.hash, version: 0 };
/** This history entry's place, so that a Back or Forward step is known by its distance. */
let index = entryIndex() ?? 0;
history.replaceState(withIndex(history.state, index), '');
/** A Back/Forward step the user agreed to: let the next one through. */
let agreed = false;

function entryIndex(): number | undefined {
  const value = (history.state as Record<string, unknown> | null)?.[INDEX];
  return typeof value === 'number' ? value : undefined;
}

function withIndex(state: unknown, i: number): Record<string, unknown> {
  return { ...(state && typeof state === 'object' ? state : {}), [INDEX]: i };
}

function show(): void {
  shown = { hash: window.location.hash, version: shown.version };
  for (const l of listeners) l();
}

window.addEventListener('hashchange', () => {
  const target = entryIndex();
  if (target === undefined) {
    // A new entry this router did not make: an address typed, or a plain link.
    index += 1;
    history.replaceState(withIndex(history.state, index), '');
  } else if (target !== index && hasUnsavedEdits() && !agreed) {
    // Back or Forward with unsaved edits: step back to where the page is (unseen: the page never changed), then ask.
    const delta = target - index;
    history.go(-delta);
    askToLeave(() => {
      agreed = true;
      history.go(delta);
    });
    return;
  } else {
    // (The step that undoes a refused one lands where the page is: it keeps an agreement made meanwhile.)
    if (target !== index) agreed = false;
    index = target;
  }
  if (shown.hash !== window.location.hash) show();
});

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = q >= 0 ? raw.slice(0, q) : raw;
  const segments = path.split('/').filter(Boolean).map(decodeSegment);
  return { segments, query: new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '') };
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function useRoute(): Route {
  const { hash } = useSyncExternalStore(subscribe, () => shown);
  return parseHash(hash);
}

/**
 * Renders the page again at the same address: for a display preference (the time zone) that changes what every
 * page writes without changing the data it holds.
 */
export function renderPageAgain(): void {
  shown = { ...shown, version: shown.version + 1 };
  for (const l of listeners) l();
}

/** `path('namespaces', ns, 'flags')` → `/namespaces/<ns>/flags`, each part encoded. */
export function path(...parts: string[]): string {
  return `/${parts.map(encodeURIComponent).join('/')}`;
}

export function href(to: string): string {
  return `#${to}`;
}

/**
 * Shows `to`. With unsaved edits on the page it first asks, unless `force` says that nothing would be lost (the
 * edits were just saved).
 */
export function navigate(to: string, options: { replace?: boolean; force?: boolean } = {}): void {
  const go = () => {
    if (href(to) === window.location.hash) return;
    if (options.replace) history.replaceState(withIndex(history.state, index), '', href(to));
    else history.pushState(withIndex(null, ++index), '', href(to));
    show();
  };
  if (options.force) go();
  else askToLeave(go);
}

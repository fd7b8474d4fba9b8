/**
 * Routing by the URL's hash (`/#/namespaces/default/flags`): the server only ever sees `/`, so it needs no
 * catch-all route (unknown server paths keep the API's 404) and a proxy's path prefix changes nothing.
 */
import { useSyncExternalStore } from 'react';

export interface Route {
  /** Decoded path segments: `['namespaces', 'default', 'flags']`. */
  segments: string[];
  query: URLSearchParams;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const currentHash = () => window.location.hash;

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
  const hash = useSyncExternalStore(subscribe, currentHash);
  return parseHash(hash);
}

/** `path('namespaces', ns, 'flags')` → `/namespaces/<ns>/flags`, each part encoded. */
export function path(...parts: string[]): string {
  return `/${parts.map(encodeURIComponent).join('/')}`;
}

export function href(to: string): string {
  return `#${to}`;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.location.replace(href(to));
  else window.location.hash = to;
}

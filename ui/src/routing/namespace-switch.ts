/**
 * Where the namespace switcher in the top bar goes: the same page in the chosen namespace, so that switching compares
 * like with like. A flag or segment opens there when that namespace has one of its key, else that namespace's list;
 * lists, flag health, the console (with its flag, kept in its address), the audit trail and the new-item pages keep their address's
 * query but the page number. From the Namespaces page it opens the chosen namespace's flags (as the list's links do);
 * Static tokens stays, the chosen namespace becoming the current one (the navigation's links, the next visit).
 */
import { exists } from '../api/exists';
import { getFlag } from '../api/flags';
import { getSegment } from '../api/segments';
import { rememberNamespace } from '../session/namespaces';
import { navigate, path, renderPageAgain, type Route } from './hash-router';

const SECTIONS = ['flags', 'health', 'segments', 'console', 'audit', 'create'];

export async function switchNamespace(route: Route, target: string): Promise<void> {
  if (route.segments[0] !== 'namespaces') {
    rememberNamespace(target);
    renderPageAgain();
    return;
  }
  const from = window.location.hash;
  const to = await addressIn(route, target);
  // The lookup took a moment: a page left meanwhile is not followed into the other namespace.
  if (window.location.hash === from) navigate(to);
}

async function addressIn(route: Route, target: string): Promise<string> {
  const [, , section, key] = route.segments;
  if (!section || !SECTIONS.includes(section)) return path('namespaces', target, 'flags');
  const query = new URLSearchParams(route.query);
  query.delete('page');
  const q = query.toString();
  const same = `${path('namespaces', target, ...route.segments.slice(2))}${q ? `?${q}` : ''}`;
  if (!key || section === 'create') return same;
  const lookup = section === 'flags' ? getFlag(target, key) : getSegment(target, key);
  // Not there, or not to be read there: its list says which.
  return (await exists(lookup).catch(() => false)) ? same : path('namespaces', target, section);
}

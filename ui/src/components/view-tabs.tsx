/**
 * Views of one page (a flag's Details | History) as links that look like tabs: each view has its own address
 * (`?view=history`), so it can be bookmarked and Back returns to the view before, which ARIA tabs would not give.
 */
import { Link } from '../routing/link';

export interface View {
  key: string;
  label: string;
  to: string;
}

export function ViewTabs({ label, views, current }: { label: string; views: View[]; current: string }) {
  // One view alone (History hidden from a caller who may not read the audit trail) is no choice: no tabs.
  if (views.length < 2) return null;
  return (
    <nav className="view-tabs" aria-label={label}>
      <ul>
        {views.map((v) => (
          <li key={v.key}>
            <Link to={v.to} aria-current={v.key === current ? 'page' : undefined}>
              {v.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The view a page is on: `?view=history` → 'history', anything else the first (default) view. */
export function currentView(query: URLSearchParams, views: View[]): string {
  const asked = query.get('view');
  return views.some((v) => v.key === asked) ? (asked as string) : views[0].key;
}

/**
 * The views of a flag or a segment page, at `base` and `base?view=history`; without History when the caller may not
 * read the audit trail (the API would refuse it), so that `?view=history` typed in shows the details.
 */
export function detailsAndHistory(base: string, withHistory: boolean): View[] {
  const details = { key: 'details', label: 'Details', to: base };
  return withHistory ? [details, { key: 'history', label: 'History', to: `${base}?view=history` }] : [details];
}

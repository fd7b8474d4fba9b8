/**
 * A namespace's flag health (issue 40; `GET …/flag-health`): how many flags are new, live, potentially stale and
 * archived, how many of each kind, and the potentially stale flags with their reasons in words and since when, each
 * linking to its flag, 50 a page (`?page=` in the address). What it shows is the server's last periodic check
 * (`lifecycle.check_interval`), said at the top; the page reads it again every minute while it is on screen. With
 * `lifecycle.enabled` off (not in the navigation then) its address says there is no report.
 */
import type { ReactNode } from 'react';
import { getFlagHealth, type FlagHealth } from '../api/lifecycle';
import { keys } from '../api/query-keys';
import { ErrorMessage } from '../components/error-message';
import { Loading } from '../components/loading';
import { PageHeader } from '../components/page-header';
import { useLoad } from '../hooks/use-load';
import { formatDate, formatDateBare, zoneHeading } from '../lib/format';
import { KIND_HINTS, KINDS, kindLabel, STATE_LABELS, type Kind } from '../lib/lifecycle';
import { relativeTime } from '../lib/relative-time';
import { path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { useQueryState } from '../routing/use-query-state';
import { useLoadError } from '../session/permissions';
import { useLifecycleEnabled } from '../session/session';
import { useTimeZone } from '../session/time-zone';
import { StaleReasons } from './lifecycle/lifecycle-words';

const PAGE_SIZE = 50;
const REFRESH_EVERY = 60_000;

export function HealthPage({ ns }: { ns: string }) {
  if (!useLifecycleEnabled()) {
    return (
      <>
        <PageHeader title="Flag health" subtitle={<>In namespace <strong>{ns}</strong></>} />
        <p className="empty">
          This Flagpole does not check flags' lifecycle (<code>lifecycle.enabled</code> is off), so there is no report.
        </p>
      </>
    );
  }
  return <HealthReport ns={ns} />;
}

function HealthReport({ ns }: { ns: string }) {
  const [query, setQuery] = useQueryState({ page: '1' });
  const asked = Number(query.page);
  const page = Number.isSafeInteger(asked) && asked > 0 ? asked : 1;
  const offset = (page - 1) * PAGE_SIZE;
  const health = useLoad(keys.flagHealth(ns, `page-${page}`), (signal) => getFlagHealth(ns, { limit: PAGE_SIZE, offset }, signal), {
    refreshEvery: REFRESH_EVERY,
  });
  const zone = useTimeZone();
  const error = useLoadError('flag', ns, health.error);
  const h: FlagHealth | undefined = health.data;

  return (
    <>
      <PageHeader
        title="Flag health"
        subtitle={
          <>
            In namespace <strong>{ns}</strong>
            {h && (h.checkedAt ? <> · checked {relativeTime(h.checkedAt)}, {formatDate(h.checkedAt, undefined, zone)}</> : <> · not checked yet</>)}
          </>
        }
      />
      <ErrorMessage error={error} />
      {!h && !error && <Loading what="Loading flag health" />}
      {h && (
        <>
          {!h.checkedAt && (
            <p className="notice-inline">
              No check has run yet. The first runs shortly after Flagpole starts, then one every <code>lifecycle.check_interval</code> (an hour by default).
            </p>
          )}
          <section className="card" aria-labelledby="states-heading">
            <h2 id="states-heading">By state</h2>
            <dl className="health-counts">
              <Count label={STATE_LABELS.new} n={h.counts.new} state="new" hint="never evaluated yet" />
              <Count label={STATE_LABELS.live} n={h.counts.live} state="live" hint="in use" />
              <Count
                label={STATE_LABELS.potentially_stale}
                n={h.counts.potentiallyStale}
                state="potentially_stale"
                hint={
                  h.counts.potentiallyStale > 0 ? <Link to={`${path('namespaces', ns, 'flags')}?stale=true`}>Show them in the flags list</Link> : 'none'
                }
              />
              <Count label={STATE_LABELS.archived} n={h.counts.archived} state="archived" hint="done with" />
            </dl>
          </section>
          <section className="card" aria-labelledby="kinds-heading">
            <h2 id="kinds-heading">By kind</h2>
            <dl className="health-counts">
              {[...KINDS, ...Object.keys(h.kinds).filter((k) => !KINDS.includes(k as Kind))].map((k) => (
                <Count key={k} label={kindLabel(k)} n={h.kinds[k] ?? 0} hint={KIND_HINTS[k as Kind]} />
              ))}
            </dl>
          </section>
          <section className="card" aria-labelledby="stale-heading">
            <div className="section-header">
              <div>
                <h2 id="stale-heading">Potentially stale flags</h2>
                <p className="hint">
                  Past their kind's lifetime, not evaluated lately, or serving one value to everyone with no change: each is debt
                  to remove from the code, then delete — or to archive, or give a permanent kind, if it is meant to stay.
                  Times are {zoneHeading(zone)}.
                </p>
              </div>
            </div>
            {h.staleFlags.length === 0 ? (
              <p className="empty">{page > 1 ? 'No more potentially stale flags.' : 'No potentially stale flags. Nothing to clean up.'}</p>
            ) : (
              <ul className="stale-list" aria-label={`Potentially stale flags in ${ns}`}>
                {h.staleFlags.map((f) => (
                  <li key={f.flagKey}>
                    <div className="stale-head">
                      <Link to={path('namespaces', ns, 'flags', f.flagKey)} className="key">
                        {f.flagKey}
                      </Link>
                      <span className="badge">{kindLabel(f.kind)}</span>
                      <span className="muted stale-since">potentially stale since {formatDateBare(f.since, zone)}</span>
                    </div>
                    <StaleReasons reasons={f.reasons} zoneSaid />
                  </li>
                ))}
              </ul>
            )}
            {(page > 1 || h.nextOffset !== null) && (
              <nav className="pager" aria-label="Pages of potentially stale flags">
                <span className="pager-range" role="status">
                  {h.staleFlags.length > 0 ? `${offset + 1}–${offset + h.staleFlags.length} of ${h.counts.potentiallyStale}` : `Page ${page}`}
                </span>
                <button type="button" disabled={page === 1} onClick={() => setQuery({ page: String(page - 1) })}>
                  Previous
                </button>
                <button type="button" disabled={h.nextOffset === null} onClick={() => setQuery({ page: String(page + 1) })}>
                  Next
                </button>
              </nav>
            )}
          </section>
        </>
      )}
    </>
  );
}

function Count({ label, n, hint, state }: { label: string; n: number; hint?: ReactNode; state?: string }) {
  return (
    <div className={state ? `count-${state}` : undefined}>
      <dt>{label}</dt>
      <dd>
        <span className="health-number">{n.toLocaleString()}</span>
        {hint && <span className="health-hint">{hint}</span>}
      </dd>
    </div>
  );
}

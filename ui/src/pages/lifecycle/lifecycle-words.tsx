/**
 * How the lifecycle is shown wherever it is (a flag's page, the flags list, the flag-health view, the audit trail):
 * the state as a badge whose words say it (the colour only helps the eye), and the reasons a flag may be stale as
 * text — in full with the server's `detail` and since when, or in a few words beside the badge in a list.
 */
import type { StaleReason } from '../../api/lifecycle';
import { formatDate, formatDateBare } from '../../lib/format';
import { KIND_LABELS, KINDS, reasonLabel, stateLabel } from '../../lib/lifecycle';
import { useTimeZone, type TimeZone } from '../../session/time-zone';

/** The kinds as a select's options, in their order. */
export function KindOptions() {
  return (
    <>
      {KINDS.map((k) => (
        <option key={k} value={k}>
          {KIND_LABELS[k]}
        </option>
      ))}
    </>
  );
}

export function StateBadge({ state }: { state: string }) {
  return <span className={`badge lifecycle-badge state-${state}`}>{stateLabel(state)}</span>;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An RFC 3339 time in the server's sentence ("last at 2026-12-07T13:02:00Z"), which the page writes in its zone. */
const INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)/g;

/** The server's sentence with its times in the zone Times chose, unnamed or named (`bare`). */
export function detailIn(detail: string, zone: TimeZone, bare: boolean): string {
  return detail.replace(INSTANT, (iso) => (bare ? formatDateBare(iso, zone) : formatDate(iso, undefined, zone)));
}

/**
 * Each reason: what it is, the server's sentence, and since when, in the zone Times chose. `zoneSaid`: the page names
 * the zone once nearby, so the times here go unnamed.
 */
export function StaleReasons({ reasons, zoneSaid = false }: { reasons: ReadonlyArray<Partial<StaleReason>>; zoneSaid?: boolean }) {
  const zone = useTimeZone();
  const when = (iso: string) => (zoneSaid ? formatDateBare(iso, zone) : formatDate(iso, undefined, zone));
  return (
    <ul className="stale-reasons">
      {reasons.map((r, i) => (
        <li key={r.reason ?? i}>
          <strong>{capitalised(reasonLabel(String(r.reason ?? '')))}</strong>
          {r.detail && <>: {detailIn(r.detail, zone, zoneSaid)}</>}
          {r.since && <span className="muted"> (since {when(r.since)})</span>}
        </li>
      ))}
    </ul>
  );
}

/** "Potentially stale: past its lifetime, not evaluated lately" — a list's cell; the badge and its reasons read as one. */
export function StaleBadge({ reasons }: { reasons: StaleReason[] }) {
  return (
    <span className="stale-flag">
      <StateBadge state="potentially_stale" />
      <span className="visually-hidden">: </span>
      <span className="stale-why">{reasons.map((r) => reasonLabel(r.reason)).join(', ')}</span>
    </span>
  );
}

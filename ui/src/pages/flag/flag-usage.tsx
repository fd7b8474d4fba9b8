/**
 * The flags list's usage column (issue 40, only when evaluations are counted): each flag's evaluations over the last
 * day as a sparkline beside their total, with when it was last evaluated as the cell's title. The cells of a page
 * share one read: each asks for the same key (every flag of the page), which the cache reads once, as one batch
 * request to the analytics route; it is read again every minute while the list is on screen.
 */
import { flagCounts } from '../../api/analytics';
import { keys } from '../../api/query-keys';
import { useLoad } from '../../hooks/use-load';
import { formatDate } from '../../lib/format';
import { useTimeZone } from '../../session/time-zone';

const DAY = 24 * 3600_000;
const REFRESH_EVERY = 60_000;
const WIDTH = 72;
const HEIGHT = 20;

/** The values as an SVG polyline's points, the largest at the top, zero on the bottom edge (1 px in from each). */
function pointsOf(values: number[]): string {
  const max = Math.max(1, ...values);
  const dx = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  return values.map((v, i) => `${(i * dx).toFixed(1)},${(HEIGHT - 1 - (v / max) * (HEIGHT - 2)).toFixed(1)}`).join(' ');
}

export function FlagUsage({ ns, flagKey, pageKeys }: { ns: string; flagKey: string; pageKeys: string[] }) {
  const zone = useTimeZone();
  const usage = useLoad(
    keys.usage(ns, pageKeys),
    (signal) => {
      const to = new Date();
      return flagCounts(ns, pageKeys, { from: new Date(to.getTime() - DAY), to }, signal);
    },
    { refreshEvery: REFRESH_EVERY },
  );
  const counts = usage.data?.[flagKey];
  // A flag deleted since the list was read fails the whole batch: the column says nothing rather than an error a row.
  if (!counts) return usage.error ? <span className="usage usage-none" title={`Evaluations could not be read: ${usage.error}`}>—</span> : null;
  const total = counts.values.reduce((a, b) => a + b, 0);
  const last = counts.lastEvaluatedAt ? `Last evaluated ${formatDate(counts.lastEvaluatedAt, undefined, zone)}` : 'Not evaluated (within analytics.retention)';
  return (
    <span className="usage" title={last}>
      <svg className="sparkline" aria-hidden="true" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} preserveAspectRatio="none">
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="sparkline-base" />
        <polyline points={pointsOf(counts.values)} className="sparkline-line" />
      </svg>
      <span className="usage-total">{total.toLocaleString()}</span>
      <span className="visually-hidden">. {last}</span>
    </span>
  );
}

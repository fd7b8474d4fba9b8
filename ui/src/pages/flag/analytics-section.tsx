/**
 * The Analytics view of a flag page (issue 40; only when `/meta/info` says `analytics.enabled`): how often the server
 * evaluated the flag over the range chosen (30 minutes to 7 days, kept in the address as `range`), as totals, a chart
 * of each step and a breakdown by variant (a boolean flag's by value), with the time it was last evaluated in the
 * zone Times chose. It reads again every few seconds while it is on screen and the browser tab is visible (useLoad's
 * `refreshEvery`), so it follows evaluations as they are counted. Client-side evaluations are never counted: it says so.
 */
import { useMemo } from 'react';
import { flagCounts, type FlagCounts } from '../../api/analytics';
import { keys } from '../../api/query-keys';
import type { Flag } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { EvaluationChart, type ChartLine } from '../../components/evaluation-chart';
import { Loading } from '../../components/loading';
import { useLoad } from '../../hooks/use-load';
import { formatDate, zoneHeading } from '../../lib/format';
import { relativeTime } from '../../lib/relative-time';
import { useQueryState } from '../../routing/use-query-state';
import { useTimeZone } from '../../session/time-zone';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The ranges offered, Flipt's chart's: `key` is the address's `range`. */
export const RANGES = [
  { key: '30m', label: '30 min', words: 'the last 30 minutes', ms: 30 * MINUTE },
  { key: '1h', label: '1 h', words: 'the last hour', ms: HOUR },
  { key: '4h', label: '4 h', words: 'the last 4 hours', ms: 4 * HOUR },
  { key: '12h', label: '12 h', words: 'the last 12 hours', ms: 12 * HOUR },
  { key: '1d', label: '1 day', words: 'the last day', ms: 24 * HOUR },
  { key: '7d', label: '7 days', words: 'the last 7 days', ms: 7 * 24 * HOUR },
] as const;

const DEFAULT_RANGE = '1h';
/** How often the view reads again: counts arrive once per flush period (10 s at the least), so a few seconds is live. */
export const REFRESH_EVERY = 5_000;
/** Lines drawn besides the total: more would be a tangle (the table lists every variant). */
const MAX_LINES = 6;

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** `minute`, `5 minutes`: the API's step, from two of its timestamps (the range's own step when there is one). */
function stepWords(timestamps: string[], rangeMs: number): string {
  const ms = timestamps.length > 1 ? Date.parse(timestamps[1]) - Date.parse(timestamps[0]) : rangeMs >= 24 * HOUR ? 30 * MINUTE : MINUTE;
  const minutes = Math.round(ms / MINUTE);
  return minutes === 1 ? 'minute' : `${minutes} minutes`;
}

/** What a breakdown row is called: the API names boolean values `true`/`false`, and no variant `""`. */
const nameOf = (key: string) => (key === '' ? '(no variant)' : key);

interface Share {
  key: string;
  count: number;
  /** Its line's colour variable, when the chart draws it. */
  colour?: string;
}

/**
 * The breakdown, largest first, and the lines drawn. Colours go by the flag's own order of variants (boolean flags:
 * true, false), not by size, so that a line keeps its colour while the counts change under it.
 */
function breakdownOf(flag: Flag, counts: FlagCounts): { shares: Share[]; lines: ChartLine[] } {
  const series = counts.series ?? {};
  const known = flag.type === 'BOOLEAN_FLAG_TYPE' ? ['true', 'false'] : flag.variants.map((v) => v.key);
  const order = [...known.filter((k) => k in series), ...Object.keys(series).filter((k) => !known.includes(k)).sort()];
  const drawn = order.filter((k) => sum(series[k]) > 0).slice(0, MAX_LINES);
  const colourOf = new Map(drawn.map((k, i) => [k, `--chart-${i + 1}`]));
  const shares = order.map((key) => ({ key, count: sum(series[key]), colour: colourOf.get(key) })).filter((s) => s.count > 0);
  shares.sort((a, b) => b.count - a.count);
  return { shares, lines: drawn.map((k) => ({ name: nameOf(k), values: series[k], colour: colourOf.get(k)! })) };
}

export function AnalyticsSection({ ns, flag }: { ns: string; flag: Flag }) {
  const [state, setState] = useQueryState({ range: DEFAULT_RANGE });
  const range = RANGES.find((r) => r.key === state.range) ?? RANGES.find((r) => r.key === DEFAULT_RANGE)!;
  const zone = useTimeZone();
  const counts = useLoad(
    keys.analytics(ns, flag.key, range.key),
    async (signal) => {
      const to = new Date();
      const answer = await flagCounts(ns, [flag.key], { from: new Date(to.getTime() - range.ms), to, groupBy: 'variant' }, signal);
      return answer[flag.key];
    },
    { refreshEvery: REFRESH_EVERY },
  );
  const c = counts.data;
  const isBoolean = flag.type === 'BOOLEAN_FLAG_TYPE';
  const shown = useMemo(() => {
    if (!c) return undefined;
    const { shares, lines } = breakdownOf(flag, c);
    return { total: sum(c.values), busiest: Math.max(0, ...c.values), shares, lines, all: { name: 'All', values: c.values, colour: '--chart-total' } };
  }, [c, flag]);
  const step = c ? stepWords(c.timestamps, range.ms) : '';

  return (
    <>
      <section className="card analytics" aria-labelledby="analytics-heading">
        <div className="section-header">
          <div>
            <h2 id="analytics-heading">Evaluations</h2>
            <p className="hint">
              How often Flagpole evaluated this flag, read again every {REFRESH_EVERY / 1000} seconds while this page is visible.
              Evaluations are counted a few seconds after they happen (<code>analytics.buffer.flush_period</code>).
            </p>
          </div>
        </div>
        <div className="range-choice" role="group" aria-label="Range">
          {RANGES.map((r) => (
            <button key={r.key} type="button" aria-pressed={r.key === range.key} onClick={() => setState({ range: r.key })}>
              {r.label}
            </button>
          ))}
        </div>
        <ErrorMessage error={counts.error} />
        {!c && !counts.error && <Loading what="Loading evaluations" />}
        {c && shown && (
          <>
            <dl className="analytics-stats">
              <div>
                <dt>Evaluations, {range.words}</dt>
                <dd>{shown.total.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Busiest {step}</dt>
                <dd>{shown.busiest.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Last evaluated</dt>
                <dd className="analytics-when">
                  {c.lastEvaluatedAt ? (
                    <>
                      {formatDate(c.lastEvaluatedAt, undefined, zone)} <span className="muted">({relativeTime(c.lastEvaluatedAt)})</span>
                    </>
                  ) : (
                    <>
                      Never <span className="muted">(within <code>analytics.retention</code>)</span>
                    </>
                  )}
                </dd>
              </div>
            </dl>
            {shown.total === 0 ? (
              <p className="empty">No evaluations in this range.</p>
            ) : (
              <>
                <EvaluationChart
                  timestamps={c.timestamps}
                  total={shown.all}
                  lines={shown.lines}
                  zone={zone}
                  label={`Chart: ${shown.total.toLocaleString()} evaluations in ${range.words}, per ${step}, the busiest ${step} ${shown.busiest.toLocaleString()}`}
                />
                <p className="hint">
                  Evaluations per {step}; times are {zoneHeading(zone)} (Times, in the navigation).
                </p>
              </>
            )}
          </>
        )}
        <p className="hint analytics-note">
          Only evaluations the server makes are counted (every API, OFREP included). Evaluations that clients make themselves
          from a snapshot, as Flipt's client-side SDKs do, are not.
        </p>
      </section>
      {shown && shown.total > 0 && (
        <section className="card analytics-breakdown" aria-labelledby="breakdown-heading">
          <h2 id="breakdown-heading">{isBoolean ? 'By value' : 'By variant'}</h2>
          <table className="card-table breakdown">
            <thead>
              <tr>
                <th scope="col">{isBoolean ? 'Value' : 'Variant'}</th>
                <th scope="col" className="number">
                  Evaluations
                </th>
                <th scope="col" className="number">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.shares.map((s) => (
                <tr key={s.key}>
                  <th scope="row">
                    <span className="swatch" style={s.colour ? { background: `var(${s.colour})` } : undefined} />
                    <span className={s.key === '' ? undefined : 'key'}>{nameOf(s.key)}</span>
                  </th>
                  <td className="number">{s.count.toLocaleString()}</td>
                  <td className="number">{Math.round((s.count / shown.total) * 100)} %</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}

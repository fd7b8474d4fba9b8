/**
 * Evaluations over time as a chart (the flag page's Analytics tab), drawn by uPlot (docs/ui.md says why that library)
 * on a canvas: a filled line for all evaluations and a line per variant, the times on the x axis in the zone Times
 * chose. A canvas takes no CSS: its colours are the theme's `--chart-*` variables read when it is drawn, and it is
 * drawn again when the theme or the zone changes. Pointing at the chart writes that step's counts under it; for
 * screen readers the chart is one image named by `label`, and the page's table holds the same numbers.
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDateBare } from '../lib/format';
import type { TimeZone } from '../session/time-zone';
import { useShownTheme } from '../session/theme';

export interface ChartLine {
  name: string;
  values: number[];
  /** A CSS colour variable of the theme (`--chart-1`). */
  colour: string;
}

export interface EvaluationChartProps {
  /** Each step's start (RFC 3339), as the API answers them. */
  timestamps: string[];
  /** All evaluations, drawn filled. */
  total: ChartLine;
  lines: ChartLine[];
  zone: TimeZone;
  /** What the chart shows, in words: its accessible name. */
  label: string;
}

const HEIGHT = 220;
/** Steps of the count axis: whole evaluations only. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1e3, 2e3, 2500, 5e3, 1e4, 2e4, 25e3, 5e4, 1e5, 2e5, 25e4, 5e5, 1e6, 2e6, 5e6, 1e7, 1e8, 1e9];

/** `#rrggbb` (or `#rgb`) at `alpha`, for the fill under the total. */
function translucent(colour: string, alpha: number): string {
  const h = colour.trim().replace('#', '');
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h;
  if (!/^[0-9a-f]{6}$/i.test(full)) return colour;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

function optionsOf(box: HTMLElement, props: EvaluationChartProps, onPoint: (index: number | null) => void): uPlot.Options {
  const css = getComputedStyle(box);
  const colour = (name: string) => css.getPropertyValue(name).trim() || '#888888';
  const axis = { stroke: colour('--chart-axis'), grid: { stroke: colour('--chart-grid'), width: 1 }, ticks: { stroke: colour('--chart-grid'), width: 1 } };
  const total = colour(props.total.colour);
  return {
    width: Math.max(box.clientWidth, 200),
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => uPlot.rangeNum(0, Math.max(max, 1), 0.1, true) } },
    // uPlot writes times in the browser's zone unless told another.
    tzDate: props.zone === 'utc' ? (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC') : undefined,
    axes: [
      // 24-hour times as everywhere in the UI (uPlot's own labels say "11:10am"); midnights and whole days by their date.
      {
        ...axis,
        space: 84,
        values: (_u, splits, _axis, _space, step) =>
          splits.map((t) => {
            const bare = formatDateBare(new Date(t * 1000).toISOString(), props.zone);
            const time = bare.slice(11);
            return step >= 86_400 || (step >= 3600 && time === '00:00') ? bare.slice(0, 10) : time;
          }),
      },
      { ...axis, incrs: COUNT_STEPS, size: 56, values: (_u, splits) => splits.map((v) => v.toLocaleString()) },
    ],
    series: [
      {},
      { label: props.total.name, stroke: total, fill: translucent(total, 0.16), width: 2 },
      ...props.lines.map((l) => ({ label: l.name, stroke: colour(l.colour), width: 1.5 })),
    ],
    hooks: { setCursor: [(u: uPlot) => onPoint(u.cursor.idx ?? null)] },
  };
}

const dataOf = (props: EvaluationChartProps): uPlot.AlignedData => [
  props.timestamps.map((t) => Date.parse(t) / 1000),
  props.total.values,
  ...props.lines.map((l) => l.values),
];

export function EvaluationChart(props: EvaluationChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const [point, setPoint] = useState<number | null>(null);
  const theme = useShownTheme();
  // What a new chart is needed for; new counts alone are given to the chart as they are (setData below).
  const shape = JSON.stringify([props.total.name, props.lines.map((l) => [l.name, l.colour]), props.zone, theme]);

  useEffect(() => {
    const el = box.current!;
    const u = new uPlot(optionsOf(el, latest.current, setPoint), dataOf(latest.current), el);
    chart.current = u;
    const resized = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== u.width) u.setSize({ width: el.clientWidth, height: HEIGHT });
    });
    resized.observe(el);
    return () => {
      resized.disconnect();
      u.destroy();
      chart.current = null;
    };
  }, [shape]);

  useEffect(() => {
    chart.current?.setData(dataOf(props));
    // The page keeps these objects until its next answer (useMemo): a render for another reason draws nothing again.
  }, [props.timestamps, props.total, props.lines]);

  const at = point !== null && point < props.timestamps.length ? point : null;
  return (
    <figure className="evaluation-chart">
      <div ref={box} className="evaluation-chart-canvas" role="img" aria-label={props.label} />
      <p className="chart-readout" aria-hidden="true">
        {at === null ? (
          'Point at the chart for the counts of a step.'
        ) : (
          <>
            <span>{formatDateBare(props.timestamps[at], props.zone)}</span>
            {[props.total, ...props.lines].map((l, i) => (
              <span key={i} className="chart-readout-item">
                <span className="swatch" style={{ background: `var(${l.colour})` }} />
                {l.name} {l.values[at].toLocaleString()}
              </span>
            ))}
          </>
        )}
      </p>
    </figure>
  );
}

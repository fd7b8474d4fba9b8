/**
 * Renders a prom-client Registry as Prometheus text (format 0.0.4), character for character what `registry.metrics()`
 * prints, but a few milliseconds at a time. prom-client renders every metric in one synchronous stretch (its promises
 * resolve without ever yielding to the event loop): with 1,000 namespaces × 10 flags evaluated, 3.7 MB and 80–200 ms
 * during which no request is read and no evaluation answers. Here rendering stops after about `sliceMs`, lets the
 * event loop take a turn (`setImmediate`, so pending I/O goes first) and goes on, handing out each slice's lines as
 * one chunk to be sent at once, so that the whole text is never joined or encoded in one piece either.
 *
 * The formatting follows prom-client 15's Registry (`getMetricsAsString`): `# HELP`/`# TYPE`, one line per value with
 * its own labels then the shared ones, escapes, `+Inf`/`-Inf`/`Nan`, families separated by a blank line.
 * Not carried over, because Flagpole's registry uses neither: the registry's default labels and the OpenMetrics
 * content type (exemplars, `_total` renaming). metrics-text.spec.ts compares the two renderings on every metric kind.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Registry } from 'prom-client';

/** One value of a metric, as prom-client's metrics hand them to the registry. */
export interface ExportedValue {
  metricName?: string;
  labels?: Readonly<Record<string, string | number>>;
  /** Labels common to several values (a histogram series' own labels), printed after `labels`. */
  sharedLabels?: Readonly<Record<string, string | number>>;
  value: number;
}

/** What a metric hands over to be printed; `values` may be any iterable, which is read as it is printed. */
export interface ExportedMetric {
  name: string;
  help: string;
  type: string;
  values?: Iterable<ExportedValue>;
}

/**
 * A metric that can give its values lazily (BufferedHistogram: one histogram series makes 18 values, and building
 * 10,000 series' values at once would be a long stretch of its own).
 */
export interface LazilyExported {
  exportLazily(): ExportedMetric;
}

interface RegistryMetric {
  get(): ExportedMetric | Promise<ExportedMetric>;
  getForPromString?(): ExportedMetric | Promise<ExportedMetric>;
  exportLazily?(): ExportedMetric;
}

/**
 * About this long (ms) of rendering, then the event loop gets a turn. With joining the slice's lines and writing them
 * to the socket, and the odd garbage collection, a stretch comes to 4–10 ms.
 */
export const DEFAULT_SLICE_MS = 3;
/** How many values are printed between looks at the clock (a value takes 0.5–2 µs). */
const CLOCK_EVERY = 64;

/**
 * The registry's text in chunks, each a whole number of lines: the chunks joined give exactly `registry.metrics()`.
 * Between chunks the event loop has had a turn. A metric's values are read when it is reached (after the ones
 * before it were printed), as prom-client reads them one after the other too.
 */
export async function* metricsTextChunks(registry: Registry, sliceMs = DEFAULT_SLICE_MS): AsyncGenerator<string> {
  let sliceStart = performance.now();
  let lines: string[] = [];
  const due = () => performance.now() - sliceStart >= sliceMs;
  const take = () => {
    const text = lines.join('');
    lines = [];
    return text;
  };
  const metrics = registry.getMetricsAsArray() as unknown as RegistryMetric[];
  for (let m = 0; m < metrics.length; m++) {
    const metric = await exported(metrics[m]);
    const name = escapeString(metric.name);
    lines.push(`${m === 0 ? '' : '\n\n'}# HELP ${name} ${escapeString(metric.help)}\n# TYPE ${name} ${metric.type}`);
    let count = 0;
    for (const value of metric.values ?? []) {
      lines.push(`\n${formatValue(value, name)}`);
      if (++count % CLOCK_EVERY === 0 && due()) {
        yield take();
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    if (due()) {
      yield take();
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  lines.push('\n');
  yield take();
}

/** The registry's whole text, as `registry.metrics()` gives it, rendered in slices (metricsTextChunks). */
export async function metricsText(registry: Registry, sliceMs = DEFAULT_SLICE_MS): Promise<string> {
  const chunks: string[] = [];
  for await (const chunk of metricsTextChunks(registry, sliceMs)) chunks.push(chunk);
  return chunks.join('');
}

async function exported(metric: RegistryMetric): Promise<ExportedMetric> {
  if (typeof metric.exportLazily === 'function') return metric.exportLazily();
  return typeof metric.getForPromString === 'function' ? await metric.getForPromString() : await metric.get();
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/** One sample line, as prom-client prints it. */
function formatValue(value: ExportedValue, familyName: string): string {
  const labels = value.labels ?? NO_LABELS;
  const shared = value.sharedLabels ?? NO_LABELS;
  const parts: string[] = [];
  for (const [label, v] of Object.entries(labels)) {
    if (!Object.prototype.hasOwnProperty.call(shared, label)) parts.push(`${label}="${escapeLabelValue(v)}"`);
  }
  const flatShared = flattenShared(shared);
  if (flatShared) parts.push(flatShared);
  const labelText = parts.length > 0 ? `{${parts.join(',')}}` : '';
  return `${value.metricName ?? familyName}${labelText} ${valueText(value.value)}`;
}

/** A histogram series' labels are the same object on all its lines: formatted once (as prom-client caches them). */
const sharedCache = new WeakMap<object, string>();
function flattenShared(shared: Readonly<Record<string, string | number>>): string {
  let flat = sharedCache.get(shared);
  if (flat === undefined) {
    flat = Object.entries(shared).map(([label, v]) => `${label}="${escapeLabelValue(v)}"`).join(',');
    sharedCache.set(shared, flat);
  }
  return flat;
}

function escapeString(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(v: string | number): string | number {
  return typeof v === 'string' ? escapeString(v).replace(/"/g, '\\"') : v;
}

/** prom-client's spelling, `Nan` included. */
function valueText(v: number): string {
  if (Number.isNaN(v)) return 'Nan';
  if (!Number.isFinite(v)) return v < 0 ? '-Inf' : '+Inf';
  return `${v}`;
}

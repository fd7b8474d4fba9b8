/**
 * A Prometheus histogram for the hot path. prom-client's Histogram validates and hashes the labels on every
 * `observe`, even on a bound child, which cost about 6 % of single-evaluation throughput (two observations per
 * request: the HTTP latency and the evaluation latency). A BufferedHistogram's children are bound once and count
 * into a plain array; the histogram registers itself in a prom-client Registry and hands the registry the same
 * values prom-client's Histogram would (buckets cumulative, `+Inf`, `_sum`, `_count`), so /metrics reads the same.
 */
import type { Registry } from 'prom-client';
import type { LazilyExported } from './metrics-text';
import { SeriesLimit } from './series-limit';

export interface BufferedHistogramConfiguration<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  buckets: readonly number[];
  registers: Registry[];
  /** Most series (label combinations) in all; past it new combinations share the one whose every label is `_other`. */
  maxSeries?: number;
}

export class BufferedHistogramChild {
  /** Observations per bucket (not cumulative); the last slot is `+Inf`. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

interface ExportedValue {
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels: Readonly<Record<string, string>>;
  value: number;
}

interface Exported<V extends Iterable<ExportedValue> = ExportedValue[]> {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  values: V;
}

export class BufferedHistogram<L extends string> implements LazilyExported {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private readonly labelNames: readonly L[];
  private readonly bounds: readonly number[];
  private readonly children = new Map<string, BufferedHistogramChild>();
  private readonly series: SeriesLimit;

  constructor(config: BufferedHistogramConfiguration<L>) {
    this.series = new SeriesLimit(config.labelNames.length, config.maxSeries);
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    this.bounds = [...config.buckets].sort((a, b) => a - b);
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  /** The child for these label values (the same child for the same values); callers keep it. */
  labels(...values: string[]): BufferedHistogramChild {
    if (values.length !== this.labelNames.length) {
      throw new Error(`${this.name}: expected ${this.labelNames.length} label values, got ${values.length}`);
    }
    let key = JSON.stringify(values);
    let child = this.children.get(key);
    if (child) return child;
    if (this.series.full(this.children, key)) {
      ({ key, values } = this.series.overflow);
      child = this.children.get(key);
      if (child) return child;
    }
    const labels: Record<string, string> = {};
    this.labelNames.forEach((name, i) => (labels[name] = values[i]));
    child = new BufferedHistogramChild(labels, this.bounds);
    this.children.set(key, child);
    return child;
  }

  /** prom-client's Metric contract, as its Histogram: each value's labels hold all its labels. */
  get(): Exported {
    const exported = this.getForPromString();
    return { ...exported, values: exported.values.map((v) => ({ ...v, labels: { ...v.sharedLabels, ...v.labels }, sharedLabels: {} })) };
  }

  /** What the registry prints (the registry prefers this to `get`): as prom-client's Histogram. */
  getForPromString(): Exported {
    const exported = this.exportLazily();
    return { ...exported, values: [...exported.values] };
  }

  /**
   * The same values, made series by series as they are read (metrics-text.ts pauses between slices of them). Each
   * series' lines are made together, so that its buckets, sum and count agree even if a pause falls among them.
   */
  exportLazily(): Exported<Iterable<ExportedValue>> {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.values() };
  }

  private *values(): Generator<ExportedValue> {
    for (const child of this.children.values()) {
      if (child.count > 0) yield* this.valuesOf(child);
    }
  }

  private valuesOf(child: BufferedHistogramChild): ExportedValue[] {
    const values: ExportedValue[] = [];
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += child.counts[i];
      values.push({ metricName: `${this.name}_bucket`, labels: { le: bound }, sharedLabels: child.labels, value: cumulative });
    });
    values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf' }, sharedLabels: child.labels, value: child.count });
    values.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels: child.labels, value: child.sum });
    values.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels: child.labels, value: child.count });
    return values;
  }

  reset(): void {
    for (const child of this.children.values()) child.reset();
  }
}

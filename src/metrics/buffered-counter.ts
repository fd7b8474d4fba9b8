/**
 * A prom-client Counter for the hot path. prom-client validates and hashes the labels on every `inc`, even on a
 * bound child; an evaluation increments two or three counters, a 50-flag batch a hundred. A BufferedCounter's
 * children count in a plain number instead, and hand their count to the prom-client child when the counter is
 * collected, i.e. on every scrape of /metrics, so what Prometheus sees is unchanged.
 */
import { Counter, type CounterConfiguration } from 'prom-client';
import { SeriesLimit } from './series-limit';

export interface BufferedCounterConfiguration<L extends string> extends Omit<CounterConfiguration<L>, 'collect'> {
  /** Most series (label combinations) in all; past it new combinations share the one whose every label is `_other`. */
  maxSeries?: number;
}

export class BufferedCounterChild {
  private pending = 0;

  constructor(private readonly target: Counter.Internal) {}

  inc(): void {
    this.pending++;
  }

  flush(): void {
    if (this.pending === 0) return;
    this.target.inc(this.pending);
    this.pending = 0;
  }
}

export class BufferedCounter<L extends string> {
  readonly counter: Counter<L>;
  private readonly children = new Map<string, BufferedCounterChild>();
  private readonly series: SeriesLimit;

  constructor({ maxSeries, ...config }: BufferedCounterConfiguration<L>) {
    const children = this.children;
    this.series = new SeriesLimit(config.labelNames?.length ?? 0, maxSeries);
    this.counter = new Counter<L>({
      ...config,
      collect() {
        for (const child of children.values()) child.flush();
      },
    });
  }

  /** The child for these label values (the same child for the same values); callers keep it (ChildCache). */
  labels(...values: string[]): BufferedCounterChild {
    let key = JSON.stringify(values);
    let child = this.children.get(key);
    if (child) return child;
    if (this.series.full(this.children, key)) {
      ({ key, values } = this.series.overflow);
      child = this.children.get(key);
      if (child) return child;
    }
    child = new BufferedCounterChild(this.counter.labels(...values));
    this.children.set(key, child);
    return child;
  }
}

/**
 * The series budget of one buffered metric (BufferedCounter, BufferedHistogram): past `max`, new label combinations
 * share the series whose every label is `_other`. One slot is kept for that series, so that the metric never holds
 * more than `max` series in all, the overflow one included, and a scrape's size stays bounded.
 */
import { OVERFLOW_LABEL } from './child-cache';

export class SeriesLimit {
  readonly overflow: { key: string; values: string[] };

  constructor(
    labelCount: number,
    private readonly max = Infinity,
  ) {
    const values = Array.from({ length: labelCount }, () => OVERFLOW_LABEL);
    this.overflow = { key: JSON.stringify(values), values };
  }

  /** Whether a new series under `key` must go to the overflow series instead; asked only for new combinations. */
  full(children: ReadonlyMap<string, unknown>, key: string): boolean {
    if (key === this.overflow.key) return false;
    return children.size >= (children.has(this.overflow.key) ? this.max : this.max - 1);
  }
}

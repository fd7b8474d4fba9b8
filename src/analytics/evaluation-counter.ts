/**
 * Evaluation counts held in memory between flushes: per minute, namespace, flag, variant (or boolean value) and
 * reason. `count` runs on every evaluation, so it builds no string, reads no clock and allocates nothing once a
 * combination has been seen: three Map lookups (namespace, flag, variant) and an increment in a small array indexed
 * by Flipt's reason number. The minute counts go to is set from outside (`setMinute`, by a timer at each minute's
 * start): on this VM `Date.now()` alone cost about as much as the three lookups. `take` hands everything over for a
 * flush; `restore` puts back what a failed flush could not write.
 *
 * Bounded: at most `maxEntries` rows (combinations with a count) at once. Keys come from stored flags and variants,
 * so the bound matters only while flushes fail: then a new combination is not counted (and is counted as dropped),
 * and a restore keeps the newest minutes and drops the oldest.
 */

/** One stored row's worth: `minute` is minutes since the Unix epoch (UTC). */
export interface CountRow {
  namespaceKey: string;
  flagKey: string;
  minute: number;
  variantKey: string;
  reason: number;
  count: number;
}

/** Flipt's EvaluationReason numbers (UNKNOWN 0, FLAG_DISABLED 1, MATCH 2, DEFAULT 3): the index into a leaf. */
export const REASON_NUMBERS = Object.freeze({ UNKNOWN: 0, FLAG_DISABLED: 1, MATCH: 2, DEFAULT: 3 } as const);
const REASONS = 4;

export const MINUTE_MS = 60_000;

type ByVariant = Map<string, number[]>;
type ByFlag = Map<string, ByVariant>;
type ByNamespace = Map<string, ByFlag>;

export class EvaluationCounter {
  private readonly minutes = new Map<number, ByNamespace>();
  private minute: number;
  /** The current minute's map, also in `minutes`. */
  private current: ByNamespace = new Map();
  /** Rows with a count, in all minutes. */
  private entries = 0;
  /** Counts not kept because of the bound, since the last `takeDropped`. */
  private dropped = 0;

  constructor(
    private readonly maxEntries: number,
    minute = Math.floor(Date.now() / MINUTE_MS),
  ) {
    this.minute = minute;
    this.minutes.set(minute, this.current);
  }

  get size(): number {
    return this.entries;
  }

  /** The minute (since the epoch) counts go to from now on. */
  setMinute(minute: number): void {
    if (minute === this.minute) return;
    let byNamespace = this.minutes.get(minute);
    if (byNamespace === undefined) this.minutes.set(minute, (byNamespace = new Map()));
    this.minute = minute;
    this.current = byNamespace;
  }

  count(namespace: string, flag: string, variant: string, reason: number): void {
    let byFlag = this.current.get(namespace);
    if (byFlag === undefined) this.current.set(namespace, (byFlag = new Map()));
    let byVariant = byFlag.get(flag);
    if (byVariant === undefined) byFlag.set(flag, (byVariant = new Map()));
    let leaf = byVariant.get(variant);
    if (leaf === undefined) byVariant.set(variant, (leaf = [0, 0, 0, 0]));
    this.add(leaf, reason, 1);
  }

  /** Every row held, each combination once; the counter is empty afterwards. */
  take(): CountRow[] {
    const rows: CountRow[] = [];
    for (const [minute, byNamespace] of this.minutes) {
      for (const [namespaceKey, byFlag] of byNamespace) {
        for (const [flagKey, byVariant] of byFlag) {
          for (const [variantKey, leaf] of byVariant) {
            for (let reason = 0; reason < REASONS; reason++) {
              if (leaf[reason] > 0) rows.push({ namespaceKey, flagKey, minute, variantKey, reason, count: leaf[reason] });
            }
          }
        }
      }
    }
    this.minutes.clear();
    this.current = new Map();
    this.minutes.set(this.minute, this.current);
    this.entries = 0;
    return rows;
  }

  /**
   * Puts back rows a flush could not write, adding to what was counted since. Newest minutes first, so that when the
   * bound is reached it is the oldest that are dropped.
   */
  restore(rows: CountRow[]): void {
    const newestFirst = [...rows].sort((a, b) => b.minute - a.minute);
    for (const row of newestFirst) {
      let byNamespace = this.minutes.get(row.minute);
      if (byNamespace === undefined) this.minutes.set(row.minute, (byNamespace = new Map()));
      let byFlag = byNamespace.get(row.namespaceKey);
      if (byFlag === undefined) byNamespace.set(row.namespaceKey, (byFlag = new Map()));
      let byVariant = byFlag.get(row.flagKey);
      if (byVariant === undefined) byFlag.set(row.flagKey, (byVariant = new Map()));
      let leaf = byVariant.get(row.variantKey);
      if (leaf === undefined) byVariant.set(row.variantKey, (leaf = [0, 0, 0, 0]));
      this.add(leaf, row.reason, row.count);
    }
  }

  /** How many evaluations were not counted since the last call. */
  takeDropped(): number {
    const dropped = this.dropped;
    this.dropped = 0;
    return dropped;
  }

  private add(leaf: number[], reason: number, n: number): void {
    const held = leaf[reason];
    if (held === 0) {
      if (this.entries >= this.maxEntries) {
        this.dropped += n;
        return;
      }
      this.entries++;
    }
    leaf[reason] = held + n;
  }
}

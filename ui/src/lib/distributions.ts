/**
 * A rule's variant split. The API checks each percentage (0–100) but not their sum; a sum under 100 leaves some
 * entities unmatched and a sum over 100 makes later variants unreachable, so the UI insists on exactly 100.
 */
export interface Share {
  variantId: string;
  percent: number;
}

/** Sums in hundredths, so that 33.33 + 33.33 + 33.34 is exactly 100. */
export function totalPercent(shares: Share[]): number {
  return shares.reduce((sum, s) => sum + Math.round((Number.isFinite(s.percent) ? s.percent : 0) * 100), 0) / 100;
}

export function splitProblem(shares: Share[]): string | undefined {
  const bad = shares.find((s) => !Number.isFinite(s.percent) || s.percent < 0 || s.percent > 100);
  if (bad) return 'Each percentage must be a number from 0 to 100.';
  const total = totalPercent(shares);
  return total === 100 ? undefined : `The percentages must add up to 100% (now ${total}%).`;
}

/** An even split of 100 over `n` variants in hundredths, the remainder on the last one (3 → 33.33/33.33/33.34). */
export function evenSplit(n: number): number[] {
  if (n === 0) return [];
  const each = Math.floor(10000 / n) / 100;
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? Math.round((100 - each * (n - 1)) * 100) / 100 : each));
}

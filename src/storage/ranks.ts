/** Rules and rollouts are ordered by rank; equal ranks (Flipt allows them for rules) fall back to creation order. */
export const RANK_ORDER = { rank: 'asc', createdAt: 'asc', id: 'asc' } as const;

/** After a delete, Flipt renumbers the remaining rules (or rollouts) 1..n in their current order; flush after. */
export function renumber(rows: Array<{ rank: number }>): void {
  rows.forEach((row, i) => {
    row.rank = i + 1;
  });
}

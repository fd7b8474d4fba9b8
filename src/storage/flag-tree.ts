/**
 * The layout of a packed page of flags (the dialect table's `packedFlags`: sqlite-json.ts, pg-json.ts), which
 * evaluation-source.ts reads back. The SQL returns the flags its inner query selects (any columns of `flags`, at
 * least FLAG_COLUMNS), each with everything evaluation reads of it, as one JSON array in the column `rows`, in
 * creation order (then id). Each flag is `[[FLAG_COLUMNS…], variants, rules, rollouts]`:
 * - a variant `[VARIANT_COLUMNS…]`;
 * - a rule `[[RULE_COLUMNS…], segment keys, distributions]`, a distribution `[DISTRIBUTION_COLUMNS…]`;
 * - a rollout `[[ROLLOUT_COLUMNS…], segment keys]`.
 * Rules and rollouts are in rank order (then creation, then id), variants and distributions in creation order,
 * segment keys in their position order. Boolean flags have rollouts, variant flags variants and rules: the other
 * kind is not read.
 */
export const FLAG_COLUMNS = ['id', 'key', 'name', 'description', 'enabled', 'type', 'default_variant_id', 'created_at', 'updated_at'] as const;
export const VARIANT_COLUMNS = ['id', 'key', 'attachment'] as const;
export const RULE_COLUMNS = ['id', 'rank', 'segment_operator'] as const;
export const DISTRIBUTION_COLUMNS = ['id', 'variant_id', 'rollout'] as const;
export const ROLLOUT_COLUMNS = ['id', 'type', 'rank', 'description', 'percentage', 'segment_operator', 'value'] as const;

/** One flag as the layout above has it. */
export type FlagTree = [unknown[], unknown[][], Array<[unknown[], unknown[], unknown[][]]>, Array<[unknown[], unknown[]]>];

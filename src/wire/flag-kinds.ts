/**
 * A flag's kind, as Flagpole writes it in the flag's Flipt metadata (`metadata.flagpole.kind`, lifecycle/): Unleash's
 * kinds; the last two are permanent, never stale. Also the values `lifecycle.default_kind` accepts.
 */
export const FLAG_KINDS = ['release', 'experiment', 'operational', 'kill_switch', 'permission'] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];

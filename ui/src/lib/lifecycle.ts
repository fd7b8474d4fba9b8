/**
 * A flag's lifecycle (issue 40; docs/api.md, *Flag lifecycle*) as the UI words it. Kind and archive live in the
 * flag's Flipt metadata under one key, `metadata.flagpole = { kind?, archived? }`, so Flipt's clients, export and
 * import carry them unchanged; `withLifecycle` changes them and leaves every other key of the metadata as it is.
 */

export const KINDS = ['release', 'experiment', 'operational', 'kill_switch', 'permission'] as const;
export type Kind = (typeof KINDS)[number];

/** Each kind in words, with what it is for and how long it is expected to live (the server's defaults). */
export const KIND_LABELS: Record<Kind, string> = {
  release: 'Release',
  experiment: 'Experiment',
  operational: 'Operational',
  kill_switch: 'Kill switch',
  permission: 'Permission',
};

export const KIND_HINTS: Record<Kind, string> = {
  release: 'ships a change gradually, then goes (40 days by default)',
  experiment: 'an A/B or multivariate test (40 days by default)',
  operational: 'a short-lived operational switch (7 days by default)',
  kill_switch: 'turns a feature off in an emergency; permanent',
  permission: 'gives some users a feature; permanent',
};

/** A kind the API answered, in words (an unknown one as it is). */
export const kindLabel = (kind: string | undefined): string => (kind && kind in KIND_LABELS ? KIND_LABELS[kind as Kind] : kind ?? '');

export type LifecycleState = 'new' | 'live' | 'potentially_stale' | 'archived';

export const STATE_LABELS: Record<LifecycleState, string> = {
  new: 'New',
  live: 'Live',
  potentially_stale: 'Potentially stale',
  archived: 'Archived',
};

export const stateLabel = (state: string): string => STATE_LABELS[state as LifecycleState] ?? state;

/** Why a flag is potentially stale, in a few words (the server's `detail` says it in full). */
export const REASON_LABELS: Record<string, string> = {
  lifetime: 'past its lifetime',
  unused: 'not evaluated lately',
  rolled_out: 'fully rolled out',
};

export const reasonLabel = (reason: string): string => REASON_LABELS[reason] ?? reason.replace(/_/g, ' ');

/** What Flagpole keeps of the lifecycle in a flag's metadata. */
export interface LifecycleMarks {
  kind?: string;
  archived?: boolean;
}

type Metadata = Record<string, unknown> | undefined;

/** `metadata.flagpole`, when it is an object. */
export function marksOf(metadata: Metadata): LifecycleMarks {
  const marks = metadata?.flagpole;
  if (!marks || typeof marks !== 'object' || Array.isArray(marks)) return {};
  const { kind, archived } = marks as Record<string, unknown>;
  return { kind: typeof kind === 'string' ? kind : undefined, archived: archived === true };
}

/**
 * The metadata with `change` made to its `flagpole` marks, every other key as it was. An archived flag unarchived
 * loses the mark rather than keeping `archived: false`, and marks left empty lose the key, so that a flag never
 * marked reads as it did.
 */
export function withLifecycle(metadata: Metadata, change: LifecycleMarks): Record<string, unknown> {
  const { flagpole, ...rest } = metadata ?? {};
  const marks: Record<string, unknown> = flagpole && typeof flagpole === 'object' && !Array.isArray(flagpole) ? { ...(flagpole as object) } : {};
  if (change.kind !== undefined) marks.kind = change.kind;
  if (change.archived !== undefined) {
    if (change.archived) marks.archived = true;
    else delete marks.archived;
  }
  return Object.keys(marks).length > 0 ? { ...rest, flagpole: marks } : rest;
}

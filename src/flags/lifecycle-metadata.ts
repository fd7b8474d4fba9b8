/**
 * Where a flag's lifecycle lives: its Flipt metadata, under one key, `metadata.flagpole = { kind?, archived? }`, so
 * that Flipt's clients, export and import carry it unchanged. Checked once, on the flag service's create and update
 * (validateLifecycleMetadata); read leniently everywhere else (lifecycleMarkers), since a document imported or
 * mirrored from files is not checked field by field.
 */
import { ValidationError } from '../common/errors';
import { FLAG_KINDS, type FlagKind } from '../wire';

/** The kinds with an expected lifetime (lifecycle.lifetimes.*). */
export type TemporaryKind = 'release' | 'experiment' | 'operational';
export const TEMPORARY_KINDS: readonly TemporaryKind[] = ['release', 'experiment', 'operational'];

/** The metadata key Flagpole owns. */
export const METADATA_KEY = 'flagpole';
const FIELDS = ['kind', 'archived'];

export interface LifecycleMarkers {
  /** Absent: the namespace's default kind. */
  kind?: FlagKind;
  archived: boolean;
}

export function isFlagKind(value: unknown): value is FlagKind {
  return typeof value === 'string' && (FLAG_KINDS as readonly string[]).includes(value);
}

/** Refuses a `metadata.flagpole` that is not `{ kind?: <kind>, archived?: boolean }` (400 naming the field). */
export function validateLifecycleMetadata(metadata: Record<string, unknown> | undefined): void {
  if (metadata === undefined || !(METADATA_KEY in metadata)) return;
  const field = `metadata.${METADATA_KEY}`;
  const value = metadata[METADATA_KEY];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ValidationError(field, 'must be an object with kind and archived');
  const markers = value as Record<string, unknown>;
  const unknown = Object.keys(markers).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) throw new ValidationError(`${field}.${unknown}`, `is not a known field (${FIELDS.join(', ')})`);
  if ('kind' in markers && !isFlagKind(markers.kind)) throw new ValidationError(`${field}.kind`, `must be one of ${FLAG_KINDS.join(', ')}`);
  if ('archived' in markers && typeof markers.archived !== 'boolean') throw new ValidationError(`${field}.archived`, 'must be a boolean');
}

/** The markers of a flag's stored metadata (JSON text or null); anything malformed reads as absent. */
export function lifecycleMarkers(metadata: string | null): LifecycleMarkers {
  if (metadata === null || !metadata.includes(`"${METADATA_KEY}"`)) return { archived: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return { archived: false };
  }
  const value = (parsed as Record<string, unknown> | null)?.[METADATA_KEY] as Record<string, unknown> | undefined;
  if (value === null || typeof value !== 'object') return { archived: false };
  return { ...(isFlagKind(value.kind) ? { kind: value.kind } : {}), archived: value.archived === true };
}

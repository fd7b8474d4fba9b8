/**
 * A write's effect on a namespace's snapshot, and its application in place. A delta carries the complete new
 * state of what the write touched (flags and segments, as the loader reads them) and the two versions it lies
 * between, so it applies only to the snapshot it follows on from; applying it costs what it changed: the flags it
 * carries are compiled, a changed segment is compiled and put in the one link every rule and rollout naming it holds.
 *
 * Deltas are plain JSON, so the instance that made the write can hand the same one to the others.
 */
import type { CompiledFlag, LiveSnapshot } from './snapshot';
import { compileFlag, flagOrder, linkerOf } from './snapshot';
import { compileSegment } from './constraints';
import type { SourceFlag, SourceSegment } from './source';

export interface NamespaceDelta {
  /** The namespace version the write started from, and the one it left. */
  from: string;
  to: string;
  /** Flags created or changed, whole. */
  flags: SourceFlag[];
  removedFlags: string[];
  /** Segments created or changed, whole. */
  segments: SourceSegment[];
  removedSegments: string[];
}

/**
 * `applied`: the snapshot now reflects `delta.to`. `included`: the snapshot is already at or past it (it was loaded
 * after the write). `gap`: the snapshot is older than `delta.from`; a delta in between is missing and only a full
 * load can bring it up to date.
 */
export type DeltaOutcome = 'applied' | 'included' | 'gap';

/** Versions are decimal numbers that grow with every write (the namespace's last write time). */
function versionNumber(version: string): number {
  return version === '' ? -1 : Number(version);
}

export function applyDelta(snapshot: LiveSnapshot, delta: NamespaceDelta): DeltaOutcome {
  if (snapshot.version !== delta.from) {
    return versionNumber(delta.to) <= versionNumber(snapshot.version) ? 'included' : 'gap';
  }
  const link = linkerOf(snapshot);
  for (const key of delta.removedSegments) {
    snapshot.segments.delete(key);
    const existing = snapshot.links.get(key);
    if (existing) existing.current = null;
  }
  for (const source of delta.segments) {
    const segment = compileSegment(source);
    snapshot.segments.set(source.key, segment);
    link(source.key).current = segment;
  }
  for (const key of delta.removedFlags) snapshot.flags.delete(key);
  for (const source of delta.flags) putFlag(snapshot, compileFlag(source, link));
  snapshot.version = delta.to;
  return 'applied';
}

/**
 * A changed flag keeps its place (Map.set on a present key); a new one normally sorts last and is appended. One
 * that sorts earlier (created on a clock behind another's) leaves the snapshot unordered: orderedFlags sorts it
 * for the document, so the write costs no sort.
 */
function putFlag(snapshot: LiveSnapshot, flag: CompiledFlag): void {
  const known = snapshot.flags.has(flag.key);
  snapshot.flags.set(flag.key, flag);
  if (known) return;
  const newest = snapshot.newest;
  if (newest === null || flagOrder(newest, flag) < 0) snapshot.newest = flag;
  else snapshot.unordered = true;
}

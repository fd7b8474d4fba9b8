/** Where declarative storage gets its files: a directory (local-source.ts) or a Git repository (git-source.ts). */
import type { StateFile } from './state-files';

export interface SourceSnapshot {
  /** Names this version of the files (a digest of names, sizes and times; a commit id): unchanged, nothing to read. */
  version: string;
  /** The files of that version (read only when the version is new). */
  files(): Promise<{ index: string | null; files: StateFile[] }>;
}

export interface StateSource {
  /** For /health: `{type, path | repository, ref, …}`. */
  readonly description: Record<string, unknown>;
  /** How often to look for a new version (besides `watch`). */
  readonly pollInterval: number;
  /** The current version; throws when it cannot be reached (a fetch failing). */
  current(): Promise<SourceSnapshot>;
  /** Calls `changed` when the source may have changed (a file watcher); returns how to stop. */
  watch?(changed: () => void): () => void;
  close(): Promise<void>;
}

/**
 * State files from a directory (`storage.type: local`). A version is the names, sizes and modification times of the
 * index and the state files: a poll that finds them unchanged reads nothing. Changes are reported by node:fs's
 * recursive watcher (inotify on Linux) within about 100 ms; the poll covers file systems that report nothing.
 * Symbolic links are followed (a Kubernetes ConfigMap volume is links into a timestamped directory, whose `..`
 * directories are skipped).
 */
import { watch } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { readIndex, selectStateFiles, type FileTree } from './state-files';
import type { SourceSnapshot, StateSource } from './state-source';

/** Never walked: version control data and dependencies are not flag state. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

export class LocalSource implements StateSource {
  readonly root: string;
  readonly description: Record<string, unknown>;
  private readonly tree: FileTree;

  constructor(path: string, readonly pollInterval: number) {
    this.root = resolve(path);
    this.description = { type: 'local', path: this.root };
    this.tree = directoryTree(this.root);
  }

  async current(): Promise<SourceSnapshot> {
    const paths = await this.tree.list();
    const index = await readIndex(this.tree, paths);
    const watched = [...(index.file ? [index.file] : []), ...selectStateFiles(paths, index)];
    const parts = await Promise.all(watched.map(async (p) => {
      const s = await stat(join(this.root, p));
      // ctime and inode too: a copy that keeps size and modification time (rsync -a, cp -p, tar) changes those.
      return `${p}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`;
    }));
    const selected = selectStateFiles(paths, index);
    return {
      version: parts.join('\n'),
      files: async () => ({ index: index.file, files: await Promise.all(selected.map(async (path) => ({ path, text: await this.tree.read(path) }))) }),
    };
  }

  watch(changed: () => void): () => void {
    const watcher = watch(this.root, { recursive: true }, changed);
    // A watcher that fails (the directory removed, out of inotify watches) stops; the poll carries on.
    watcher.on('error', () => watcher.close());
    return () => watcher.close();
  }

  async close(): Promise<void> {}
}

/** A directory's files, as `storage.type: local` reads them. */
export function directoryTree(root: string): FileTree {
  return {
    async list() {
      const out: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        const entries = await readdir(dir, { withFileTypes: true });
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
          const full = join(dir, entry.name);
          const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(full).catch(() => null))?.isDirectory());
          if (isDir) {
            if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith('..')) await walk(full);
          } else {
            out.push(relative(root, full).split(sep).join('/'));
          }
        }
      };
      await walk(root);
      return out;
    },
    read: (path) => readFile(join(root, path), 'utf8'),
  };
}

/**
 * State files from a directory (`storage.type: local`). A version is the names, sizes and modification times of the
 * index and the state files: a poll that finds them unchanged reads nothing. Changes are reported by node:fs's
 * recursive watcher (inotify on Linux) within about 100 ms; the poll covers file systems that report nothing.
 * Symbolic links are followed while they stay inside the directory (a Kubernetes ConfigMap volume is links into a
 * timestamped directory, whose `..` directories are skipped); a link that leads out of it is not read, and each real
 * directory is walked once, so links that loop end the walk rather than grow it.
 */
import { watch } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
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

/**
 * A directory's files, as `storage.type: local` reads them: paths as found in it (a link's own name, not its
 * target's). A link is followed only to a place inside the directory: one that leads out is listed as a file and
 * never walked, and reading it is refused, naming it, without opening what it points to.
 */
export function directoryTree(root: string): FileTree {
  /** Where a path really is ('outside' when a link leads out of `top`, the directory's own), or null: nowhere. */
  const locate = async (path: string, top: string): Promise<string | 'outside' | null> => {
    const real = await realpath(path).catch(() => null);
    if (real === null) return null;
    const rel = relative(top, real);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) ? real : 'outside';
  };
  return {
    async list() {
      const top = await realpath(root);
      const out: string[] = [];
      const walked = new Set<string>();
      const walk = async (dir: string, real: string): Promise<void> => {
        // Two names for one directory (a link to it, or to an ancestor: a loop) are walked once.
        if (walked.has(real)) return;
        walked.add(real);
        const entries = await readdir(dir, { withFileTypes: true });
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
          const full = join(dir, entry.name);
          let target: string | 'outside' | null = join(real, entry.name);
          let isDir = entry.isDirectory();
          if (entry.isSymbolicLink()) {
            target = await locate(full, top);
            // A dangling link, or one that leads out, is listed as a file: reading it (when selected) says what is wrong.
            isDir = target !== null && target !== 'outside' && ((await stat(target).catch(() => null))?.isDirectory() ?? false);
          }
          if (!isDir) out.push(relative(root, full).split(sep).join('/'));
          else if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith('..')) await walk(full, target as string);
        }
      };
      await walk(root, top);
      return out;
    },
    read: async (path) => {
      const full = join(root, path);
      // Checked at the read too: a link changed since the listing must not lead out either.
      if ((await locate(full, await realpath(root))) === 'outside') throw new Error(`${path}: a symbolic link that leads out of ${root} is not followed`);
      return readFile(full, 'utf8');
    },
  };
}

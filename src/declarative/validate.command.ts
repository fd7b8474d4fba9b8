/**
 * `flagpole validate [DIR|FILE …]` (default: the current directory): checks Flipt-format files as declarative storage
 * would serve them — a directory through its index (or the default patterns), files as named — without a database or
 * a server. Prints what the files describe; a problem is thrown (main.ts prints it, naming file, line and path; exit 1).
 */
import { readFile, stat } from 'node:fs/promises';
import { InvalidError } from '../common/errors';
import { buildState } from './declarative-state';
import { directoryTree } from './local-source';
import { readStateFiles, type StateFile } from './state-files';

export async function runValidateCommand(paths: readonly string[]): Promise<void> {
  const files: StateFile[] = [];
  for (const path of paths.length > 0 ? paths : ['.']) {
    const found = await stat(path).catch(() => null);
    if (!found) throw new InvalidError(`${path}: no such file or directory`);
    if (found.isDirectory()) {
      const read = await readStateFiles(directoryTree(path));
      files.push(...read.files.map((f) => ({ ...f, path: `${path.replace(/\/+$/, '')}/${f.path}` })));
    } else {
      files.push({ path, text: await readFile(path, 'utf8') });
    }
  }
  const state = buildState(files);
  const described = [...state.namespaces.values()]
    .filter((d) => d.flags.length > 0 || d.segments.length > 0 || d.namespace.key !== 'default')
    .map((d) => `  ${d.namespace.key}: ${d.flags.length} flags, ${d.segments.length} segments`);
  process.stdout.write(`${files.length} files checked, no problem found${described.length ? `:\n${described.join('\n')}` : ''}\n`);
}

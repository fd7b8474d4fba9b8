/**
 * Which files of a tree (a directory, a Git commit) hold flag state, as Flipt's declarative storage finds them: an index file at the root
 * (`.flipt.yml`; Flagpole also reads `flipt.yml`) with `include` and `exclude` globs, or, without one,
 * `features.yml` / `*.features.yml` (and `.yaml`) at any depth. Globs follow Flipt's (gobwas/glob without
 * separators): `*` and `**` match any characters, `/` included; `?` one character; `[abc]`, `[!a-z]` and `{a,b}`
 * as usual. Hand-written (a few lines): the glob libraries on npm treat `*` as stopping at `/`, which would read
 * Flipt users' index files differently.
 */
import { isMap, isScalar, isSeq, LineCounter } from 'yaml';
import { parseYaml } from '../common/bounded-yaml';
import { DocumentError } from '../flags-as-code/document-reader';

export const INDEX_FILES = ['.flipt.yml', 'flipt.yml'];
const DEFAULT_INCLUDE = ['**features.yml', '**features.yaml', '**.features.yml', '**.features.yaml'];

/** Where state files are read from: a directory, or a Git commit's tree. */
export interface FileTree {
  /** Every file, relative to the root, `/`-separated, in path order. */
  list(): Promise<string[]>;
  read(path: string): Promise<string>;
}

export interface StateIndex {
  /** The index file it came from, or null for the default. */
  file: string | null;
  include: RegExp[];
  exclude: RegExp[];
}

/** A glob as Flipt matches it, against `/`-separated paths relative to the root. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      while (glob[i + 1] === '*') i++;
      out += '.*';
    } else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) throw new Error(`unclosed "[" in ${JSON.stringify(glob)}`);
      const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
      out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
      i = end;
    } else if (c === '{') {
      depth++;
      out += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (c === ',' && depth > 0) out += '|';
    else if (c === '\\' && i + 1 < glob.length) out += `\\${glob[++i]}`;
    else out += c.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  if (depth > 0) throw new Error(`unclosed "{" in ${JSON.stringify(glob)}`);
  return new RegExp(`^${out}$`);
}

/** The tree's index: its index file's, or the default. A bad index file is a DocumentError naming it. */
export async function readIndex(tree: FileTree, paths: readonly string[]): Promise<StateIndex> {
  const name = INDEX_FILES.find((f) => paths.includes(f));
  if (name === undefined) return { file: null, include: DEFAULT_INCLUDE.map(globToRegExp), exclude: [] };
  return parseIndex(name, await tree.read(name));
}

function parseIndex(name: string, text: string): StateIndex {
  const lines = new LineCounter();
  // Through the bounded parser, as every file of the tree: its keys are checked in one pass.
  const { doc } = parseYaml(text, { lineCounter: lines });
  const fail = (message: string): never => {
    throw new DocumentError(`${name}: ${message}`);
  };
  if (doc.errors[0]) {
    const { line, col } = lines.linePos(doc.errors[0].pos[0]);
    fail(`line ${line}, column ${col}: ${doc.errors[0].message}`);
  }
  const root = doc.contents;
  // An empty index includes nothing, as Flipt's: say so rather than serve nothing in silence.
  if (!isMap(root)) return fail('must be a mapping with `include` (and optionally `exclude`) lists of globs');
  const globs = (key: string): RegExp[] => {
    const node = root.get(key, true);
    if (node === undefined || (isScalar(node) && node.value === null)) return [];
    if (!isSeq(node)) return fail(`${key} must be a list of globs`);
    return node.items.map((item) => {
      if (!isScalar(item) || typeof item.value !== 'string') return fail(`${key} must be a list of globs`);
      try {
        return globToRegExp(item.value);
      } catch (e) {
        return fail(`${key}: ${(e as Error).message}`);
      }
    });
  };
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (key !== 'version' && key !== 'include' && key !== 'exclude') fail(`unknown field ${JSON.stringify(key)}; expected version, include, exclude`);
  }
  const include = globs('include');
  if (include.length === 0) fail('includes no files: `include` must list at least one glob');
  return { file: name, include, exclude: globs('exclude') };
}

export interface StateFile {
  /** Relative to the root, `/`-separated. */
  path: string;
  text: string;
}

/** The paths the index selects, in path order (Flipt walks the tree in lexical order). */
export function selectStateFiles(paths: readonly string[], index: StateIndex): string[] {
  return paths.filter((path) => !INDEX_FILES.includes(path) && index.include.some((r) => r.test(path)) && !index.exclude.some((r) => r.test(path)));
}

/** The index file (if any) and the state files it selects, with their text. */
export async function readStateFiles(tree: FileTree): Promise<{ index: string | null; files: StateFile[] }> {
  const paths = await tree.list();
  const index = await readIndex(tree, paths);
  const selected = selectStateFiles(paths, index);
  return { index: index.file, files: await Promise.all(selected.map(async (path) => ({ path, text: await tree.read(path) }))) };
}

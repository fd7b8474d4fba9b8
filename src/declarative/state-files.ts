/**
 * Which files of a directory hold flag state, as Flipt's declarative storage finds them: an index file at the root
 * (`.flipt.yml`; Flagpole also reads `flipt.yml`) with `include` and `exclude` globs, or, without one,
 * `features.yml` / `*.features.yml` (and `.yaml`) at any depth. Globs follow Flipt's (gobwas/glob without
 * separators): `*` and `**` match any characters, `/` included; `?` one character; `[abc]`, `[!a-z]` and `{a,b}`
 * as usual. Hand-written (a few lines): the glob libraries on npm treat `*` as stopping at `/`, which would read
 * Flipt users' index files differently.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { DocumentError } from '../flags-as-code/document-reader';

export const INDEX_FILES = ['.flipt.yml', 'flipt.yml'];
const DEFAULT_INCLUDE = ['**features.yml', '**features.yaml', '**.features.yml', '**.features.yaml'];
/** Never walked: version control data and dependencies are not flag state. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

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

/** The directory's index: its index file's, or the default. A bad index file is a DocumentError naming it. */
export async function readIndex(root: string): Promise<StateIndex> {
  for (const name of INDEX_FILES) {
    let text: string;
    try {
      text = await readFile(join(root, name), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    return parseIndex(name, text);
  }
  return { file: null, include: DEFAULT_INCLUDE.map(globToRegExp), exclude: [] };
}

function parseIndex(name: string, text: string): StateIndex {
  const doc = parseDocument(text);
  const fail = (message: string): never => {
    throw new DocumentError(`${name}: ${message}`);
  };
  if (doc.errors[0]) fail(doc.errors[0].message.split('\n')[0]);
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

/** The files the index selects, in path order (Flipt walks the directory in lexical order). */
export async function listStateFiles(root: string, index: StateIndex): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      // Symbolic links are followed (a Kubernetes ConfigMap volume is links into a timestamped directory).
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(full).catch(() => null))?.isDirectory());
      if (isDir) {
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith('..')) await walk(full);
        continue;
      }
      const path = relative(root, full).split(sep).join('/');
      if (INDEX_FILES.includes(path)) continue;
      if (index.include.some((r) => r.test(path)) && !index.exclude.some((r) => r.test(path))) out.push(path);
    }
  };
  await walk(root);
  return out;
}

/** Every state file with its text. */
export async function readStateFiles(root: string): Promise<StateFile[]> {
  const index = await readIndex(root);
  const paths = await listStateFiles(root, index);
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(root, path), 'utf8') })));
}

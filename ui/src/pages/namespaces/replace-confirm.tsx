/**
 * The question before an import that deletes a namespace's flags and segments first ("Delete all of them first"):
 * what goes, by count and by key (the first few of a long namespace), as deleting a flag asks. Cancel deletes nothing.
 */
import { ApiError } from '../../api/client';
import { flagPages } from '../../api/flags';
import { listAllSegments } from '../../api/segments';
import { ConfirmDialog } from '../../components/confirm-dialog';

/** Keys named in full per kind; past it, "and N more". */
const SHOWN = 10;

export interface NamespaceContents {
  flags: string[];
  segments: string[];
}

/** The keys of the namespace's flags and segments; none for a namespace that does not exist yet. */
export async function namespaceContents(namespace: string): Promise<NamespaceContents> {
  const signal = new AbortController().signal;
  try {
    const [flags, segments] = await Promise.all([flagPages(namespace)(0, '', signal), listAllSegments(namespace, signal)]);
    return { flags: flags.items.map((f) => f.key).sort(), segments: segments.map((s) => s.key).sort() };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { flags: [], segments: [] };
    throw e;
  }
}

export function ReplaceConfirm({ namespace, contents, onConfirm, onClose }: {
  namespace: string;
  contents: NamespaceContents;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  return (
    <ConfirmDialog title={`Replace everything in namespace ${namespace}?`} confirmLabel="Delete and import" onConfirm={onConfirm} onClose={onClose}>
      <p>
        The import first deletes the namespace&apos;s {count(contents.flags.length, 'flag')} and {count(contents.segments.length, 'segment')}, with
        their variants, rules, rollouts and constraints. The namespace then holds only what the document has.
      </p>
      <KeyList label="Flags" keys={contents.flags} />
      <KeyList label="Segments" keys={contents.segments} />
    </ConfirmDialog>
  );
}

function KeyList({ label, keys }: { label: string; keys: string[] }) {
  if (keys.length === 0) return null;
  const more = keys.length - SHOWN;
  return (
    <p className="doomed-keys">
      <strong>
        {label} ({keys.length}):
      </strong>{' '}
      {keys.slice(0, SHOWN).join(', ')}
      {more > 0 && ` and ${more} more`}
    </p>
  );
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

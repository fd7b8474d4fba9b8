/**
 * "Copy to namespace" for a flag or a segment: pick another namespace, and the item goes there as one import
 * (lib/copy-document.ts), all or nothing. A flag may take its rules or rollouts and the segments they name along.
 */
import { useState, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import { importDocument } from '../api/flags-as-code';
import type { ImportResult } from '../api/types';
import { Field } from '../components/field';
import { ModalForm } from '../components/modal-form';
import { useNotify } from '../components/notices';
import { useAction } from '../hooks/use-action';
import { navigate, path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { useNamespaces } from '../session/namespaces';
import { useLocks } from '../session/permissions';

export interface CopySource {
  /** "flag" or "segment", for the words. */
  what: 'flag' | 'segment';
  key: string;
  /** Offer to take the rules or rollouts and their segments along (flags). */
  targeting?: string;
  /** Whether the target has an item of this key (the copy would be refused: keys cannot be changed). */
  takenIn(target: string): Promise<boolean>;
  document(target: string, withTargeting: boolean): Promise<unknown>;
}

export function CopyDialog({ ns, source, onClose }: { ns: string; source: CopySource; onClose(): void }) {
  const namespaces = useNamespaces();
  const locks = useLocks();
  // Only where the caller may create one (authorization); the server would refuse the others.
  const targets = (namespaces.data ?? []).filter((n) => n.key !== ns && !locks(source.what, 'create', n.key));
  const [target, setTarget] = useState(targets[0]?.key ?? '');
  const [withTargeting, setWithTargeting] = useState(Boolean(source.targeting));
  /** The namespace that refused the copy because it has the key. */
  const [takenIn, setTakenIn] = useState<string>();
  const notify = useNotify();
  const copy = useAction(async () => {
    setTakenIn(undefined);
    if (await source.takenIn(target)) return setTakenIn(target);
    const document = JSON.stringify(await source.document(target, withTargeting));
    // Segments the target has already are kept (and used by the copied rules); the flag was checked for above.
    const result = await importDocument(target, document, { skipExisting: withTargeting, drop: false });
    notify(`${source.what === 'flag' ? 'Flag' : 'Segment'} ${source.key} copied to ${target}${segmentsNote(result, withTargeting)}`);
    onClose();
  });

  return (
    <ModalForm
      title={`Copy ${source.what} ${source.key} to another namespace`}
      onClose={onClose}
      onSubmit={() => void copy.run()}
      submitLabel={`Copy ${source.what}`}
      busy={copy.busy}
      blocked={!target}
      error={copy.error}
    >
      {targets.length === 0 ? (
        <p className="empty">There is no other namespace you may copy {source.what}s to. A new one is made on the Namespaces page.</p>
      ) : (
        <Field label="Namespace" hint={`The ${source.what} keeps its key there; a namespace that already has one refuses the copy.`}>
          {(p) => (
            <select
              {...p}
              value={target}
              onChange={(e) => {
                setTarget(e.target.value);
                setTakenIn(undefined);
              }}
            >
              {targets.map((n) => (
                <option key={n.key} value={n.key}>
                  {n.name === n.key ? n.key : `${n.name} (${n.key})`}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {source.targeting && targets.length > 0 && (
        <label className="checkbox on-its-own">
          <input type="checkbox" checked={withTargeting} onChange={(e) => setWithTargeting(e.target.checked)} />
          <span>
            Also copy its {source.targeting} and the segments they target. A segment the namespace already has is kept as it
            is there, and the copied {source.targeting} use it.
          </span>
        </label>
      )}
      {takenIn && <Taken source={source} target={takenIn} onClose={onClose} />}
    </ModalForm>
  );
}

/**
 * A key the target has already: keys cannot be renamed, so the choices are another namespace, or deleting the item
 * there, which its page (linked) offers.
 */
function Taken({ source, target, onClose }: { source: CopySource; target: string; onClose(): void }) {
  const to = path('namespaces', target, `${source.what}s`, source.key);
  const open = (e: MouseEvent) => {
    // Closed first, synchronously: its unsaved-edits guard is then gone, and leaving does not ask about a dialog.
    e.preventDefault();
    flushSync(onClose);
    navigate(to);
  };
  return (
    <div role="alert" className="error-box taken">
      <p>
        {source.what === 'flag' ? 'Flag' : 'Segment'} {source.key} already exists in namespace {target}, and a key cannot be changed. Copy it to
        another namespace, or delete that {source.what} in {target} first.
      </p>
      <Link to={to} onClick={open}>
        Open {source.what} {source.key} in {target}
      </Link>
    </div>
  );
}

function segmentsNote(r: ImportResult, withTargeting: boolean): string {
  if (!withTargeting || r.segmentsCreated + r.segmentsSkipped === 0) return '';
  const made = `${r.segmentsCreated} segment${r.segmentsCreated === 1 ? '' : 's'} copied`;
  return r.segmentsSkipped ? ` (${made}, ${r.segmentsSkipped} already there)` : ` (${made})`;
}

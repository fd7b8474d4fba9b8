/**
 * "Copy to namespace" for a flag or a segment: pick another namespace, and the item goes there as one import
 * (lib/copy-document.ts), all or nothing. A flag may take its rules or rollouts and the segments they name along.
 */
import { useState } from 'react';
import { ApiError } from '../api/client';
import { importDocument } from '../api/flags-as-code';
import type { ImportResult } from '../api/types';
import { Field } from '../components/field';
import { ModalForm } from '../components/modal-form';
import { useNotify } from '../components/notices';
import { useAction } from '../hooks/use-action';
import { useNamespaces } from '../session/namespaces';
import { useLocks } from '../session/permissions';

export interface CopySource {
  /** "flag" or "segment", for the words. */
  what: 'flag' | 'segment';
  key: string;
  /** Offer to take the rules or rollouts and their segments along (flags). */
  targeting?: string;
  /** Undefined when the target has no item of this key; the message when it has. */
  takenIn(target: string): Promise<string | undefined>;
  document(target: string, withTargeting: boolean): Promise<unknown>;
}

export function CopyDialog({ ns, source, onClose }: { ns: string; source: CopySource; onClose(): void }) {
  const namespaces = useNamespaces();
  const locks = useLocks();
  // Only where the caller may create one (authorization); the server would refuse the others.
  const targets = (namespaces.data ?? []).filter((n) => n.key !== ns && !locks(source.what, 'create', n.key));
  const [target, setTarget] = useState(targets[0]?.key ?? '');
  const [withTargeting, setWithTargeting] = useState(Boolean(source.targeting));
  const notify = useNotify();
  const copy = useAction(async () => {
    const taken = await source.takenIn(target);
    if (taken) throw new ApiError(taken, 409);
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
            <select {...p} value={target} onChange={(e) => setTarget(e.target.value)}>
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
        <label className="checkbox">
          <input type="checkbox" checked={withTargeting} onChange={(e) => setWithTargeting(e.target.checked)} />
          <span>
            Also copy its {source.targeting} and the segments they target. A segment the namespace already has is kept as it
            is there, and the copied {source.targeting} use it.
          </span>
        </label>
      )}
    </ModalForm>
  );
}

function segmentsNote(r: ImportResult, withTargeting: boolean): string {
  if (!withTargeting || r.segmentsCreated + r.segmentsSkipped === 0) return '';
  const made = `${r.segmentsCreated} segment${r.segmentsCreated === 1 ? '' : 's'} copied`;
  return r.segmentsSkipped ? ` (${made}, ${r.segmentsSkipped} already there)` : ` (${made})`;
}

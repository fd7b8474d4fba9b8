/**
 * Import a Flipt-format document (YAML or JSON, versions 1.0 to 1.4) into a namespace: from a file or pasted. The
 * server checks all of it first and writes all of it or nothing; a refusal names the line, column and path of the
 * problem, shown here as it is. A document about another namespace (an export of it) can be imported into this one
 * instead; an import that deletes the namespace's flags and segments first asks, naming them (replace-confirm.tsx).
 */
import { useEffect, useState } from 'react';
import { importDocument } from '../../api/flags-as-code';
import type { ImportResult } from '../../api/types';
import { Field } from '../../components/field';
import { ModalForm } from '../../components/modal-form';
import { useAction } from '../../hooks/use-action';
import { useDebounced } from '../../hooks/use-debounced';
import { readDocumentNamespaces, type DocumentNamespaces } from '../../lib/document-namespaces';
import { namespaceContents, ReplaceConfirm, type NamespaceContents } from './replace-confirm';

export function ImportDialog({ namespace, onClose, onImported }: { namespace?: string; onClose(): void; onImported(r: ImportResult): void }) {
  const [key, setKey] = useState(namespace ?? '');
  const [document, setDocument] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [mode, setMode] = useState<'add' | 'skip' | 'replace'>('add');
  const named = useNamedNamespaces(document);
  const [retarget, setRetarget] = useState(false);
  /** What a replacing import would delete, while the user is asked. */
  const [confirming, setConfirming] = useState<NamespaceContents>();
  const several = named && named.named.length > 1;
  const other = named?.named.length === 1 && named.named[0] !== key ? named.named[0] : undefined;
  const send = async () => {
    // Read again: the text may have changed since the notice was worked out.
    const text = retarget && other ? ((await readDocumentNamespaces(document))?.into(key) ?? document) : document;
    onImported(await importDocument(key, text, { skipExisting: mode === 'skip', drop: mode === 'replace' }));
  };
  const save = useAction(async () => {
    if (mode === 'replace') {
      const contents = await namespaceContents(key);
      if (contents.flags.length + contents.segments.length > 0) return setConfirming(contents);
    }
    await send();
  });
  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setFileName(file.name);
    setDocument(await file.text());
  };
  return (
    <>
      <ModalForm
        title={namespace ? `Import into namespace ${namespace}` : 'Import a namespace'}
        onClose={onClose}
        onSubmit={() => void save.run()}
        submitLabel="Import"
        busy={save.busy}
        blocked={!key || !document.trim() || several}
        error={save.error}
        wide
      >
        {!namespace && (
          <Field label="Namespace key" hint="An existing namespace, or a new one to create. The document must be about this namespace or name none.">
            {(p) => <input {...p} required autoFocus value={key} pattern="[A-Za-z0-9_,\-]+" onChange={(e) => setKey(e.target.value)} />}
          </Field>
        )}
        <Field label="Document file" hint={fileName ? `Read ${fileName}.` : 'A features.yml, or what Flipt or Flagpole exported (YAML or JSON).'}>
          {(p) => <input {...p} type="file" accept=".yml,.yaml,.json,application/yaml,application/json,text/yaml" onChange={(e) => void readFile(e.target.files?.[0])} />}
        </Field>
        <Field label="Document" hint="Or paste it here.">
          {(p) => <textarea {...p} rows={10} className="code" spellCheck={false} value={document} onChange={(e) => setDocument(e.target.value)} />}
        </Field>
        {several && (
          <p className="notice-inline" role="status">
            This text holds documents for several namespaces ({named.named.join(', ')}), and this dialog imports into one. Paste one
            namespace&apos;s document, or import the whole text with Flagpole&apos;s <code>import</code> command.
          </p>
        )}
        {other && key && (
          <div className="notice-inline retarget" role="status">
            <p>
              This document is for namespace {other}, not {key}.
            </p>
            <label className="checkbox">
              <input type="checkbox" checked={retarget} onChange={(e) => setRetarget(e.target.checked)} /> Import it into {key} instead
            </label>
          </div>
        )}
        <fieldset className="choices">
          <legend>Flags and segments the namespace already has</legend>
          <label className="checkbox">
            <input type="radio" name="import-mode" checked={mode === 'add'} onChange={() => setMode('add')} /> Refuse the import if a key is taken
          </label>
          <label className="checkbox">
            <input type="radio" name="import-mode" checked={mode === 'skip'} onChange={() => setMode('skip')} /> Keep them, and skip the document&apos;s
          </label>
          <label className="checkbox">
            <input type="radio" name="import-mode" checked={mode === 'replace'} onChange={() => setMode('replace')} /> Delete all of them first: the
            namespace becomes the document
          </label>
        </fieldset>
      </ModalForm>
      {confirming && <ReplaceConfirm namespace={key} contents={confirming} onConfirm={send} onClose={() => setConfirming(undefined)} />}
    </>
  );
}

/** The namespaces the document names, worked out once the typing pauses; undefined until then or when unreadable. */
function useNamedNamespaces(document: string): DocumentNamespaces | undefined {
  const settled = useDebounced(document, 250);
  const [named, setNamed] = useState<{ text: string; namespaces?: DocumentNamespaces }>();
  useEffect(() => {
    let current = true;
    readDocumentNamespaces(settled).then(
      (namespaces) => current && setNamed({ text: settled, namespaces }),
      () => current && setNamed(undefined),
    );
    return () => {
      current = false;
    };
  }, [settled]);
  return named?.text === settled ? named.namespaces : undefined;
}

/** "3 flags and 2 segments imported into staging (1 flag skipped)". */
export function describeImport(r: ImportResult): string {
  const n = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const extra: string[] = [];
  if (r.flagsSkipped || r.segmentsSkipped) extra.push(`${n(r.flagsSkipped, 'flag')} and ${n(r.segmentsSkipped, 'segment')} skipped`);
  if (r.flagsDeleted || r.segmentsDeleted) extra.push(`${n(r.flagsDeleted, 'flag')} and ${n(r.segmentsDeleted, 'segment')} replaced`);
  return `${n(r.flagsCreated, 'flag')} and ${n(r.segmentsCreated, 'segment')} imported into ${r.namespaceKey}${r.namespaceCreated ? ' (new namespace)' : ''}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

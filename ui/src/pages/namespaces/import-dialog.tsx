/**
 * Import a Flipt-format document (YAML or JSON, versions 1.0 to 1.4) into a namespace: from a file or pasted. The
 * server checks all of it first and writes all of it or nothing; a refusal names the line, column and path of the
 * problem, shown here as it is.
 */
import { useState } from 'react';
import { importDocument } from '../../api/flags-as-code';
import type { ImportResult } from '../../api/types';
import { Field } from '../../components/field';
import { ModalForm } from '../../components/modal-form';
import { useAction } from '../../hooks/use-action';

export function ImportDialog({ namespace, onClose, onImported }: { namespace?: string; onClose(): void; onImported(r: ImportResult): void }) {
  const [key, setKey] = useState(namespace ?? '');
  const [document, setDocument] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [mode, setMode] = useState<'add' | 'skip' | 'replace'>('add');
  const save = useAction(async () => {
    onImported(await importDocument(key, document, { skipExisting: mode === 'skip', drop: mode === 'replace' }));
  });
  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setFileName(file.name);
    setDocument(await file.text());
  };
  return (
    <ModalForm
      title={namespace ? `Import into namespace ${namespace}` : 'Import a namespace'}
      onClose={onClose}
      onSubmit={() => void save.run()}
      submitLabel="Import"
      busy={save.busy}
      blocked={!key || !document.trim()}
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
  );
}

/** "3 flags and 2 segments imported into staging (1 flag skipped)". */
export function describeImport(r: ImportResult): string {
  const n = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const extra: string[] = [];
  if (r.flagsSkipped || r.segmentsSkipped) extra.push(`${n(r.flagsSkipped, 'flag')} and ${n(r.segmentsSkipped, 'segment')} skipped`);
  if (r.flagsDeleted || r.segmentsDeleted) extra.push(`${n(r.flagsDeleted, 'flag')} and ${n(r.segmentsDeleted, 'segment')} replaced`);
  return `${n(r.flagsCreated, 'flag')} and ${n(r.segmentsCreated, 'segment')} imported into ${r.namespaceKey}${r.namespaceCreated ? ' (new namespace)' : ''}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

/**
 * Namespaces: create, rename, describe, delete (not the protected one), export and import, and switch to one. When
 * read-only, only Export and switching remain; under authorization, what the caller may not do is disabled with the
 * reason, written under the header (New namespace, Import…), or left out of the rows.
 */
import { useState } from 'react';
import { createNamespace, deleteNamespace, updateNamespace, type NamespaceInput } from '../api/namespaces';
import type { Namespace } from '../api/types';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { KeyNameFields, keyNameBlocked, keyNameReady, useKeyFromName } from '../components/key-name-fields';
import { Loading } from '../components/loading';
import { ModalForm } from '../components/modal-form';
import { useNotify } from '../components/notices';
import { PageHeader } from '../components/page-header';
import { ActionsHeader, DeleteButton } from '../components/row-actions';
import { useAction } from '../hooks/use-action';
import { useFieldCheck } from '../hooks/use-field-check';
import { nameProblem } from '../lib/keys';
import { path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { useCurrentNamespace, useNamespaces } from '../session/namespaces';
import { useImportLocks, useLocks, useLocksNote, useNamespaceCreateLock } from '../session/permissions';
import { ExportButton } from './namespaces/export-button';
import { describeImport, ImportDialog } from './namespaces/import-dialog';

export function NamespacesPage() {
  const namespaces = useNamespaces();
  const current = useCurrentNamespace();
  const [editing, setEditing] = useState<{ namespace?: Namespace }>();
  const [deleting, setDeleting] = useState<Namespace>();
  /** The namespace to import into; '' asks for its key (a new namespace). */
  const [importing, setImporting] = useState<string>();
  const notify = useNotify();
  const locks = useLocks();
  const importLocks = useImportLocks();
  const createLock = useNamespaceCreateLock();
  const importLock = importLocks();
  // Why New namespace and Import… are disabled, in words on the page (a phone shows no tooltip).
  const { lockProps, note } = useLocksNote([importLock, createLock]);

  return (
    <>
      <PageHeader
        title="Namespaces"
        subtitle="Separate sets of flags and segments, for example per environment or team."
        actions={
          <>
            <button type="button" onClick={() => setImporting('')} {...lockProps(importLock)}>
              Import…
            </button>
            <button type="button" className="primary" onClick={() => setEditing({})} {...lockProps(createLock)}>
              New namespace
            </button>
          </>
        }
      />
      {note}
      <ErrorMessage error={namespaces.error} />
      {!namespaces.data && namespaces.loading && <Loading what="Loading namespaces" />}
      <table className="list card-table">
        <thead>
          <tr>
            <th scope="col">Namespace</th>
            <th scope="col">Description</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {(namespaces.data ?? []).map((n) => (
            <tr key={n.key}>
              <td>
                <Link to={path('namespaces', n.key, 'flags')} className="row-link">
                  {n.name}
                </Link>
                <div className="key">
                  {n.key}
                  {n.key === current && <span className="badge">current</span>}
                  {n.protected && <span className="badge">protected</span>}
                </div>
              </td>
              <td className="description">{n.description}</td>
              <td className="row-actions">
                {!locks('namespace', 'update', n.key) && (
                  <button type="button" onClick={() => setEditing({ namespace: n })} aria-label={`Edit namespace ${n.key}`}>
                    Edit
                  </button>
                )}
                {!locks('flag', 'read', n.key) && !locks('segment', 'read', n.key) && <ExportButton namespace={n.key} />}
                {!importLocks(n.key) && (
                  <button type="button" onClick={() => setImporting(n.key)} aria-label={`Import into namespace ${n.key}`}>
                    Import
                  </button>
                )}
                {!locks('namespace', 'delete', n.key) && (
                  <>
                    <DeleteButton what={`namespace ${n.key}`} onDelete={() => setDeleting(n)} reasonId={n.protected ? `protected-${n.key}` : undefined} />
                    {n.protected && (
                      <span className="hint" id={`protected-${n.key}`}>
                        Protected: it cannot be deleted.
                      </span>
                    )}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && (
        <NamespaceForm
          namespace={editing.namespace}
          onClose={() => setEditing(undefined)}
          onSaved={(n) => {
            notify(`Namespace ${n.key} ${editing.namespace ? 'saved' : 'created'}`);
            setEditing(undefined);
            // The list loads again by itself; a new namespace's permissions are asked for once it is listed.
          }}
        />
      )}
      {importing !== undefined && (
        <ImportDialog
          namespace={importing || undefined}
          onClose={() => setImporting(undefined)}
          onImported={(r) => {
            notify(describeImport(r));
            setImporting(undefined);
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete namespace ${deleting.key}?`}
          confirmLabel="Delete namespace"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await deleteNamespace(deleting.key);
            notify(`Namespace ${deleting.key} deleted`);
          }}
        >
          <p>Only an empty namespace can be deleted: delete its flags first.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

function NamespaceForm({ namespace, onClose, onSaved }: { namespace?: Namespace; onClose(): void; onSaved(n: Namespace): void }) {
  const names = useKeyFromName();
  const [name, setName] = useState(namespace?.name ?? '');
  const [description, setDescription] = useState(namespace?.description ?? '');
  const nameCheck = useFieldCheck(name, nameProblem);
  const save = useAction(async () => {
    const input: NamespaceInput = namespace
      ? { key: namespace.key, name, description }
      : { key: names.keyValue, name: names.name, description };
    onSaved(namespace ? await updateNamespace(input) : await createNamespace(input));
  });
  const submit = () => {
    if (namespace ? !nameCheck.problem : keyNameReady(names)) void save.run();
  };
  return (
    <ModalForm
      title={namespace ? `Edit namespace ${namespace.key}` : 'New namespace'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={namespace ? 'Save namespace' : 'Create namespace'}
      busy={save.busy}
      blocked={namespace ? Boolean(nameCheck.shown) : keyNameBlocked(names)}
      error={save.error}
    >
      {namespace ? (
        <Field label="Name" error={nameCheck.shown}>
          {(p) => <input {...p} required autoFocus value={name} onChange={(e) => setName(e.target.value)} onBlur={nameCheck.reveal} />}
        </Field>
      ) : (
        <KeyNameFields {...names} />
      )}
      <Field label="Description">{(p) => <textarea {...p} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
    </ModalForm>
  );
}

/**
 * A variant flag's variants: list, add, edit (with the JSON attachment), delete; only the list when read-only, and
 * only what the caller may do under authorization. A write makes the flag and its rules load again (api/query-keys.ts).
 */
import { useState } from 'react';
import { createVariant, deleteVariant, updateVariant, type VariantInput } from '../../api/flags';
import type { Flag, Variant } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field } from '../../components/field';
import { jsonProblem, JsonEditor } from '../../components/json-editor';
import { ModalForm } from '../../components/modal-form';
import { useNotify } from '../../components/notices';
import { ActionsHeader, EditDeleteButtons } from '../../components/row-actions';
import { useAction } from '../../hooks/use-action';
import { useFieldCheck } from '../../hooks/use-field-check';
import { prettyJson } from '../../lib/json';
import { lengthProblem, VARIANT_KEY_HINT, variantKeyAdvice, variantKeyProblem } from '../../lib/keys';
import { useLocks } from '../../session/permissions';

type Editing = { variant?: Variant } | undefined;

export function VariantsSection({ ns, flag }: { ns: string; flag: Flag }) {
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<Variant>();
  const notify = useNotify();
  const locks = useLocks();
  const addLock = locks('flag', 'create', ns);
  const canEdit = !locks('flag', 'update', ns);
  const canDelete = !locks('flag', 'delete', ns);

  return (
    <section className="card" aria-labelledby="variants-heading">
      <div className="section-header">
        <h2 id="variants-heading">Variants</h2>
        <button type="button" onClick={() => setEditing({})} {...addLock?.locked}>
          Add variant
        </button>
      </div>
      {flag.variants.length === 0 ? (
        <p className="empty">No variants yet. A variant is a value this flag can serve, such as "control" and "treatment".</p>
      ) : (
        <div className="table-scroll">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Attachment</th>
                {(canEdit || canDelete) && <ActionsHeader />}
              </tr>
            </thead>
            <tbody>
              {flag.variants.map((v) => (
                <tr key={v.id}>
                  <td>
                    <span className="key">{v.key}</span>
                    {flag.defaultVariant?.id === v.id && <span className="badge">default</span>}
                  </td>
                  <td>
                    {v.name}
                    {v.description && <div className="muted">{v.description}</div>}
                  </td>
                  <td>{v.attachment ? <code className="attachment">{v.attachment}</code> : <span className="muted">none</span>}</td>
                  {(canEdit || canDelete) && (
                    <td className="row-actions">
                      <EditDeleteButtons
                        what={`variant ${v.key}`}
                        onEdit={canEdit ? () => setEditing({ variant: v }) : undefined}
                        onDelete={canDelete ? () => setDeleting(v) : undefined}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <VariantForm
          ns={ns}
          flagKey={flag.key}
          variant={editing.variant}
          onClose={() => setEditing(undefined)}
          onSaved={(v) => {
            notify(`Variant ${v.key} saved`);
            setEditing(undefined);
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete variant ${deleting.key}?`}
          confirmLabel="Delete variant"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await deleteVariant(ns, flag.key, deleting.id);
            notify(`Variant ${deleting.key} deleted`);
          }}
        >
          <p>Rules that serve it lose its share: until their percentages are changed, the entities of that share get no variant.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function VariantForm({
  ns,
  flagKey,
  variant,
  onClose,
  onSaved,
}: {
  ns: string;
  flagKey: string;
  variant?: Variant;
  onClose(): void;
  onSaved(v: Variant): void;
}) {
  const [input, setInput] = useState<VariantInput>({
    key: variant?.key ?? '',
    name: variant?.name ?? '',
    description: variant?.description ?? '',
    attachment: variant?.attachment ? prettyJson(variant.attachment) : '',
  });
  const save = useAction(async () => {
    const body = { ...input, attachment: input.attachment.trim() };
    onSaved(variant ? await updateVariant(ns, flagKey, variant.id, body) : await createVariant(ns, flagKey, body));
  });
  const keyCheck = useFieldCheck(input.key, variantKeyProblem);
  const nameCheck = useFieldCheck(input.name, lengthProblem);
  const badJson = Boolean(jsonProblem(input.attachment));
  const invalid = badJson || Boolean(keyCheck.problem || nameCheck.problem);
  const submit = () => {
    keyCheck.reveal();
    if (!invalid) void save.run();
  };
  return (
    <ModalForm
      title={variant ? `Edit variant ${variant.key}` : 'New variant'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={variant ? 'Save variant' : 'Add variant'}
      busy={save.busy}
      blocked={badJson || Boolean(keyCheck.shown || nameCheck.shown)}
      error={save.error}
      wide
    >
      <div className="field-row">
        <Field label="Key" hint={variantKeyAdvice(input.key) ?? VARIANT_KEY_HINT} error={keyCheck.shown}>
          {(p) => (
            <input {...p} required className="code" autoFocus value={input.key} onChange={(e) => setInput({ ...input, key: e.target.value })} onBlur={keyCheck.reveal} />
          )}
        </Field>
        <Field label="Name" error={nameCheck.shown}>
          {(p) => <input {...p} value={input.name} onChange={(e) => setInput({ ...input, name: e.target.value })} />}
        </Field>
      </div>
      <Field label="Description">
        {(p) => <input {...p} value={input.description} onChange={(e) => setInput({ ...input, description: e.target.value })} />}
      </Field>
      <JsonEditor label="Attachment" value={input.attachment} onChange={(attachment) => setInput({ ...input, attachment })} />
    </ModalForm>
  );
}

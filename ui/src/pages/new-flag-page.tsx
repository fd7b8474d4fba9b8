/** Creates a flag, then opens it to add variants and rules (or rollouts). */
import { useState, type FormEvent } from 'react';
import { createFlag } from '../api/flags';
import type { FlagType } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { useNotify } from '../components/notices';
import { PageHeader } from '../components/page-header';
import { Switch } from '../components/switch';
import { useAction } from '../hooks/use-action';
import { KeyNameFields, useKeyFromName } from '../components/key-name-fields';
import { navigate, path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { useWriteLock } from '../session/permissions';
import { ReadOnlyRefusal } from '../session/read-only';

export function NewFlagPage({ ns }: { ns: string }) {
  const names = useKeyFromName();
  const [description, setDescription] = useState('');
  const [type, setType] = useState<FlagType>('VARIANT_FLAG_TYPE');
  const [enabled, setEnabled] = useState(false);
  const notify = useNotify();
  const lock = useWriteLock('flag', 'create', ns);
  const save = useAction(async () => {
    const flag = await createFlag(ns, { key: names.keyValue, name: names.name, description, type, enabled });
    notify(`Flag ${flag.key} created`);
    navigate(path('namespaces', ns, 'flags', flag.key));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };

  // An address typed or bookmarked: the API would refuse the form, so say why before anything is typed.
  if (lock) {
    return (
      <>
        <PageHeader title="New flag" subtitle={<>In namespace <strong>{ns}</strong></>} />
        <ReadOnlyRefusal what="Flags" lock={lock} back={<Link to={path('namespaces', ns, 'flags')}>Back to the flags</Link>} />
      </>
    );
  }
  return (
    <>
      <PageHeader title="New flag" subtitle={<>In namespace <strong>{ns}</strong></>} />
      <form className="card form" onSubmit={submit}>
        <KeyNameFields {...names} />
        <Field label="Description">{(p) => <textarea {...p} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
        <fieldset className="radio-cards">
          <legend>Type</legend>
          <label>
            <input type="radio" name="type" checked={type === 'VARIANT_FLAG_TYPE'} onChange={() => setType('VARIANT_FLAG_TYPE')} />
            <span>
              <strong>Variant</strong> — serves one of several variants (with optional JSON attachments), chosen by rules.
            </span>
          </label>
          <label>
            <input type="radio" name="type" checked={type === 'BOOLEAN_FLAG_TYPE'} onChange={() => setType('BOOLEAN_FLAG_TYPE')} />
            <span>
              <strong>Boolean</strong> — on or off, with percentage and segment rollouts.
            </span>
          </label>
        </fieldset>
        <Switch checked={enabled} onChange={setEnabled} label="Enabled" showLabel />
        <ErrorMessage error={save.error} />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.busy}>
            {save.busy ? 'Creating…' : 'Create flag'}
          </button>
          <Link to={path('namespaces', ns, 'flags')} className="button">
            Cancel
          </Link>
        </div>
      </form>
    </>
  );
}

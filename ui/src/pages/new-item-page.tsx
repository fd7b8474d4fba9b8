/**
 * The page that creates a flag or a segment (new-flag-page, new-segment-page): name and key (checked as typed),
 * description, the kind's own fields, then Create opens the new item to go on with it. Typed edits are asked about
 * before leaving. When the caller may not create one, the page says why instead of the form.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { KeyNameFields, keyNameBlocked, keyNameReady, useKeyFromName } from '../components/key-name-fields';
import { useNotify } from '../components/notices';
import { PageHeader } from '../components/page-header';
import { useAction } from '../hooks/use-action';
import { navigate, path } from '../routing/hash-router';
import { useLeaveGuard } from '../routing/leave-guards';
import { Link } from '../routing/link';
import { useWriteLock } from '../session/permissions';
import { ReadOnlyRefusal } from '../session/read-only';

const KINDS = {
  flag: { title: 'New flag', noun: 'Flag', plural: 'Flags', section: 'flags' },
  segment: { title: 'New segment', noun: 'Segment', plural: 'Segments', section: 'segments' },
} as const;

/** What every new item has; the kind adds its own fields in `create`. */
export interface NewItem {
  key: string;
  name: string;
  description: string;
}

export function NewItemPage({
  ns,
  kind,
  create,
  changed,
  children,
}: {
  ns: string;
  kind: keyof typeof KINDS;
  create(item: NewItem): Promise<{ key: string }>;
  /** The kind's own fields differ from where they started (edits to ask about before leaving). */
  changed: boolean;
  /** The kind's own fields, after the description. */
  children: ReactNode;
}) {
  const { title, noun, plural, section } = KINDS[kind];
  const names = useKeyFromName();
  const [description, setDescription] = useState('');
  const notify = useNotify();
  const lock = useWriteLock(kind, 'create', ns);
  useLeaveGuard(!lock && (names.name !== '' || names.keyValue !== '' || description !== '' || changed));
  const save = useAction(async () => {
    const item = await create({ key: names.keyValue, name: names.name, description });
    notify(`${noun} ${item.key} created`);
    // Saved: nothing is lost by leaving.
    navigate(path('namespaces', ns, section, item.key), { force: true });
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (keyNameReady(names)) void save.run();
  };
  const header = <PageHeader title={title} subtitle={<>In namespace <strong>{ns}</strong></>} />;
  const list = path('namespaces', ns, section);

  // An address typed or bookmarked: the API would refuse the form, so say why before anything is typed.
  if (lock) {
    return (
      <>
        {header}
        <ReadOnlyRefusal what={plural} lock={lock} back={<Link to={list}>Back to the {section}</Link>} />
      </>
    );
  }
  return (
    <>
      {header}
      <form className="card form" onSubmit={submit}>
        <KeyNameFields {...names} />
        <Field label="Description">{(p) => <textarea {...p} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
        {children}
        <ErrorMessage error={save.error} />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.busy || keyNameBlocked(names)}>
            {save.busy ? 'Creating…' : `Create ${kind}`}
          </button>
          <Link to={list} className="button">
            Cancel
          </Link>
        </div>
      </form>
    </>
  );
}

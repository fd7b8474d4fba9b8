/** Creates a segment, then opens it to add constraints. */
import { useState, type FormEvent } from 'react';
import { createSegment } from '../api/segments';
import type { MatchType } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { KeyNameFields, useKeyFromName } from '../components/key-name-fields';
import { useNotify } from '../components/notices';
import { PageHeader } from '../components/page-header';
import { useAction } from '../hooks/use-action';
import { navigate, path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { useWriteLock } from '../session/permissions';
import { ReadOnlyRefusal } from '../session/read-only';
import { MatchTypeField } from './segment/match-type-field';

export function NewSegmentPage({ ns }: { ns: string }) {
  const names = useKeyFromName();
  const [description, setDescription] = useState('');
  const [matchType, setMatchType] = useState<MatchType>('ALL_MATCH_TYPE');
  const notify = useNotify();
  const lock = useWriteLock('segment', 'create', ns);
  const save = useAction(async () => {
    const segment = await createSegment(ns, { key: names.keyValue, name: names.name, description, matchType });
    notify(`Segment ${segment.key} created`);
    navigate(path('namespaces', ns, 'segments', segment.key));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  // An address typed or bookmarked: the API would refuse the form, so say why before anything is typed.
  if (lock) {
    return (
      <>
        <PageHeader title="New segment" subtitle={<>In namespace <strong>{ns}</strong></>} />
        <ReadOnlyRefusal what="Segments" lock={lock} back={<Link to={path('namespaces', ns, 'segments')}>Back to the segments</Link>} />
      </>
    );
  }
  return (
    <>
      <PageHeader title="New segment" subtitle={<>In namespace <strong>{ns}</strong></>} />
      <form className="card form" onSubmit={submit}>
        <KeyNameFields {...names} />
        <Field label="Description">{(p) => <textarea {...p} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
        <MatchTypeField value={matchType} onChange={setMatchType} />
        <ErrorMessage error={save.error} />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.busy}>
            {save.busy ? 'Creating…' : 'Create segment'}
          </button>
          <Link to={path('namespaces', ns, 'segments')} className="button">
            Cancel
          </Link>
        </div>
      </form>
    </>
  );
}

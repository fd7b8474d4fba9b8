/** A namespace's audit trail: every change to it and to what it holds, newest first, narrowed by type, action and actor. */
import { useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_TYPES, type AuditAction, type AuditType } from '../api/audit';
import { Field } from '../components/field';
import { PageHeader } from '../components/page-header';
import { useDebounced } from '../hooks/use-debounced';
import { AuditList } from './history/audit-list';

export function AuditPage({ ns }: { ns: string }) {
  const [type, setType] = useState<AuditType | ''>('');
  const [action, setAction] = useState<AuditAction | ''>('');
  const [actor, setActor] = useState('');
  // The actor matches exactly, so a request per keystroke would only list nothing until the name is complete.
  const actorTerm = useDebounced(actor.trim(), 400);

  return (
    <>
      <PageHeader title="Audit trail" subtitle={<>Changes in namespace <strong>{ns}</strong>, newest first</>} />
      <form className="audit-filters" role="search" aria-label="Filter changes" onSubmit={(e) => e.preventDefault()}>
        <Choice<AuditType> label="Type" any="All types" options={AUDIT_TYPES} value={type} onChange={setType} />
        <Choice<AuditAction> label="Action" any="All actions" options={AUDIT_ACTIONS} value={action} onChange={setAction} />
        <Field label="Actor" hint="Email, name or authentication method (token, oidc…), exactly.">
          {(p) => <input {...p} type="search" value={actor} onChange={(e) => setActor(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setActor('')} />}
        </Field>
      </form>
      <AuditList
        ns={ns}
        filter={{ namespaceKey: ns, type, action, actor: actorTerm }}
        label={`Changes in namespace ${ns}`}
        links
        filtered={Boolean(type || action || actorTerm)}
      />
    </>
  );
}

/** A filter's select: "any" (the empty value) or one of the API's values. */
function Choice<T extends string>({ label, any, options, value, onChange }: {
  label: string;
  any: string;
  options: readonly T[];
  value: T | '';
  onChange(value: T | ''): void;
}) {
  return (
    <Field label={label}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value as T | '')}>
          <option value="">{any}</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

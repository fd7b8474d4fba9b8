/**
 * A namespace's audit trail: every change to it and to what it holds, newest first, narrowed by type, action and
 * actor. The filters live in the address (`?type=flag&action=updated&actor=ada`), as the lists' do, so that a reload,
 * Back and a shared link keep them; the actor is a part of an email, name or authentication method, in any case.
 */
import { AUDIT_ACTIONS, AUDIT_TYPES, type AuditAction, type AuditType } from '../api/audit';
import { Field } from '../components/field';
import { useSearchText } from '../components/list/use-search-text';
import { PageHeader } from '../components/page-header';
import { useQueryState } from '../routing/use-query-state';
import { AuditList } from './history/audit-list';

const FILTERS = { type: '', action: '', actor: '' };

/** `value` when it is one of `options`, else "any" (an address typed or kept from an older UI). */
const oneOf = <T extends string>(options: readonly T[], value: string): T | '' => (options.includes(value as T) ? (value as T) : '');

export function AuditPage({ ns }: { ns: string }) {
  const [query, setQuery] = useQueryState(FILTERS);
  const type = oneOf(AUDIT_TYPES, query.type);
  const action = oneOf(AUDIT_ACTIONS, query.action);
  const actorTerm = query.actor.trim();
  // Typing shows at once; the address (and the list) follow when it pauses, in the same history entry.
  const actor = useSearchText(actorTerm, (term) => setQuery({ actor: term }, 'replace'));

  return (
    <>
      <PageHeader title="Audit trail" subtitle={<>Changes in namespace <strong>{ns}</strong>, newest first</>} />
      <form className="audit-filters" role="search" aria-label="Filter changes" onSubmit={(e) => e.preventDefault()}>
        <Choice<AuditType> label="Type" any="All types" options={AUDIT_TYPES} value={type} onChange={(v) => setQuery({ type: v })} />
        <Choice<AuditAction> label="Action" any="All actions" options={AUDIT_ACTIONS} value={action} onChange={(v) => setQuery({ action: v })} />
        <Field label="Actor" hint="Part of an email, name or authentication method (token, oidc…).">
          {(p) => (
            <input {...p} type="search" value={actor.typed} onChange={(e) => actor.type(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && actor.type('')} />
          )}
        </Field>
      </form>
      <AuditList
        ns={ns}
        filter={{ namespaceKey: ns, type, action, actorContains: actorTerm }}
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

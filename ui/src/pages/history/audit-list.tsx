/**
 * A page of the audit trail, newest first, for any filter: a flag's history, a segment's, or a namespace's whole
 * trail. A server that keeps no trail gets a sentence saying so rather than an error.
 */
import { useState } from 'react';
import { AUDIT_NOT_STORED, auditPages, type AuditEvent, type AuditFilter } from '../../api/audit';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { Pager } from '../../components/pager';
import { usePagedList } from '../../hooks/use-paged-list';
import { useLoadError } from '../../session/permissions';
import { AuditEventItem } from './audit-event';

export function AuditList({
  ns,
  filter,
  label,
  links = false,
  filtered = false,
}: {
  ns: string;
  filter: AuditFilter;
  /** The list's accessible name ("History of flag x"). */
  label: string;
  /** Link flag and segment keys to their pages. */
  links?: boolean;
  /** The filter narrows a longer trail: an empty page means "nothing matches", not "nothing happened". */
  filtered?: boolean;
}) {
  const [pageSize, setPageSize] = useState(25);
  const list = usePagedList<AuditEvent>({ listKey: ['audit', JSON.stringify(filter)], fetchPage: auditPages(filter), pageSize });
  const error = useLoadError('audit', ns, list.error);

  if (list.error === AUDIT_NOT_STORED) {
    return (
      <p className="notice-inline" role="status">
        {AUDIT_NOT_STORED}
      </p>
    );
  }
  const empty = !list.loading && !list.error && list.items.length === 0;
  return (
    <>
      <ErrorMessage error={error} />
      {list.loading && list.items.length === 0 && <Loading what="Loading the changes" />}
      {list.items.length > 0 && (
        <ol className="audit-list" aria-label={label} aria-busy={list.loading}>
          {list.items.map((e) => (
            <AuditEventItem key={e.id} event={e} ns={ns} links={links} flagKey={filter.flagKey} />
          ))}
        </ol>
      )}
      {empty && <p className="empty">{filtered ? 'No changes match these filters.' : 'No changes recorded yet.'}</p>}
      {(list.items.length > 0 || list.hasPrevious) && <Pager list={list} noun="changes" onPageSize={setPageSize} />}
    </>
  );
}

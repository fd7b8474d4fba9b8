/** The History view of a flag or segment page: its changes, newest first. */
import type { AuditFilter } from '../../api/audit';
import { AuditList } from './audit-list';

export function HistorySection({ ns, filter, subject, hint }: { ns: string; filter: AuditFilter; subject: string; hint: string }) {
  return (
    <section className="history" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <p className="hint">{hint}</p>
      <AuditList ns={ns} filter={filter} label={`History of ${subject}`} />
    </section>
  );
}

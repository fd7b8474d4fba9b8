/** A namespace's segments in the shared list view: search, and sort by name, key or last change. */
import { segmentPages } from '../api/segments';
import { keys } from '../api/query-keys';
import type { Segment } from '../api/types';
import type { ListColumn, ListParams } from '../components/list/list-columns';
import { ListView } from '../components/list/list-view';
import { nameAndKeyColumns } from '../components/list/name-key-columns';
import { PageHeader } from '../components/page-header';
import { formatDateBare } from '../lib/format';
import { path } from '../routing/hash-router';
import { useWriteLock } from '../session/permissions';
import { WriteLink } from '../session/read-only';

export function SegmentsPage({ ns }: { ns: string }) {
  const createLock = useWriteLock('segment', 'create', ns);
  const columns: Array<ListColumn<Segment>> = [
    ...nameAndKeyColumns<Segment>((s) => path('namespaces', ns, 'segments', s.key)),
    { id: 'matches', header: 'Matches', cell: (s) => (s.matchType === 'ANY_MATCH_TYPE' ? 'any constraint' : 'all constraints') },
    { id: 'constraints', header: 'Constraints', cell: (s) => s.constraints.length },
    { id: 'description', header: 'Description', className: 'description', stacked: 'plain', cell: (s) => s.description },
    { id: 'updated', header: 'Updated', sort: 'updatedAt', className: 'nowrap', zoned: true, cell: (s) => formatDateBare(s.updatedAt) },
  ];
  const fetcher = ({ q, sort }: ListParams) => segmentPages(ns, { search: q, sort });

  return (
    <>
      <PageHeader
        title="Segments"
        subtitle={<>Groups of entities that rules and rollouts target, in namespace <strong>{ns}</strong></>}
        actions={
          <WriteLink to={path('namespaces', ns, 'create', 'segment')} className="button primary" lock={createLock}>
            New segment
          </WriteLink>
        }
      />
      <ListView
        noun="segments"
        cacheKey={keys.segments(ns)}
        fetcher={fetcher}
        columns={columns}
        rowKey={(s) => s.key}
        resource="segment"
        ns={ns}
        empty="No segments in this namespace yet."
      />
    </>
  );
}

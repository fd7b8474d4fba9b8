/** A namespace's segments, a page at a time, with search. */
import { useState } from 'react';
import { segmentPages } from '../api/segments';
import type { Segment } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { PageHeader } from '../components/page-header';
import { Pager } from '../components/pager';
import { SearchBox } from '../components/search-box';
import { matchesKeyNameDescription, usePagedList } from '../hooks/use-paged-list';
import { formatDate } from '../lib/format';
import { path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { useLoadError, useWriteLock } from '../session/permissions';
import { WriteLink } from '../session/read-only';

export function SegmentsPage({ ns }: { ns: string }) {
  const [search, setSearch] = useState('');
  const [pageSize, setPageSize] = useState(25);
  const createLock = useWriteLock('segment', 'create', ns);
  const list = usePagedList<Segment>({ listKey: ns, fetchPage: segmentPages(ns), pageSize, search, matches: matchesKeyNameDescription });
  const listError = useLoadError('segment', ns, list.error);

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
      <SearchBox label="Search segments" value={search} onChange={setSearch} placeholder="Key, name or description" />
      <ErrorMessage error={listError} />
      <div className="table-wrap" aria-busy={list.loading}>
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Segment</th>
              <th scope="col">Matches</th>
              <th scope="col">Constraints</th>
              <th scope="col">Description</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((s) => (
              <tr key={s.key}>
                <td>
                  <Link to={path('namespaces', ns, 'segments', s.key)} className="row-link">
                    {s.name}
                  </Link>
                  <div className="key">{s.key}</div>
                </td>
                <td>{s.matchType === 'ANY_MATCH_TYPE' ? 'any constraint' : 'all constraints'}</td>
                <td>{s.constraints.length}</td>
                <td className="description">{s.description}</td>
                <td className="nowrap">{formatDate(s.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!list.loading && list.items.length === 0 && !list.error && (
          <p className="empty">{search.trim() ? `No segment matches "${search.trim()}".` : 'No segments in this namespace yet.'}</p>
        )}
      </div>
      <Pager list={list} noun="segments" onPageSize={setPageSize} />
    </>
  );
}

/**
 * A namespace's flags, a page at a time, with search and an on/off switch per flag (disabled when read-only or the
 * caller may not change flags here, with the reason).
 */
import { useEffect, useState } from 'react';
import { flagChanges, flagPages, updateFlag } from '../api/flags';
import { messageOf } from '../api/client';
import type { Flag } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import { useNotify } from '../components/notices';
import { PageHeader } from '../components/page-header';
import { Pager } from '../components/pager';
import { Switch } from '../components/switch';
import { matchesKeyNameDescription, usePagedList } from '../hooks/use-paged-list';
import { formatDate } from '../lib/format';
import { path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { SearchBox } from '../components/search-box';
import { useLoadError, useLockNote, useWriteLock } from '../session/permissions';
import { WriteLink } from '../session/read-only';

export function FlagsPage({ ns }: { ns: string }) {
  const [search, setSearch] = useState('');
  const [pageSize, setPageSize] = useState(25);
  const list = usePagedList<Flag>({ listKey: ns, fetchPage: flagPages(ns), pageSize, search, matches: matchesKeyNameDescription });
  const [toggleError, setToggleError] = useState<string>();
  const [pending, setPending] = useState<string>();
  /**
   * Switches just changed, shown at once: the list reloads after the change, and until it has, its items still say
   * what the flag was. Forgotten whenever what the list shows changes.
   */
  const [switched, setSwitched] = useState<Record<string, boolean>>({});
  // By content, not identity: a search's items are a new array on every render.
  const listed = list.items.map((f) => `${f.key}=${f.enabled}`).join(',');
  useEffect(() => setSwitched({}), [listed]);
  const notify = useNotify();
  const createLock = useWriteLock('flag', 'create', ns);
  const switchLock = useWriteLock('flag', 'update', ns);
  // Why the switches are off, said once above the list (a tooltip alone is unseen on phones).
  const switchNote = useLockNote(switchLock);
  const listError = useLoadError('flag', ns, list.error);

  const toggle = async (flag: Flag, enabled: boolean) => {
    setPending(flag.key);
    setToggleError(undefined);
    try {
      await updateFlag(ns, flag.key, { ...flagChanges(flag), enabled });
      setSwitched((s) => ({ ...s, [flag.key]: enabled }));
      notify(`${flag.key} is ${enabled ? 'enabled' : 'disabled'}`);
      list.reload();
    } catch (e) {
      setToggleError(`Could not ${enabled ? 'enable' : 'disable'} ${flag.key}: ${messageOf(e)}`);
    } finally {
      setPending(undefined);
    }
  };

  return (
    <>
      <PageHeader
        title="Flags"
        subtitle={<>In namespace <strong>{ns}</strong></>}
        actions={
          <WriteLink to={path('namespaces', ns, 'create', 'flag')} className="button primary" lock={createLock}>
            New flag
          </WriteLink>
        }
      />
      <SearchBox label="Search flags" value={search} onChange={setSearch} placeholder="Key, name or description" />
      <ErrorMessage error={listError ?? toggleError} />
      {!listError && switchNote.note}
      <div className="table-wrap" aria-busy={list.loading}>
        <table className="list">
          <thead>
            <tr>
              <th scope="col" className="narrow">Enabled</th>
              <th scope="col">Flag</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((f) => (
              <tr key={f.key}>
                <td>
                  <Switch
                    checked={switched[f.key] ?? f.enabled}
                    label={`Enable ${f.key}`}
                    disabled={Boolean(switchLock)}
                    busy={pending === f.key}
                    describedBy={switchNote.describedBy}
                    title={switchLock?.reason}
                    onChange={(on) => void toggle(f, on)}
                  />
                </td>
                <td>
                  <Link to={path('namespaces', ns, 'flags', f.key)} className="row-link">
                    {f.name}
                  </Link>
                  <div className="key">{f.key}</div>
                </td>
                <td>
                  <span className={`badge ${f.type === 'BOOLEAN_FLAG_TYPE' ? 'badge-boolean' : 'badge-variant'}`}>
                    {f.type === 'BOOLEAN_FLAG_TYPE' ? 'Boolean' : 'Variant'}
                  </span>
                </td>
                <td className="description">{f.description}</td>
                <td className="nowrap">{formatDate(f.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!list.loading && list.items.length === 0 && !list.error && (
          <p className="empty">
            {search.trim()
              ? `No flag matches "${search.trim()}".`
              : createLock ? 'No flags in this namespace.' : 'No flags in this namespace yet. Create the first one with "New flag".'}
          </p>
        )}
      </div>
      <Pager list={list} noun="flags" onPageSize={setPageSize} />
    </>
  );
}

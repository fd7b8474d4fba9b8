/**
 * A namespace's flags in the shared list view: search, filters by type, by on/off and by whether the last lifecycle
 * check found them potentially stale, sort by any column header, a choice of columns, and an on/off switch per flag
 * (disabled when read-only or the caller may not change flags here, with the reason said once above the list); each
 * flag's lifecycle (potentially stale with its reasons, archived); where evaluations are counted, each flag's last
 * day of them.
 */
import { useState } from 'react';
import { flagPages } from '../api/flags';
import { keys } from '../api/query-keys';
import type { Flag, FlagType } from '../api/types';
import { ErrorMessage } from '../components/error-message';
import type { ListColumn, ListFilter, ListParams } from '../components/list/list-columns';
import { ListView } from '../components/list/list-view';
import { nameAndKeyColumns } from '../components/list/name-key-columns';
import { PageHeader } from '../components/page-header';
import { formatDateBare } from '../lib/format';
import { path } from '../routing/hash-router';
import { useLockNote, useWriteLock } from '../session/permissions';
import { WriteLink } from '../session/read-only';
import { FlagLifecycleCell } from './flag/flag-lifecycle-cell';
import { FlagListSwitch } from './flag/flag-list-switch';
import { FlagUsage } from './flag/flag-usage';
import { useAnalyticsEnabled, useLifecycleEnabled } from '../session/session';

const TYPES: Record<string, FlagType> = { variant: 'VARIANT_FLAG_TYPE', boolean: 'BOOLEAN_FLAG_TYPE' };

const FILTERS: ListFilter[] = [
  { id: 'type', label: 'Type', options: [{ value: '', label: 'All' }, { value: 'variant', label: 'Variant' }, { value: 'boolean', label: 'Boolean' }] },
  { id: 'enabled', label: 'Enabled', options: [{ value: '', label: 'All' }, { value: 'true', label: 'On' }, { value: 'false', label: 'Off' }] },
];

/** Only where the lifecycle is checked (lifecycle.enabled): otherwise nothing keeps the state it filters by. */
const STALE_FILTER: ListFilter = {
  id: 'stale',
  label: 'Lifecycle',
  options: [{ value: '', label: 'All' }, { value: 'true', label: 'Potentially stale' }, { value: 'false', label: 'Not stale' }],
};

export function FlagsPage({ ns }: { ns: string }) {
  const [toggleError, setToggleError] = useState<string>();
  const createLock = useWriteLock('flag', 'create', ns);
  const switchLock = useWriteLock('flag', 'update', ns);
  // Why the switches are off, said once above the list (a tooltip alone is unseen on phones).
  const switchNote = useLockNote(switchLock);
  const analytics = useAnalyticsEnabled();
  const lifecycle = useLifecycleEnabled();

  // Each flag's last day of evaluations, only where they are counted (analytics.enabled).
  const usage: Array<ListColumn<Flag>> = analytics
    ? [
        {
          id: 'usage',
          header: 'Evaluations (24 h)',
          optional: 'shown',
          className: 'nowrap',
          cell: (f, page) => <FlagUsage ns={ns} flagKey={f.key} pageKeys={page.map((p) => p.key)} />,
        },
      ]
    : [];
  // Each flag's lifecycle, only where it is checked (lifecycle.enabled).
  const lifecycleColumn: Array<ListColumn<Flag>> = lifecycle
    ? [{ id: 'lifecycle', header: 'Lifecycle', optional: 'shown', cell: (f) => <FlagLifecycleCell ns={ns} flag={f} /> }]
    : [];
  const columns: Array<ListColumn<Flag>> = [
    {
      id: 'enabled',
      header: 'Enabled',
      className: 'narrow',
      stacked: 'end',
      cell: (f) => <FlagListSwitch ns={ns} flag={f} lock={switchLock} describedBy={switchNote.describedBy} onError={setToggleError} />,
    },
    ...nameAndKeyColumns<Flag>((f) => path('namespaces', ns, 'flags', f.key)),
    {
      id: 'type',
      header: 'Type',
      optional: 'shown',
      cell: (f) => (
        <span className={`badge ${f.type === 'BOOLEAN_FLAG_TYPE' ? 'badge-boolean' : 'badge-variant'}`}>
          {f.type === 'BOOLEAN_FLAG_TYPE' ? 'Boolean' : 'Variant'}
        </span>
      ),
    },
    ...lifecycleColumn,
    ...usage,
    { id: 'description', header: 'Description', optional: 'shown', className: 'description', stacked: 'plain', cell: (f) => f.description },
    { id: 'updated', header: 'Updated', sort: 'updatedAt', optional: 'shown', className: 'nowrap', zoned: true, cell: (f) => formatDateBare(f.updatedAt) },
    { id: 'created', header: 'Created', sort: 'createdAt', optional: 'hidden', className: 'nowrap', zoned: true, cell: (f) => formatDateBare(f.createdAt) },
  ];

  const fetcher = ({ q, sort, filters }: ListParams) =>
    flagPages(ns, {
      search: q,
      sort,
      type: TYPES[filters.type],
      enabled: filters.enabled ? filters.enabled === 'true' : undefined,
      stale: lifecycle && filters.stale ? filters.stale === 'true' : undefined,
    });

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
      <ListView
        noun="flags"
        cacheKey={keys.flags(ns)}
        fetcher={fetcher}
        columns={columns}
        filters={lifecycle ? [...FILTERS, STALE_FILTER] : FILTERS}
        columnsKey="flags"
        rowKey={(f) => f.key}
        resource="flag"
        ns={ns}
        empty={createLock ? 'No flags in this namespace.' : 'No flags in this namespace yet. Create the first one with "New flag".'}
        notice={
          <>
            <ErrorMessage error={toggleError} />
            {switchNote.note}
          </>
        }
      />
    </>
  );
}

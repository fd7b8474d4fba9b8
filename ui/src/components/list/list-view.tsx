/**
 * The one list of the flag and segment pages: search, filters, sort, the optional columns, the table and its pages.
 * What is listed is the address's (list-state.ts), so Back, Forward and a reload bring it back; the search, filters
 * and sort are the API's (`search`, `sort`, the filters' own parameters), a page at a time (usePagedList). Rows only
 * ever show the term in the search box: while it is being typed the table is empty and the pager says so.
 *
 * On a phone each row stacks (list.css): the title cell first with its `end` cell beside it, the others one a line,
 * each named by its header, which the table keeps for screen readers only; the sort menu replaces the headers.
 */
import type { ReactNode } from 'react';
import type { PageFetcher } from '../../api/paging';
import type { Key } from '../../api/query-keys';
import type { Resource } from '../../api/permissions';
import { usePagedList } from '../../hooks/use-paged-list';
import { zoneHeading } from '../../lib/format';
import { useTimeZone } from '../../session/time-zone';
import { useLoadError } from '../../session/permissions';
import { ErrorMessage } from '../error-message';
import { Pager } from '../pager';
import { SearchBox } from '../search-box';
import { ColumnPicker, useShownColumns } from './column-picker';
import { ListChoice } from './list-choice';
import { SORT_FIELDS, type ListColumn, type ListFilter, type ListParams } from './list-columns';
import { useListState } from './list-state';
import { SortHeader } from './sort-header';
import { useSearchText } from './use-search-text';

/** The API refuses a longer search. */
const MAX_SEARCH = 200;

const SORT_OPTIONS = [
  { value: '', label: 'Creation order' },
  ...SORT_FIELDS.flatMap(({ field, label, order }) => [
    { value: field, label: `${label}, ${order[0]}` },
    { value: `-${field}`, label: `${label}, ${order[1]}` },
  ]),
];

export interface ListViewProps<T> {
  /** Plural, lower case ("flags"): the search box, the pager and the empty list say it. */
  noun: string;
  /** What is listed, for the cache (keys.flags(ns)): the view adds the search, filters, sort and page. */
  cacheKey: Key;
  /** Reads the list asked for. */
  fetcher(params: ListParams): PageFetcher<T>;
  columns: ReadonlyArray<ListColumn<T>>;
  filters?: readonly ListFilter[];
  /** Under which name the column picker remembers its choices; without it there is no picker. */
  columnsKey?: string;
  rowKey(item: T): string;
  /** What is read and where, so that a refusal says why (useLoadError). */
  resource: Resource;
  ns: string;
  /** What the list says when there is nothing in it at all. */
  empty: ReactNode;
  /** Between the toolbar and the table (a page's own error, why its switches are off). */
  notice?: ReactNode;
}

export function ListView<T>({ noun, cacheKey, fetcher, columns, filters = [], columnsKey, rowKey, resource, ns, empty, notice }: ListViewProps<T>) {
  const [state, setState] = useListState(filters);
  const params: ListParams = { q: state.q, sort: state.sort, filters: state.filters };
  const list = usePagedList<T>({
    listKey: [...cacheKey, 'list', JSON.stringify(params)],
    fetchPage: fetcher(params),
    pageSize: state.size,
    page: state.page,
    onPage: (page, replace) => setState({ ...params, page }, replace ? 'replace' : 'push'),
    // Another page, sort or filter may show the rows before while it loads; another term may not.
    subject: JSON.stringify([...cacheKey, state.q]),
  });
  const search = useSearchText(state.q, (q) => setState({ q }, 'replace'));
  const columnChoice = useShownColumns(columnsKey, columns);
  const loadError = useLoadError(resource, ns, list.error);
  const one = noun.replace(/s$/, '');
  const filtered = filters.some((f) => state.filters[f.id]);
  const rows = search.settled ? list.items : [];
  // Date-time columns name their zone once, in the header; a phone hides the headers, so a line says it there.
  const zone = zoneHeading(useTimeZone());
  const zoned = columnChoice.shown.some((c) => c.zoned);

  let nothing: ReactNode = null;
  if (search.settled && list.current && !list.error && list.items.length === 0) {
    nothing = state.q ? `No ${one} matches "${state.q}"${filtered ? ' with these filters' : ''}.` : filtered ? `No ${noun} match these filters.` : empty;
  }

  return (
    <div className="list-view">
      <div className="list-toolbar">
        <SearchBox
          label={`Search ${noun}`}
          value={search.typed}
          onChange={search.type}
          placeholder="Key, name or description"
          maxLength={MAX_SEARCH}
        />
        {filters.map((f) => (
          <ListChoice
            key={f.id}
            label={f.label}
            value={state.filters[f.id]}
            options={f.options}
            onChange={(value) => setState({ ...params, filters: { ...state.filters, [f.id]: value } })}
          />
        ))}
        <ListChoice label="Sort" value={state.sort} options={SORT_OPTIONS} onChange={(sort) => setState({ ...params, sort })} />
        {columnsKey && <ColumnPicker columns={columns} isShown={columnChoice.isShown} show={columnChoice.show} />}
      </div>
      <ErrorMessage error={loadError} />
      {!loadError && notice}
      {zoned && (
        <p className="list-zone-note" aria-hidden="true">
          Times: {zone}
        </p>
      )}
      <div className="table-wrap list-table" aria-busy={list.loading || !search.settled}>
        <table className="list">
          <thead>
            <tr>
              {columnChoice.shown.map((c) =>
                c.sort ? (
                  <SortHeader
                    key={c.id}
                    field={c.sort}
                    label={c.header}
                    note={c.zoned ? zone : undefined}
                    sort={state.sort}
                    onSort={(sort) => setState({ ...params, sort })}
                  />
                ) : (
                  <th key={c.id} scope="col" className={c.className}>
                    {c.header}
                    {c.zoned && <span className="column-note"> ({zone})</span>}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((item) => (
              <tr key={rowKey(item)}>
                {columnChoice.shown.map((c) => (
                  <td
                    key={c.id}
                    className={[c.className, `cell-${c.stacked ?? 'line'}`].filter(Boolean).join(' ')}
                    data-label={c.stacked ? undefined : c.header}
                  >
                    {c.cell(item, rows)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {nothing && <p className="empty">{nothing}</p>}
      </div>
      <Pager
        list={list}
        noun={noun}
        onPageSize={(size) => setState({ ...params, size })}
        status={search.settled ? undefined : `Searching ${noun}…`}
      />
    </div>
  );
}

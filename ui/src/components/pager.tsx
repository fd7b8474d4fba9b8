/** "1–25 of 1,000 flags", previous/next and the page size, for a list of usePagedList (hooks/use-paged-list.ts). */
import type { PagedList } from '../hooks/use-paged-list';

export const PAGE_SIZES = [25, 50, 100];

export function Pager({
  list,
  noun,
  onPageSize,
  status,
}: {
  list: PagedList<unknown>;
  /** Plural ("flags"); the singular is said for one. */
  noun: string;
  onPageSize(size: number): void;
  /** Said instead of the range (while a search is being typed). */
  status?: string;
}) {
  const first = (list.page - 1) * list.pageSize;
  const fmt = (n: number) => n.toLocaleString();
  const of = list.total !== undefined ? ` of ${fmt(list.total)}` : '';
  const range =
    list.items.length === 0
      ? list.loading ? `Loading ${noun}…` : `0 ${noun}`
      : `${fmt(first + 1)}–${fmt(first + list.items.length)}${of} ${list.total === 1 ? noun.replace(/s$/, '') : noun}`;
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <span className="pager-range" role="status">
        {status ?? range}
      </span>
      <label className="pager-size">
        Per page{' '}
        <select value={list.pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={list.previous} disabled={!list.hasPrevious || list.loading}>
        ← Previous
      </button>
      <button type="button" onClick={list.next} disabled={!list.hasNext || list.loading}>
        Next →
      </button>
    </nav>
  );
}

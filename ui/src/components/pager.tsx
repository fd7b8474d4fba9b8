/**
 * "1–25 of 1,000 flags" ("1–25 of more than 25 tokens" for a list that does not count), previous/next and the page
 * size, for a list of usePagedList (hooks/use-paged-list.ts).
 */
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
  const last = first + list.items.length;
  const fmt = (n: number) => n.toLocaleString();
  // A list that does not count (static tokens) is counted by its last page, and otherwise said to go on.
  const total = list.total ?? (list.current && !list.hasNext ? last : undefined);
  const of = total !== undefined ? ` of ${fmt(total)}` : list.hasNext ? ` of more than ${fmt(last)}` : '';
  const range =
    list.items.length === 0
      ? list.loading ? `Loading ${noun}…` : `0 ${noun}`
      : `${fmt(first + 1)}–${fmt(last)}${of} ${total === 1 ? noun.replace(/s$/, '') : noun}`;
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

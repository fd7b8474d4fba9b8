import type { PagedList } from '../hooks/use-paged-list';

const SIZES = [25, 50, 100];

/** "1–25 of 1,000", previous/next and the page size, for a list of usePagedList. */
export function Pager({ list, noun, onPageSize }: { list: PagedList<unknown>; noun: string; onPageSize(size: number): void }) {
  const from = list.items.length === 0 ? 0 : list.pageIndex * list.pageSize + 1;
  const to = list.pageIndex * list.pageSize + list.items.length;
  const fmt = (n: number) => n.toLocaleString();
  const of = list.total !== undefined ? ` of ${fmt(list.total)}` : '';
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <span className="pager-range">
        {list.scan && !list.scan.done
          ? `Searching… ${fmt(list.scan.scanned)}${list.scan.of !== undefined ? ` of ${fmt(list.scan.of)}` : ''} ${noun} read`
          : `${fmt(from)}–${fmt(to)}${of} ${list.total === 1 ? noun.replace(/s$/, '') : noun}`}
      </span>
      <label className="pager-size">
        Per page{' '}
        <select value={list.pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
          {SIZES.map((s) => (
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

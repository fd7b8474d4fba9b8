/**
 * A column header that sorts its list: a button that asks for this field ascending, or descending when the list is
 * already sorted by it ascending; the header says how the list is sorted (`aria-sort`), the arrow shows it.
 */
import type { SortField } from './list-columns';

export function SortHeader({ field, label, note, sort, onSort }: { field: SortField; label: string; note?: string; sort: string; onSort(sort: string): void }) {
  const direction = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : undefined;
  return (
    <th scope="col" aria-sort={direction}>
      <button type="button" className="sort-button" onClick={() => onSort(direction === 'ascending' ? `-${field}` : field)}>
        {label}
        {note && <span className="column-note"> ({note})</span>}
        <span className="sort-arrow" aria-hidden="true">
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

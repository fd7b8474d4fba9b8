/** The two columns a list of keyed items (flags, segments) has: the name, linking to the item's page, and the key. */
import { Link } from '../../routing/link';
import { KeyText } from '../key-text';
import type { ListColumn } from './list-columns';

export function nameAndKeyColumns<T extends { key: string; name: string }>(pageOf: (item: T) => string): Array<ListColumn<T>> {
  return [
    {
      id: 'name',
      header: 'Name',
      sort: 'name',
      stacked: 'title',
      cell: (item) => (
        <Link to={pageOf(item)} className="row-link">
          {item.name}
        </Link>
      ),
    },
    {
      id: 'key',
      header: 'Key',
      sort: 'key',
      stacked: 'plain',
      cell: (item) => (
        <span className="key">
          <KeyText value={item.key} />
        </span>
      ),
    },
  ];
}

/**
 * What the command palette offers and how a typed term picks from it: a case-insensitive substring of an item's key
 * or name matches; a key that starts with the term ranks first, then a name that does, then any other match. Groups
 * keep their items together and come in the order of their best match, so the best match is always on top.
 */

export type PaletteGroup = 'Pages' | 'Actions' | 'Flags' | 'Segments' | 'Namespaces';

export interface PaletteItem {
  group: PaletteGroup;
  /** Matched, and shown beside the name when it says something the name does not. */
  key: string;
  name: string;
  /** Shown muted after the name (the namespace a page belongs to, a flag's key). */
  detail?: string;
  /** The hash path it opens. */
  to: string;
}

export interface GroupOfResults {
  group: PaletteGroup;
  items: PaletteItem[];
}

export interface PaletteResults {
  groups: GroupOfResults[];
  shown: number;
  /** Every match, shown or not. */
  matched: number;
}

/** More would be a list to scroll, not a choice: typing narrows it. */
export const MAX_RESULTS = 50;

/** With nothing typed, each long group shows its first few, so that every group is seen. */
const MAX_PER_GROUP_UNTYPED = 12;

const GROUP_ORDER: PaletteGroup[] = ['Pages', 'Actions', 'Flags', 'Segments', 'Namespaces'];

/** 0 = the key starts with the term, 1 = the name does, 2 = either contains it; undefined = no match. */
export function rankOf(item: PaletteItem, term: string): number | undefined {
  const key = item.key.toLowerCase();
  const name = item.name.toLowerCase();
  if (key.startsWith(term)) return 0;
  if (name.startsWith(term)) return 1;
  if (key.includes(term) || name.includes(term)) return 2;
  return undefined;
}

export function searchPalette(items: PaletteItem[], typed: string): PaletteResults {
  const term = typed.trim().toLowerCase();
  const ranked = items
    .map((item, index) => ({ item, index, rank: rankOf(item, term) }))
    .filter((r): r is { item: PaletteItem; index: number; rank: number } => r.rank !== undefined)
    .filter(term ? () => true : firstOfEachGroup())
    .sort((a, b) => a.rank - b.rank || GROUP_ORDER.indexOf(a.item.group) - GROUP_ORDER.indexOf(b.item.group) || a.index - b.index);
  const matched = term === '' ? items.length : ranked.length;
  const kept = ranked.slice(0, MAX_RESULTS);

  const groups: GroupOfResults[] = [];
  for (const { item } of kept) {
    const group = groups.find((g) => g.group === item.group);
    if (group) group.items.push(item);
    else groups.push({ group: item.group, items: [item] });
  }
  return { groups, shown: kept.length, matched };
}

/** A filter that keeps every page and action and the first few of each other group (items come in their groups' order). */
function firstOfEachGroup(): (r: { item: PaletteItem }) => boolean {
  const seen = new Map<PaletteGroup, number>();
  return ({ item }) => {
    const n = seen.get(item.group) ?? 0;
    seen.set(item.group, n + 1);
    return item.group === 'Pages' || item.group === 'Actions' || n < MAX_PER_GROUP_UNTYPED;
  };
}

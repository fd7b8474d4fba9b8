/**
 * The command palette's listbox: options in labelled groups, the active one marked `aria-selected` (focus stays in
 * the combobox, which points at it with `aria-activedescendant`). The part of a name or key that matched is marked.
 */
import { useEffect } from 'react';
import type { GroupOfResults, PaletteItem } from './palette-search';

export const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

interface Props {
  id: string;
  groups: GroupOfResults[];
  term: string;
  active: number;
  onActivate(index: number): void;
  onChoose(item: PaletteItem): void;
}

export function PaletteResults({ id, groups, term, active, onActivate, onChoose }: Props) {
  useEffect(() => {
    document.getElementById(optionId(id, active))?.scrollIntoView({ block: 'nearest' });
  }, [id, active, groups]);

  let index = 0;
  return (
    <div id={id} role="listbox" aria-label="Results" className="palette-list" hidden={groups.length === 0}>
      {groups.map((g) => {
        const labelId = `${id}-${g.group}`;
        return (
          <div key={g.group} role="presentation" className="palette-group">
            <div id={labelId} role="presentation" className="palette-group-label">
              {g.group}
            </div>
            <div role="group" aria-labelledby={labelId}>
              {g.items.map((item) => {
                const i = index++;
                return (
                  <div
                    key={`${item.group}/${item.key}`}
                    id={optionId(id, i)}
                    role="option"
                    aria-selected={i === active}
                    className="palette-option"
                    // The combobox keeps focus: a click chooses without taking it.
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseMove={() => i !== active && onActivate(i)}
                    onClick={() => onChoose(item)}
                  >
                    <span className="palette-name">
                      <Marked text={item.name} term={term} />
                    </span>
                    {item.detail && (
                      <span className="palette-detail">
                        <Marked text={item.detail} term={term} />
                      </span>
                    )}
                  </div>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}

/** `text` with its first case-insensitive occurrence of `term` in a <mark>. */
function Marked({ text, term }: { text: string; term: string }) {
  const at = term ? text.toLowerCase().indexOf(term.toLowerCase()) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + term.length)}</mark>
      {text.slice(at + term.length)}
    </>
  );
}

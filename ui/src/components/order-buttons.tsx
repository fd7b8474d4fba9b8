/**
 * Move an item of a ranked list (rules, rollouts) one place up or down, by keyboard as well as by mouse. The keyboard
 * focus stays on the button that moved the item, wherever the item went: React may re-insert a moved item's element,
 * which drops the focus, and a button that becomes disabled at the end of the list cannot hold it (the other one
 * takes it then). While a move is being saved the buttons say they are busy and ignore clicks, rather than disable
 * themselves, for the same reason.
 */
import { useLayoutEffect, useRef } from 'react';

type Direction = 'up' | 'down';

export function OrderButtons({
  index,
  count,
  what,
  onMove,
  busy = false,
}: {
  index: number;
  count: number;
  /** Names the item for screen readers: "rule 2". */
  what: string;
  onMove(from: number, to: number): void;
  busy?: boolean;
}) {
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const pressed = useRef<Direction>(undefined);

  useLayoutEffect(() => {
    const direction = pressed.current;
    if (!direction) return;
    pressed.current = undefined;
    const atEnd = direction === 'up' ? index === 0 : index === count - 1;
    const button = (direction === 'up') !== atEnd ? up : down;
    button.current?.focus();
  }, [index, count]);

  const move = (direction: Direction) => {
    if (busy) return;
    pressed.current = direction;
    onMove(index, direction === 'up' ? index - 1 : index + 1);
  };
  return (
    <span className="order-buttons" aria-busy={busy || undefined}>
      <button ref={up} type="button" className="icon" aria-label={`Move ${what} up`} title="Move up" disabled={index === 0} onClick={() => move('up')}>
        ↑
      </button>
      <button
        ref={down}
        type="button"
        className="icon"
        aria-label={`Move ${what} down`}
        title="Move down"
        disabled={index === count - 1}
        onClick={() => move('down')}
      >
        ↓
      </button>
    </span>
  );
}

/** `items` with the one at `from` moved to `to`. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const copy = items.slice();
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}

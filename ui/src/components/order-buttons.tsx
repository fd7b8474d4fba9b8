/** Move an item of a ranked list (rules, rollouts) one place up or down, by keyboard as well as by mouse. */
export function OrderButtons({
  index,
  count,
  what,
  onMove,
  disabled,
}: {
  index: number;
  count: number;
  /** Names the item for screen readers: "rule 2". */
  what: string;
  onMove(from: number, to: number): void;
  disabled?: boolean;
}) {
  return (
    <span className="order-buttons">
      <button type="button" className="icon" aria-label={`Move ${what} up`} title="Move up" disabled={disabled || index === 0} onClick={() => onMove(index, index - 1)}>
        ↑
      </button>
      <button
        type="button"
        className="icon"
        aria-label={`Move ${what} down`}
        title="Move down"
        disabled={disabled || index === count - 1}
        onClick={() => onMove(index, index + 1)}
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

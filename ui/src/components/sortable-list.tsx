/**
 * A ranked list (rules, rollouts) whose items are moved by their drag handle (ranked-item.tsx) with a mouse, a finger
 * or the keyboard: focus the handle, Space picks the item up, ↑/↓ move it, Space drops it and Escape puts it back.
 * Built on dnd-kit; a drop becomes one `onMove(from, to)`, as an ↑/↓ button press does. Screen readers hear positions
 * in the list's own words ("Rule 3 is over position 1"), not dnd-kit's ids. Without `onMove` (read-only, not
 * permitted) it is a plain list and its items have no handle.
 */
import {
  closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors,
  type Announcements, type DragEndEvent, type Modifier, type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ReactNode } from 'react';

/** Items move along the list only: the dragged card never slides sideways out of it (nor widens the page). */
const alongTheList: Modifier = ({ transform }) => ({ ...transform, x: 0 });

export function SortableList({
  ids,
  what,
  onMove,
  busy,
  children,
}: {
  /** The items' ids in the order shown. */
  ids: string[];
  /** "rule", "rollout": names the item in what screen readers hear. */
  what: string;
  onMove?(from: number, to: number): void;
  /** A move is being saved: a drop now is ignored (the item goes back), as the ↑/↓ buttons ignore presses. */
  busy: boolean;
  children: ReactNode;
}) {
  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so that a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  if (!onMove) return <ol className="ranked">{children}</ol>;

  const at = (id: UniqueIdentifier) => ids.indexOf(String(id));
  const Item = what.charAt(0).toUpperCase() + what.slice(1);
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${what} ${at(active.id) + 1}.`,
    onDragOver: ({ active, over }) =>
      over ? `${Item} ${at(active.id) + 1} is over position ${at(over.id) + 1}.` : `${Item} ${at(active.id) + 1} is outside the list.`,
    onDragEnd: ({ active, over }) =>
      over ? `${Item} ${at(active.id) + 1} was dropped at position ${at(over.id) + 1}.` : `${Item} ${at(active.id) + 1} stays where it was.`,
    onDragCancel: ({ active }) => `Moving cancelled: ${what} ${at(active.id) + 1} stays where it was.`,
  };
  const drop = ({ active, over }: DragEndEvent) => {
    if (!over || busy) return;
    const [from, to] = [at(active.id), at(over.id)];
    if (from >= 0 && to >= 0 && from !== to) onMove(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[alongTheList]}
      onDragEnd={drop}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: `Press Space to pick up the ${what}, the up and down arrow keys to move it, then Space to drop it there or Escape to put it back.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="ranked">{children}</ol>
      </SortableContext>
    </DndContext>
  );
}

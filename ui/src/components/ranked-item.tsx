/**
 * One rule or rollout in rank order: a drag handle, its position, what it does, and move / edit / delete, each only
 * with its handler (none when read-only or not permitted). With `onMove` it must sit in a SortableList
 * (sortable-list.tsx): the handle drags it, by mouse or keyboard, and the ↑/↓ buttons stay as the one-step way.
 */
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { CSSProperties, ReactNode } from 'react';
import { EditDeleteButtons } from './row-actions';
import { OrderButtons } from './order-buttons';

interface Props {
  /** The id SortableList knows the item by. */
  id: string;
  index: number;
  count: number;
  /** "rule", "rollout": with the position, names the controls ("Move rule 2 up"). */
  what: string;
  onMove?(from: number, to: number): void;
  moving: boolean;
  onEdit?(): void;
  onDelete?(): void;
  children: ReactNode;
}

export function RankedItem(props: Props) {
  return props.onMove ? <SortableItem {...props} /> : <Item {...props} />;
}

function SortableItem(props: Props) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: props.id,
    attributes: { roleDescription: 'drag handle' },
  });
  // Translate, not transform: dnd-kit would scale a card to the height of the one it passes over.
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition };
  return (
    <Item
      {...props}
      itemRef={setNodeRef}
      style={style}
      dragging={isDragging}
      handle={
        <button
          ref={setActivatorNodeRef}
          type="button"
          className="drag-handle"
          aria-label={`Move ${props.what} ${props.index + 1}`}
          title="Drag to move it, or press Space, the arrow keys, then Space"
          {...attributes}
          {...listeners}
        >
          <Grip />
        </button>
      }
    />
  );
}

function Item({
  index,
  count,
  what,
  onMove,
  moving,
  onEdit,
  onDelete,
  children,
  itemRef,
  style,
  dragging,
  handle,
}: Props & { itemRef?(node: HTMLElement | null): void; style?: CSSProperties; dragging?: boolean; handle?: ReactNode }) {
  const name = `${what} ${index + 1}`;
  return (
    <li ref={itemRef} style={style} className={`ranked-item${handle ? ' sortable' : ''}${dragging ? ' dragging' : ''}`}>
      {handle}
      <div className="rank" aria-hidden="true">
        {index + 1}
      </div>
      <div className="ranked-body">{children}</div>
      {(onMove || onEdit || onDelete) && (
        <div className="row-actions">
          {onMove && <OrderButtons index={index} count={count} what={name} onMove={onMove} busy={moving} />}
          <EditDeleteButtons what={name} onEdit={onEdit} onDelete={onDelete} />
        </div>
      )}
    </li>
  );
}

/** Two columns of three dots, the usual sign of something that can be dragged. */
function Grip() {
  return (
    <svg viewBox="0 0 10 16" width="10" height="16" aria-hidden="true" focusable="false">
      {[3, 8, 13].flatMap((y) => [2, 8].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.5" fill="currentColor" />))}
    </svg>
  );
}

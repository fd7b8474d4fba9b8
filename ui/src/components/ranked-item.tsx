import type { ReactNode } from 'react';
import { EditDeleteButtons } from './row-actions';
import { OrderButtons } from './order-buttons';

/**
 * One rule or rollout in rank order: its position, what it does, and move / edit / delete, each only with its
 * handler (none when read-only or not permitted).
 */
export function RankedItem({
  index,
  count,
  what,
  onMove,
  moving,
  onEdit,
  onDelete,
  children,
}: {
  index: number;
  count: number;
  /** "rule", "rollout": with the position, names the buttons ("Move rule 2 up"). */
  what: string;
  onMove?(from: number, to: number): void;
  moving: boolean;
  onEdit?(): void;
  onDelete?(): void;
  children: ReactNode;
}) {
  const name = `${what} ${index + 1}`;
  return (
    <li className="ranked-item">
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

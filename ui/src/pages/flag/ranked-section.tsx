/**
 * What a flag's rules and its rollouts have in common: a card listing them in evaluation order, each moved by
 * dragging its handle or with ↑/↓ (either way one `PUT …/order`, use-reorder.ts), added and edited in a dialog the
 * section supplies, deleted after a confirmation. Who may do what comes from the flag permissions of the namespace.
 * rules-section.tsx and rollouts-section.tsx say what an item shows and which dialog edits it.
 */
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { useNotify } from '../../components/notices';
import { RankedItem } from '../../components/ranked-item';
import { SortableList } from '../../components/sortable-list';
import type { Loaded } from '../../hooks/use-load';
import { useReorder } from '../../hooks/use-reorder';
import { useLocks } from '../../session/permissions';

export interface FormProps<T> {
  /** The item to edit; none for a new one. */
  item?: T;
  /** The rank a new item gets: after the last. */
  nextRank: number;
  onClose(): void;
  onSaved(): void;
}

export function RankedSection<T extends { id: string; rank: number }>({
  ns,
  what,
  hint,
  loaded,
  saveOrder,
  remove,
  empty,
  addBlocked,
  renderItem,
  renderForm,
  renderDeleting,
}: {
  ns: string;
  /** "rule" or "rollout": the heading ("Rules"), the buttons ("Add rule", "Move rule 2 up") and the notices. */
  what: 'rule' | 'rollout';
  hint: ReactNode;
  loaded: Loaded<T[]>;
  saveOrder(ids: string[]): Promise<unknown>;
  remove(item: T): Promise<unknown>;
  /** What an empty list means for evaluations. */
  empty: string;
  /** Why nothing can be added yet (rules need a segment): "Add" is disabled and this shows. */
  addBlocked?: string;
  renderItem(item: T, index: number, canEdit: boolean): ReactNode;
  renderForm(props: FormProps<T>): ReactNode;
  /** What the delete confirmation says about the item. */
  renderDeleting(item: T): ReactNode;
}) {
  const [editing, setEditing] = useState<{ item?: T }>();
  const [deleting, setDeleting] = useState<{ item: T; index: number }>();
  const notify = useNotify();
  const locks = useLocks();
  const addLock = locks('flag', 'create', ns);
  const canEdit = !locks('flag', 'update', ns);
  const canDelete = !locks('flag', 'delete', ns);
  const Item = what === 'rule' ? 'Rule' : 'Rollout';
  const reorder = useReorder(loaded, saveOrder, Item);
  const list = loaded.data ?? [];
  const onMove = canEdit ? (from: number, to: number) => void reorder.run(from, to) : undefined;
  const headingId = `${what}s-heading`;

  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="section-header">
        <div>
          <h2 id={headingId}>{Item}s</h2>
          <p className="hint">{hint}</p>
        </div>
        <button type="button" onClick={() => setEditing({})} disabled={Boolean(addBlocked)} {...addLock?.locked}>
          Add {what}
        </button>
      </div>
      {addBlocked && !addLock && <p className="hint">{addBlocked}</p>}
      <ErrorMessage error={loaded.error ?? reorder.error} />
      {!loaded.data && loaded.loading && <Loading what={`Loading ${what}s`} />}
      {loaded.data && list.length === 0 && <p className="empty">{empty}</p>}
      <SortableList ids={list.map((x) => x.id)} what={what} onMove={onMove} busy={reorder.busy}>
        {list.map((item, i) => (
          <RankedItem
            key={item.id}
            id={item.id}
            index={i}
            count={list.length}
            what={what}
            onMove={onMove}
            moving={reorder.busy}
            onEdit={canEdit ? () => setEditing({ item }) : undefined}
            onDelete={canDelete ? () => setDeleting({ item, index: i }) : undefined}
          >
            {renderItem(item, i, canEdit)}
          </RankedItem>
        ))}
      </SortableList>
      {editing &&
        renderForm({
          item: editing.item,
          nextRank: Math.max(0, ...list.map((x) => x.rank)) + 1,
          onClose: () => setEditing(undefined),
          onSaved: () => notify(`${Item} ${editing.item ? 'saved' : 'added'}`),
        })}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${what} ${deleting.index + 1}?`}
          confirmLabel={`Delete ${what}`}
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await remove(deleting.item);
            notify(`${Item} deleted`);
          }}
        >
          {renderDeleting(deleting.item)}
        </ConfirmDialog>
      )}
    </section>
  );
}

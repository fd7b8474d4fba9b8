/** The column of a table that holds each row's buttons: a header cell with a name only screen readers need. */
export function ActionsHeader() {
  return (
    <th scope="col" className="actions-col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}

/**
 * Edit and Delete for one item, named after it for screen readers ("Edit variant control"); either left out when
 * its handler is (the caller may not do it).
 */
export function EditDeleteButtons({ what, onEdit, onDelete }: { what: string; onEdit?(): void; onDelete?(): void }) {
  return (
    <>
      {onEdit && (
        <button type="button" onClick={onEdit} aria-label={`Edit ${what}`}>
          Edit
        </button>
      )}
      {onDelete && <DeleteButton what={what} onDelete={onDelete} />}
    </>
  );
}

/** Delete for one item; when it cannot be deleted, disabled and described by the element (`reasonId`) that says why. */
export function DeleteButton({ what, onDelete, reasonId }: { what: string; onDelete(): void; reasonId?: string }) {
  return (
    <button
      type="button"
      className={reasonId ? undefined : 'danger-text'}
      onClick={onDelete}
      disabled={Boolean(reasonId)}
      aria-describedby={reasonId}
      aria-label={`Delete ${what}`}
    >
      Delete
    </button>
  );
}

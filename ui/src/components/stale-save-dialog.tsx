/**
 * The question before saving over a version saved since the page loaded it (hooks/use-stale-check.ts): Overwrite
 * writes the form's fields over it, Reload shows it and drops the edits; closing keeps editing, nothing saved.
 */
import { formatDate } from '../lib/format';
import { Modal } from './modal';
import { DialogButtons } from './modal-form';

export function StaleSaveDialog({
  what,
  changedAt,
  busy,
  onOverwrite,
  onReload,
  onClose,
}: {
  /** "flag", "segment". */
  what: string;
  changedAt: string;
  busy: boolean;
  onOverwrite(): void;
  onReload(): void;
  onClose(): void;
}) {
  return (
    <Modal title={`This ${what} was changed since you opened it`} onClose={onClose}>
      <div className="modal-body">
        <p>
          It was saved again at {formatDate(changedAt)}, after this page loaded it: in another tab, or by someone else.
        </p>
        <p>Overwrite saves what this page shows over that version. Reload shows that version and drops your edits here.</p>
      </div>
      <DialogButtons onCancel={onReload} cancelLabel="Reload" busy={busy} label="Overwrite" danger onConfirm={onOverwrite} />
    </Modal>
  );
}

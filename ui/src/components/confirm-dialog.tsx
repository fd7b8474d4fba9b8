import type { ReactNode } from 'react';
import { useAction } from '../hooks/use-action';
import { ErrorMessage } from './error-message';
import { Modal } from './modal';
import { DialogButtons } from './modal-form';

/** "Delete flag x?" — the action runs here, and a refusal (a segment in use, a protected namespace) stays on screen. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The way back, when "Cancel" would be unclear (leaving a page: cancel the leaving, or the edits?). */
  cancelLabel?: string;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  const action = useAction(async () => {
    await onConfirm();
    onClose();
  });
  return (
    <Modal title={title} onClose={onClose}>
      <div className="modal-body">
        {children}
        <ErrorMessage error={action.error} />
      </div>
      <DialogButtons onCancel={onClose} cancelLabel={cancelLabel} busy={action.busy} label={confirmLabel} danger onConfirm={() => void action.run()} />
    </Modal>
  );
}

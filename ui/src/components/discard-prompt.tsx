/**
 * The question a dialog with typed changes asks before it closes (Escape, × or Cancel): discard them, or go back to
 * the dialog with everything as it was. It opens on top of that dialog.
 */
import { ConfirmDialog } from './confirm-dialog';

export function DiscardPrompt({ onDiscard, onKeep }: { onDiscard(): void; onKeep(): void }) {
  return (
    <ConfirmDialog title="Discard your changes?" confirmLabel="Discard changes" cancelLabel="Keep editing" onConfirm={async () => onDiscard()} onClose={onKeep}>
      <p>What you typed in this dialog is not saved. Closing it discards it.</p>
    </ConfirmDialog>
  );
}

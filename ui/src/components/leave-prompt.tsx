/**
 * The one question asked before leaving unsaved edits in the app (a link, Back, a page the app opens): the
 * navigation waits until the answer (routing/leave-guards.ts).
 */
import { usePendingLeave } from '../routing/leave-guards';
import { ConfirmDialog } from './confirm-dialog';

export function LeavePrompt() {
  const pending = usePendingLeave();
  if (!pending) return null;
  return (
    <ConfirmDialog
      title="Leave without saving?"
      confirmLabel="Discard changes"
      cancelLabel="Keep editing"
      onConfirm={async () => pending.leave()}
      onClose={pending.stay}
    >
      <p>Your changes on this page are not saved. Leaving the page discards them.</p>
    </ConfirmDialog>
  );
}

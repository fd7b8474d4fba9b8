/**
 * Deleting static tokens, one or several with one question: it names the token, or says how many and lists them, and
 * warns when the token this page was signed in with is among them (deleting it signs the page out).
 */
import { deleteToken } from '../../api/auth';
import { messageOf } from '../../api/client';
import type { Authentication } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useNotify } from '../../components/notices';
import { tokenLabel } from './token-metadata';

export function DeleteTokensDialog({
  tokens,
  selfId,
  onDeleted,
  onClose,
}: {
  tokens: Authentication[];
  /** The token this page was signed in with, if any. */
  selfId?: string;
  /** Some or all were deleted: the list is read again. */
  onDeleted(): void;
  onClose(): void;
}) {
  const notify = useNotify();
  const one = tokens.length === 1;
  const mine = tokens.some((t) => t.id === selfId);
  const remove = async () => {
    // The signed-in token last: once it is gone, this page may not call the API again.
    const order = [...tokens.filter((t) => t.id !== selfId), ...tokens.filter((t) => t.id === selfId)];
    let done = 0;
    try {
      for (const t of order) {
        await deleteToken(t.id);
        done += 1;
      }
    } catch (e) {
      // Asking again is safe: deleting a token that is gone is no error.
      throw done === 0 ? e : new Error(`${done} of ${tokens.length} tokens deleted, then: ${messageOf(e)}`);
    } finally {
      if (done > 0) onDeleted();
    }
    notify(one ? 'Token deleted' : `${done} tokens deleted`);
  };
  return (
    <ConfirmDialog
      title={one ? `Delete token ${tokenLabel(tokens[0])}?` : `Delete ${tokens.length} tokens?`}
      confirmLabel={one ? 'Delete token' : `Delete ${tokens.length} tokens`}
      onClose={onClose}
      onConfirm={remove}
    >
      {mine && (
        <p className="notice-inline" role="note">
          <strong>{one ? 'You are signed in with this token.' : 'You are signed in with one of these tokens.'}</strong> Deleting
          it signs you out of this page at once, and you will need another token to sign in again.
        </p>
      )}
      {!one && <p className="doomed-tokens">{tokens.map(tokenLabel).join(', ')}</p>}
      <p>
        Clients using {one ? 'it' : 'them'} are refused from now on (by other Flagpole instances at once with the Redis cache,
        otherwise within 5 seconds).
      </p>
    </ConfirmDialog>
  );
}

/**
 * Read-only Flagpole: `/meta/info` says `storage.readOnly` when flag state comes from files (`storage.type: local`)
 * or `storage.read_only` is set. The API then refuses every write of namespaces, flags and segments, so the shell
 * says so once (ReadOnlyNotice) and each control that would write is disabled and described by that notice, or not
 * shown at all where it repeats on every row. Static tokens are credentials, not flag state: they stay writable.
 */
import type { ReactNode } from 'react';
import { Link } from '../routing/link';
import type { WriteLock } from './permissions';
import { useSession } from './session';

/** The shell's notice: what disabled controls name as their reason (`aria-describedby`). */
export const READ_ONLY_NOTICE_ID = 'read-only-notice';

export interface ReadOnly {
  /** The notice's sentence as plain text, the tooltip of a disabled control. */
  reason: string;
  /** The props of a control that would write: disabled, and described by the notice for screen readers. */
  locked: { disabled: true; 'aria-describedby': string; title: string };
}

/** Why this Flagpole is read-only: the sentence, and the configuration it names (shown as code). */
function why(storageType: string): { text: string; setting: string; after: string } {
  if (storageType === 'database') return { text: 'this Flagpole is configured read-only', setting: 'storage.read_only', after: '' };
  if (storageType === 'local') {
    return { text: 'flags, segments and namespaces come from files', setting: 'storage.type: local', after: 'Change them in the files.' };
  }
  return { text: 'flags, segments and namespaces come from declarative storage', setting: `storage.type: ${storageType}`, after: 'Change them there.' };
}

/** Undefined when the UI may write; otherwise the reason and the props that lock a control. */
export function useReadOnly(): ReadOnly | undefined {
  const { state } = useSession();
  if (state.status !== 'ready' || !state.storage.readOnly) return undefined;
  const w = why(state.storage.type);
  const reason = `Read-only: ${w.text} (${w.setting}).${w.after ? ` ${w.after}` : ''}`;
  return { reason, locked: { disabled: true, 'aria-describedby': READ_ONLY_NOTICE_ID, title: reason } };
}

/** The line at the top of every page of a read-only Flagpole; nothing otherwise. */
export function ReadOnlyNotice() {
  const { state } = useSession();
  if (state.status !== 'ready' || !state.storage.readOnly) return null;
  const w = why(state.storage.type);
  return (
    <p id={READ_ONLY_NOTICE_ID} className="read-only-notice" role="note">
      <svg className="read-only-icon" aria-hidden="true" viewBox="0 0 16 16" width="14" height="14">
        <path d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2h.5A1 1 0 0 1 13 8v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1zm1.5 0h4V5a2 2 0 0 0-4 0z" />
      </svg>
      <span>
        <strong>Read-only:</strong> {w.text} (<code>{w.setting}</code>).{w.after && ` ${w.after}`}
      </span>
    </p>
  );
}

/**
 * A link to a page that writes (New flag, New segment): when `lock`ed (read-only, or not permitted), a disabled
 * button of the same look instead, since a link cannot be disabled.
 */
export function WriteLink({ to, className, lock, children }: { to: string; className: string; lock: WriteLock | undefined; children: ReactNode }) {
  if (lock) {
    return (
      <button type="button" className={className.replace(/\bbutton\b/, '').trim() || undefined} {...lock.locked}>
        {children}
      </button>
    );
  }
  return (
    <Link to={to} className={className}>
      {children}
    </Link>
  );
}

/** What a page that only creates (New flag, New segment) shows instead of its form when `lock`ed. */
export function ReadOnlyRefusal({ what, lock, back }: { what: string; lock: WriteLock; back: ReactNode }) {
  // The read-only notice above says why at length; a permission's reason is said here.
  const readOnly = lock.locked['aria-describedby'] === READ_ONLY_NOTICE_ID;
  return (
    <div className="card">
      <p className="read-only-refusal">{readOnly ? `${what} cannot be created while Flagpole is read-only (see above).` : lock.reason}</p>
      {back}
    </div>
  );
}

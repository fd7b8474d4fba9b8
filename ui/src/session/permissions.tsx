/**
 * Authorization in the UI: the session holds what the signed-in caller may do (`GET /auth/v1/self/permissions`,
 * asked once at sign-in and again when a namespace appears that it does not cover). A control that would write
 * what the caller may not is disabled with the reason as its tooltip ("Your role (viewer) may not change flags in
 * production"), or not shown where it repeats on every row; read-only storage comes first, as it refuses everyone.
 * The API still decides: this only spares people a refusal.
 */
import { useCallback, useId, type ReactNode } from 'react';
import type { Action, Allowed, Permissions, Resource } from '../api/permissions';
import { useReadOnly } from './read-only';
import { useSession } from './session';

/** Why a control may not be used, and the props that disable it (a read-only lock also names its notice). */
export interface WriteLock {
  reason: string;
  /** What the caller may not do ("create namespaces"), when a permission is the reason. */
  denied?: string;
  locked: { disabled: true; 'aria-describedby'?: string; title: string };
}

const VERBS: Record<Action, string> = { create: 'create', read: 'see', update: 'change', delete: 'delete' };
const NOUNS: Record<Resource, string> = {
  namespace: 'namespaces',
  flag: 'flags',
  segment: 'segments',
  authentication: 'static tokens',
  audit: 'the audit trail',
};

/** What the caller may do, or undefined when every call is allowed as far as the UI knows. */
export function usePermissions(): Permissions | undefined {
  const { state } = useSession();
  if (state.status !== 'ready' || !state.permissions?.authorizationRequired) return undefined;
  return state.permissions;
}

/** "Your role (viewer) may not change flags in production." */
export function deniedReason(permissions: Permissions, what: string): string {
  const { roles } = permissions;
  const who = roles.length === 0 ? 'Without a role, you' : `Your role${roles.length > 1 ? 's' : ''} (${roles.join(', ')})`;
  return `${who} may not ${what}.`;
}

/** "change flags in production", "delete namespace production", "create namespaces", "create static tokens". */
function phrase(resource: Resource, action: Action, ns: string | undefined): string {
  if (resource === 'namespace' && ns !== undefined) return `${VERBS[action]} namespace ${ns}`;
  return `${VERBS[action]} ${NOUNS[resource]}${ns !== undefined ? ` in ${ns}` : ''}`;
}

function allows(allowed: Allowed | undefined, resource: Resource, action: Action): boolean {
  return Boolean(allowed?.[resource]?.includes(action));
}

/** Where a check applies: a namespace by key, outside namespaces (`undefined`), or anywhere at all (`'any'`). */
type Place = string | undefined | { any: true };

function allowedAt(p: Permissions, needs: ReadonlyArray<[Resource, Action]>, place: Place): boolean {
  const holds = (allowed: Allowed | undefined) => needs.every(([r, a]) => allows(allowed, r, a));
  if (typeof place === 'object') return holds(p.global) || Object.values(p.namespaces).some(holds);
  return holds(place === undefined ? p.global : p.namespaces[place]);
}

function lockOf(p: Permissions, denied: string): WriteLock {
  const reason = deniedReason(p, denied);
  return { reason, denied, locked: { disabled: true, title: reason } };
}

/**
 * A function telling, for any resource, action and namespace (none: outside namespaces, as tokens are), the lock of a
 * control that would do it, or undefined when it may. For lists, where a hook per row is not possible.
 */
export function useLocks(): (resource: Resource, action: Action, ns?: string) => WriteLock | undefined {
  const ro = useReadOnly();
  const p = usePermissions();
  return useCallback(
    (resource: Resource, action: Action, ns?: string) => {
      // Read-only storage refuses writes of flag state; tokens are credentials and stay writable.
      if (ro && resource !== 'authentication' && action !== 'read') return ro;
      if (!p || allowedAt(p, [[resource, action]], ns)) return undefined;
      return lockOf(p, phrase(resource, action, ns));
    },
    [ro, p],
  );
}

/** The lock of a control that would do `action` on `resource` in namespace `ns` (none: tokens), or undefined. */
export function useWriteLock(resource: Resource, action: Action, ns?: string): WriteLock | undefined {
  return useLocks()(resource, action, ns);
}

/**
 * The error to show for a failed load of `resource` in `ns`: the reason when the caller may not see it (the API
 * says only "permission denied"), else the error as it is.
 */
export function useLoadError(resource: Resource, ns: string | undefined, error: string | undefined): string | undefined {
  const denied = useLocks()(resource, 'read', ns);
  return error && (denied?.reason ?? error);
}

/**
 * New namespace: the permissions name only existing namespaces, so a role that may create some (`team-*`) is
 * recognised by holding create on one it has; the API judges the key typed.
 */
export function useNamespaceCreateLock(): WriteLock | undefined {
  const ro = useReadOnly();
  const p = usePermissions();
  if (ro) return ro;
  if (!p || allowedAt(p, [['namespace', 'create']], { any: true })) return undefined;
  return lockOf(p, 'create namespaces');
}

/** What an import writes: flags and segments, created, replaced and deleted (the server's rule for the route). */
const IMPORT: ReadonlyArray<[Resource, Action]> = (['flag', 'segment'] as const).flatMap((r) =>
  (['create', 'update', 'delete'] as const).map((a): [Resource, Action] => [r, a]),
);

/** Import into `ns`, or (no `ns`) into a namespace named in the dialog: allowed if it is somewhere. */
export function useImportLocks(): (ns?: string) => WriteLock | undefined {
  const ro = useReadOnly();
  const p = usePermissions();
  return useCallback(
    (ns?: string) => {
      if (ro) return ro;
      if (!p || allowedAt(p, IMPORT, ns === undefined ? { any: true } : ns)) return undefined;
      return lockOf(p, ns === undefined ? 'import flags and segments' : `import into ${ns} (it writes flags and segments)`);
    },
    [ro, p],
  );
}

/**
 * The ids and note that fields of a locked form share: `describedBy` for each field (the read-only notice, or the
 * note this renders when the lock is a permission), and the note itself, to put above the fields.
 */
export function useLockNote(lock: WriteLock | undefined): { describedBy?: string; note: ReactNode } {
  const id = useId();
  if (!lock) return { note: null };
  const notice = lock.locked['aria-describedby'];
  if (notice) return { describedBy: notice, note: null };
  return {
    describedBy: id,
    note: (
      <p id={id} className="lock-reason">
        {lock.reason}
      </p>
    ),
  };
}

/**
 * One visible line saying why the controls of a page's header are disabled ("Your role (viewer) may not import flags
 * and segments or create namespaces."): a tooltip is never seen on a phone, nor on a disabled button by the
 * keyboard. `lockProps` gives each control its lock, described by that line; a read-only lock already names its
 * notice and stays as it is.
 */
export function useLocksNote(locks: Array<WriteLock | undefined>): {
  lockProps(lock: WriteLock | undefined): WriteLock['locked'] | undefined;
  note: ReactNode;
} {
  const id = useId();
  const p = usePermissions();
  const denied = [...new Set(locks.map((l) => l?.denied).filter((d): d is string => Boolean(d)))];
  if (!p || denied.length === 0) return { lockProps: (lock) => lock?.locked, note: null };
  return {
    lockProps: (lock) => (lock?.denied ? { ...lock.locked, 'aria-describedby': id } : lock?.locked),
    note: (
      <p id={id} className="lock-reason">
        {deniedReason(p, denied.join(' or '))}
      </p>
    ),
  };
}

/**
 * Whether "Copy to namespace" is worth offering for a `what` of `ns`: not when the policy lets the caller create one
 * in no other namespace, nor create a namespace to copy it into. Read-only storage disables the button instead.
 */
export function useMayCopyOut(what: 'flag' | 'segment', ns: string): boolean {
  const p = usePermissions();
  if (!p) return true;
  if (allowedAt(p, [['namespace', 'create']], { any: true })) return true;
  return Object.keys(p.namespaces).some((key) => key !== ns && allowedAt(p, [[what, 'create']], key));
}

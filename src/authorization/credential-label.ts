import { Method } from '../wire';

/** A credential as denial logs name it: its method, its id (never a secret) and the roles it holds. */
export function credentialLabel(credential: { method: Method; id: string }, roles: readonly string[]): string {
  return `${Method[credential.method] ?? 'METHOD_NONE'}${credential.id ? ` ${credential.id}` : ''} (roles: ${roles.join(', ') || 'none'})`;
}

/**
 * Whether a database error means the database could not be reached (as opposed to refusing the statement): the one
 * list behind the error filter's 503 and the authentication store's "answer from what was verified recently".
 * Drivers say it differently: MikroORM wraps some in ConnectionException; knex gives up on the pool with
 * KnexTimeoutError (a database that does not answer); node-postgres reports a dropped socket only in its message;
 * the rest carry a socket error code or a server shutdown code.
 */
import { ConnectionException } from '@mikro-orm/core';

const CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE', 'PROTOCOL_CONNECTION_LOST',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now.
  '57P01', '57P02', '57P03',
]);

export function isDatabaseUnreachable(e: unknown): boolean {
  if (e instanceof ConnectionException) return true;
  const err = e as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (err?.name === 'KnexTimeoutError') return true;
  if (CODES.has(String(err?.code))) return true;
  return typeof err?.message === 'string' && /^Connection terminated/.test(err.message);
}

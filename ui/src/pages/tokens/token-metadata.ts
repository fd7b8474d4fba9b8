/** What a static token's metadata says about it (src/auth/methods/token/token.metadata.ts, docs/authorization.md). */
import type { Authentication } from '../../api/types';

export const NAME = 'io.flagpole.auth.token.name';
export const DESCRIPTION = 'io.flagpole.auth.token.description';
export const NAMESPACE = 'io.flagpole.auth.token.namespace';
/** The role(s) a token names itself, comma-separated; Flipt's key is read too. */
export const ROLE = 'io.flagpole.auth.role';
const FLIPT_ROLE = 'io.flipt.auth.role';

/** The token's name, or its id when it has none. */
export const tokenLabel = (a: Authentication): string => a.metadata[NAME] || a.id;

/** The roles the token names itself, as written; undefined when the policy's bindings alone decide. */
export function namedRoles(a: Authentication): string | undefined {
  const roles = [a.metadata[ROLE], a.metadata[FLIPT_ROLE]].filter((r): r is string => Boolean(r?.trim()));
  return roles.length ? roles.join(', ') : undefined;
}

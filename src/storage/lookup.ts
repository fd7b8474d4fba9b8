/**
 * Find-or-404, written once for every repository: Flipt names a thing of a namespace `<kind> "<namespace>/<key>"`
 * (a flag or segment key, a rule or rollout id) and answers `<that> not found` when a lookup that must succeed fails.
 */
import { NotFoundError } from '../common/errors';

export function namespacedRef(kind: string, namespaceKey: string, key: string): string {
  return `${kind} ${JSON.stringify(`${namespaceKey}/${key}`)}`;
}

/** The row, or Flipt's `<kind> "<namespace>/<key>" not found`. */
export function found<T>(row: T | null, kind: string, namespaceKey: string, key: string): T {
  if (row === null) throw new NotFoundError(namespacedRef(kind, namespaceKey, key));
  return row;
}

/** Flipt treats an omitted or empty namespace key as `default` everywhere. */
export const DEFAULT_NAMESPACE = 'default';

export function namespaceOr(...candidates: Array<string | undefined | null>): string {
  for (const c of candidates) if (c) return c;
  return DEFAULT_NAMESPACE;
}

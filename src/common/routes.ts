/**
 * Flipt serves most management routes twice: under `/namespaces/{namespaceKey}` and, for older clients, without it
 * (the namespace then comes from the body or query, default `default`). `scoped('flags')` lists both paths.
 */
export function scoped(path: string): string[] {
  return [`namespaces/:namespaceKey/${path}`, path];
}

/**
 * The namespace a request is scoped to, read the way Flipt's requests name it (see NamespaceSource). Both JSON
 * spellings of a field are read (`namespaceKey`, `namespace_key`; the camelCase one wins) and `null` is absent.
 * Returns null when the request names no single namespace.
 */
import { DEFAULT_NAMESPACE } from '../common/namespace-key';
import { jsonField } from '../wire';
import type { NamespaceSource } from './auth.decorators';

export interface ScopedRequest {
  params?: unknown;
  body?: unknown;
  query?: unknown;
}

export function requestNamespace(request: ScopedRequest, source: NamespaceSource): string | null {
  switch (source) {
    case 'namespaceKey':
      return (
        field(request.params, 'namespaceKey') || field(request.body, 'namespaceKey') || field(request.query, 'namespaceKey') ||
        DEFAULT_NAMESPACE
      );
    case 'key':
      return field(request.params, 'key') || field(request.body, 'key') || DEFAULT_NAMESPACE;
    case 'requests':
      return batchNamespace(request.body);
  }
}

/** Every item's namespace (empty → default) must be the same one; a batch without items names none. */
function batchNamespace(body: unknown): string | null {
  const items = asObject(body)?.requests;
  if (!Array.isArray(items) || items.length === 0) return null;
  const namespaces = new Set(items.map((item) => field(item, 'namespaceKey') || DEFAULT_NAMESPACE));
  return namespaces.size === 1 ? [...namespaces][0] : null;
}

function field(source: unknown, camel: string): string {
  const o = asObject(source);
  if (!o) return '';
  const value = jsonField(o, camel);
  return typeof value === 'string' ? value : '';
}

function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

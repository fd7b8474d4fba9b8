/**
 * The namespace a request is scoped to, read the way Flipt's gateway decodes its requests (see NamespaceSource): the
 * path parameter wins; otherwise the field comes from the body on the methods that carry one (POST, PUT, PATCH) and
 * from the query string on the others (a POST's query and a GET's or DELETE's body are never read). Both JSON
 * spellings of a field are read (`namespaceKey`, `namespace_key`; the camelCase one wins), `null` is absent, and an
 * empty namespace is `default`. Returns null when the request names no single namespace.
 *
 * The one reading of it: the guard checks namespaced tokens against it and handlers receive it
 * (`@RequestNamespace()`), so both always see the same namespace. The answer is kept on the request.
 */
import { namespaceOr } from '../common/namespace-key';
import { camelToSnake, jsonField } from '../wire';
import type { NamespaceSource } from './route-policy';

const RESOLVED = Symbol('flagpole:request-namespace');

export interface ScopedRequest {
  method: string;
  params?: unknown;
  body?: unknown;
  query?: unknown;
  headers?: Record<string, string | string[] | undefined>;
  [RESOLVED]?: Partial<Record<NamespaceSource, string | null>>;
}

export function requestNamespace(request: ScopedRequest, source: NamespaceSource): string | null {
  const resolved = (request[RESOLVED] ??= {});
  if (!(source in resolved)) resolved[source] = resolve(request, source);
  return resolved[source] ?? null;
}

function resolve(request: ScopedRequest, source: NamespaceSource): string | null {
  switch (source) {
    case 'namespaceKey':
      return namespaceOr(field(request.params, 'namespaceKey'), field(messageOf(request), 'namespaceKey'));
    case 'key':
      return namespaceOr(field(request.params, 'key'), field(request.body, 'key'));
    case 'requests':
      return batchNamespace(request.body);
    case 'header':
      return headerNamespace(request.headers);
  }
}

/**
 * Whether the request names its namespace itself (for routes where naming none means "every namespace", as the audit
 * trail's list): a `namespaceKey` path parameter, or the field in the body or query where the route reads it.
 */
export function namesNamespace(request: ScopedRequest): boolean {
  return field(request.params, 'namespaceKey') !== '' || field(messageOf(request), 'namespaceKey') !== '';
}

/** The headers OFREP clients name their namespace with: Flipt's, and Flagpole's own (decisions.md item 8). */
export const NAMESPACE_HEADERS = ['x-flipt-namespace', 'x-flagpole-namespace'] as const;

/** Either header (empty → absent); both sent must name the same namespace, else the request names none. */
function headerNamespace(headers: ScopedRequest['headers']): string | null {
  const [flipt, flagpole] = NAMESPACE_HEADERS.map((name) => {
    const value = headers?.[name];
    return typeof value === 'string' ? value : '';
  });
  if (flipt && flagpole && flipt !== flagpole) return null;
  return namespaceOr(flipt, flagpole);
}

/** Where the gateway reads a request's fields besides its path (Flipt's routes declare `body: "*"` on these). */
function messageOf(request: ScopedRequest): unknown {
  switch (request.method) {
    case 'POST':
    case 'PUT':
    case 'PATCH':
      return request.body;
    default:
      return request.query;
  }
}

/** Every item's namespace (empty → default) must be the same one; a batch without items names none. */
function batchNamespace(body: unknown): string | null {
  const namespaces = batchNamespaces(body);
  return namespaces.length === 1 ? namespaces[0] : null;
}

/**
 * The distinct namespaces a v2 batch's items name (empty → default), in first-named order; none without items. For
 * authorization, which allows a batch spanning namespaces when each of them is allowed.
 */
export function batchNamespaces(body: unknown): string[] {
  const items = asObject(body)?.requests;
  if (!Array.isArray(items)) return [];
  return [...new Set(items.map((item) => namespaceOr(field(item, 'namespaceKey'))))];
}

/** The fields read here with their proto (snake_case) spellings, worked out once: on every authorized request. */
const SNAKE = { namespaceKey: camelToSnake('namespaceKey'), key: camelToSnake('key') } as const;

function field(source: unknown, camel: keyof typeof SNAKE): string {
  const o = asObject(source);
  if (!o) return '';
  const value = jsonField(o, camel, SNAKE[camel]);
  return typeof value === 'string' ? value : '';
}

function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * The one way the UI talks to Flagpole. Every URL is relative to the page (`api/v1/...` from `/` or from a proxy's
 * `/flagpole/`), so the UI works under any path prefix without knowing it. A failed call throws ApiError carrying
 * the API's own `message` (OFREP's `errorDetails`), which the pages show to the user as it is.
 *
 * Credentials: the browser sends the session cookie (OIDC/GitHub login) by itself on same-origin requests; a client
 * token pasted on the login page is kept in sessionStorage and sent as `Authorization: Bearer`. CSRF: Flagpole's
 * protection (when `authentication.session.csrf.key` is set) is origin-based, not a token: it lets a write through
 * when the browser says `Sec-Fetch-Site: same-origin`, which it does for these same-origin fetches. A refusal is a
 * plain-text 403, explained in words below.
 */
import { clientToken } from '../session/token-store';
import { afterWrite } from './query-client';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The gRPC code of Flipt's error body, when there was one. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** gRPC's PermissionDenied, the code of Flipt's body when the authorization policy refuses a call. */
export const PERMISSION_DENIED = 7;

/** The call was refused by the authorization policy (not by CSRF protection, whose 403 has no code). */
export function isPermissionDenied(e: unknown): boolean {
  return e instanceof ApiError && e.status === 403 && e.code === PERMISSION_DENIED;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Do not announce a 401 as an ended session (the calls that find out whether there is one). */
  probe?: boolean;
  /** Sent besides the UI's own (OFREP names its namespace in `X-Flipt-Namespace`). */
  headers?: Record<string, string>;
  /** A body sent as it is (a document to import), with this content type, instead of `body` as JSON. */
  text?: { body: string; contentType: string };
  /** Answer the response's text as it is (a document exported), not parsed as JSON. */
  raw?: boolean;
}

type Listener = () => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called when an API call answers 401: the session ended or the pasted token stopped working. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

/** The directory the page was loaded from: `http://host/` or `http://host/flagpole/`. */
export function apiBase(): string {
  return new URL('.', window.location.origin + window.location.pathname).href;
}

/** `path` without a leading slash, already encoded: `api/v1/namespaces/${enc(key)}`. */
export function apiUrl(path: string, query: Query = {}): string {
  const url = new URL(path, apiBase());
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  return url.href;
}

export const enc = encodeURIComponent;

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = clientToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.text) headers['content-type'] = options.text.contentType;
  Object.assign(headers, options.headers);
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body: options.text ? options.text.body : options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(`Could not reach Flagpole (${(e as Error).message}). Check your connection and try again.`, 0);
  }
  const text = await res.text();
  if (res.ok) {
    if (method !== 'GET') afterWrite(path);
    return (options.raw ? text : text ? JSON.parse(text) : {}) as T;
  }
  const error = errorOf(res, text);
  if (res.status === 401 && !options.probe) for (const l of unauthenticatedListeners) l();
  throw error;
}

function errorOf(res: Response, text: string): ApiError {
  let body: { code?: number; message?: string; errorCode?: string; errorDetails?: string } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // Not Flipt's JSON error body: a proxy's page or the cross-origin refusal's plain text.
  }
  // Authorization's refusal says only "permission denied": say whose rules refused, and what would help.
  if (res.status === 403 && body?.code === PERMISSION_DENIED) {
    return new ApiError(
      'Permission denied: your role does not allow this (authorization policy). Ask an administrator if you need it.',
      403,
      PERMISSION_DENIED,
    );
  }
  if (body && typeof body.message === 'string' && body.message) return new ApiError(body.message, res.status, body.code);
  // OFREP's error body: its code names the kind of failure for OpenFeature users, so it is kept beside the words.
  if (body && typeof body.errorDetails === 'string' && body.errorDetails) {
    return new ApiError(body.errorCode ? `${body.errorDetails} (${body.errorCode})` : body.errorDetails, res.status);
  }
  const plain = text.trim();
  if (res.status === 403 && plain.startsWith('cross-origin request detected')) {
    return new ApiError(
      `Flagpole refused this change as a cross-origin request (${plain}). If it runs behind a proxy, the proxy must ` +
        'pass the Host header through, or this address must be listed in authentication.session.csrf.trusted_origins.',
      403,
    );
  }
  return new ApiError(plain && plain.length < 300 ? plain : `${res.status} ${res.statusText || 'error'}`, res.status);
}

/** The message to show for anything a call threw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T = object>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

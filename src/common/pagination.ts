/**
 * Flipt's list paging: `pageToken` is base64 (standard alphabet, padded) of JSON `{"key": <first key of the next
 * page>, "offset": <n>}`; only `offset` is read back. `limit` 0/absent means "everything".
 */
import { InvalidError, ValidationError } from './errors';

export interface PageRequest {
  limit?: number;
  offset?: number;
  pageToken?: string;
}

export interface Page {
  /** 0 = no limit. */
  limit: number;
  offset: number;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function encodePageToken(key: string, offset: number): string {
  return Buffer.from(JSON.stringify({ key, offset }), 'utf8').toString('base64');
}

export function decodePageToken(token: string): number {
  const invalid = () => new InvalidError(`pageToken is not valid: ${JSON.stringify(token)}`);
  if (!BASE64.test(token)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid();
  const offset = (parsed as { offset?: unknown }).offset ?? 0;
  // Beyond 2^53 the number is no longer exact, and the databases refuse an OFFSET written as `1e+20`.
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw invalid();
  return offset;
}

/**
 * Turns the request's paging fields into limit/offset. `requireLimit` is Flipt's rule for flags, segments and rules:
 * an offset or page token without a limit is refused. Rollouts ignore `offset` entirely (`useOffset: false`).
 */
export function resolvePage(req: PageRequest, opts: { requireLimit?: boolean; useOffset?: boolean } = {}): Page {
  const limit = req.limit ?? 0;
  const offset = opts.useOffset === false ? 0 : (req.offset ?? 0);
  if (limit < 0) throw new ValidationError('limit', 'must be greater than or equal to 0');
  if (offset < 0) throw new ValidationError('offset', 'must be greater than or equal to 0');
  const token = req.pageToken ?? '';
  if (opts.requireLimit && limit === 0 && (offset > 0 || token !== '')) {
    throw new InvalidError('limit must be set when offset or pageToken is set');
  }
  return { limit, offset: token !== '' ? decodePageToken(token) : offset };
}

export interface PageResult<T> {
  items: T[];
  nextPageToken: string;
}

/**
 * Callers fetch `limit + 1` rows; one row beyond the page means there is a next page, whose token carries the key of
 * that row and the new offset.
 */
export function cutPage<T>(rows: T[], page: Page, keyOf: (row: T) => string): PageResult<T> {
  if (page.limit === 0 || rows.length <= page.limit) return { items: rows, nextPageToken: '' };
  const items = rows.slice(0, page.limit);
  return { items, nextPageToken: encodePageToken(keyOf(rows[page.limit]), page.offset + items.length) };
}

/**
 * What a refused request's audit event may carry of the request. The guard refuses before validation, so a field can
 * be anything the client sent (a 4 MiB key, a nested object): each is kept only when small, so that a refused
 * request costs one small record in the stored trail, the webhooks and the log, however many are sent.
 */

/** Longest text kept whole: Flipt's keys and names fit (the stored trail cuts names to 255 as well). */
export const MAX_DENIED_FIELD_CHARS = 255;
/** What is kept of longer text: a prefix to recognise it by. */
const KEPT_PREFIX_CHARS = 64;

/** Text up to 255 characters, numbers and booleans as sent; longer text cut with its length named; anything else left out. */
export function boundedRequestField(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  if (value.length <= MAX_DENIED_FIELD_CHARS) return value;
  return `${value.slice(0, KEPT_PREFIX_CHARS)}… (${value.length} characters, cut)`;
}

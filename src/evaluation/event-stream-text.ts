/**
 * The text of Flagpole's event streams (server-sent events, text/event-stream), as OFREP's event streams define it
 * (ADR-0008): pure functions, tested beside.
 *
 * Every event is `event: message` with `data: {"type":"refetchEvaluation","etag":…}` and the namespace's snapshot
 * version as its `id`, so a client that reconnects sends the last version it heard of in `Last-Event-ID` and is told
 * at once when the namespace has moved on since. The `etag` is the namespace's tag (ofrep-answer.ts `namespaceTag`):
 * the same on every instance for the same version.
 */

/** What a client learns from an event: refetch. OFREP's one event type; clients ignore others. */
export const REFETCH = 'refetchEvaluation';

/** The longest `Last-Event-ID` read; a version is a number of a few digits, anything longer is not one. */
const MAX_EVENT_ID = 64;

/** An event telling subscribers to refetch; `etag` absent when the namespace is gone. */
export function refetchEvent(version: string, etag?: string): string {
  const data = etag === undefined ? { type: REFETCH } : { type: REFETCH, etag };
  return `id: ${version}\nevent: message\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The first bytes of a stream when there is nothing to announce: an id without data, which dispatches no event but
 * sets the client's last event id (EventSource sends it back as `Last-Event-ID` when it reconnects), so a change made
 * while the client was away is announced when it returns.
 */
export function positionText(version: string): string {
  return `id: ${version}\n\n`;
}

/** A comment line: nothing for the client, traffic for the proxies between. */
export const HEARTBEAT = ':\n\n';

/** The version a reconnecting client last heard of, or undefined (absent, empty or not a version). */
export function lastEventVersion(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed !== '' && trimmed.length <= MAX_EVENT_ID && /^[0-9]+$/.test(trimmed) ? trimmed : undefined;
}

/** Swagger's description of the stream routes. */
export const STREAM_DOC =
  'A server-sent event stream (text/event-stream) that stays open: an event `{"type":"refetchEvaluation","etag":…}` with the namespace version as its id on every change to the namespace; a comment line every `streams.heartbeat_interval`; it ends when the credential is revoked or expires, or the namespace is deleted (after a last event)';

export const STREAM_EXAMPLE = 'id: 1764193000000\n\nid: 1764193012345\nevent: message\ndata: {"type":"refetchEvaluation","etag":"Xb2kq0c1Jm0VbR7e"}\n\n:\n\n';

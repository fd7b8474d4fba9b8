/**
 * A server-sent events client over a real HTTP connection, for tests: parses the stream as the EventSource
 * specification does (fields `id`, `event`, `data`, comments) and lets a test wait for what it expects.
 */
import { request, type IncomingMessage, type ClientRequest } from 'node:http';

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
  /** When it arrived (performance.now()). */
  at: number;
}

export interface SseConnection {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body when the answer was not a stream (an error). */
  body?: string;
  /** Events dispatched so far (an id without data dispatches none but sets lastEventId). */
  events: SseEvent[];
  /** Comment lines (heartbeats) seen so far. */
  comments: number;
  lastEventId: string;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** The next event (after those already seen by earlier calls) within `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once `count` comments have arrived. */
  waitComments(count: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    // eslint-disable-next-line prefer-const
    req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(connection(status, res, req, body)));
        return;
      }
      resolve(connection(status, res, req));
    });
    req.on('error', reject);
    req.end();
  });
}

function connection(status: number, res: IncomingMessage, req: ClientRequest, body?: string): SseConnection {
  const waiters: Array<() => void> = [];
  let read = 0;
  let ended = false;
  let buffer = '';
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const conn: SseConnection = {
    status,
    headers: res.headers,
    body,
    events: [],
    comments: 0,
    lastEventId: '',
    ended: new Promise((resolveEnded) => {
      const finish = () => {
        ended = true;
        wake();
        resolveEnded();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    }),
    isEnded: () => ended,
    async next(timeoutMs = 2000) {
      await until(() => conn.events.length > read || ended, timeoutMs, waiters, 'an event');
      if (conn.events.length <= read) throw new Error('the stream ended without another event');
      return conn.events[read++];
    },
    async waitComments(count, timeoutMs = 5000) {
      await until(() => conn.comments >= count || ended, timeoutMs, waiters, `${count} comments`);
      if (conn.comments < count) throw new Error(`the stream ended after ${conn.comments} comments`);
    },
    close() {
      req.destroy();
    },
  };
  if (body !== undefined) {
    ended = true;
    return conn;
  }
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (id !== undefined) conn.lastEventId = id;
        if (data.length > 0) conn.events.push({ id, event: event || 'message', data: data.join('\n'), at: performance.now() });
        id = undefined;
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) {
        conn.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    wake();
  });
  return conn;
}

function until(done: () => boolean, timeoutMs: number, waiters: Array<() => void>, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      if (done()) {
        clearTimeout(timer);
        resolve();
      } else waiters.push(check);
    };
    check();
  });
}

/** Opens streams on the server at `base()`; each test's streams are closed after it. */
export function streamsClosedAfterEach(base: () => string) {
  const open: SseConnection[] = [];
  afterEach(() => open.splice(0).forEach((c) => c.close()));
  return async (path: string, headers: Record<string, string> = {}) => {
    const c = await openSse(base() + path, headers);
    open.push(c);
    return c;
  };
}

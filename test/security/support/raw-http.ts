/**
 * HTTP spoken by hand over a TCP socket, for what fetch cannot do: paths sent exactly as written (`//api`,
 * `/%61pi`), bodies that arrive slowly or never, and connections held open to see when the server closes them.
 */
import { connect, type Socket } from 'node:net';

export class RawConnection {
  socket!: Socket;
  /** Everything the server sent so far, as text. */
  received = '';
  /** Milliseconds from opening to the server closing the connection; null while it is open. */
  closedAfter: number | null = null;
  private opened = 0;
  private closed!: Promise<void>;

  /** Connects at once, or when `open()` is called. */
  constructor(
    private readonly base: string,
    connectNow = true,
  ) {
    if (connectNow) this.open();
  }

  open(): void {
    const { hostname, port } = new URL(this.base);
    this.opened = Date.now();
    this.socket = connect(Number(port), hostname);
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closedAfter = Date.now() - this.opened;
        resolve();
      }),
    );
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.socket.connecting) return resolve();
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
  }

  send(text: string): boolean {
    if (this.socket.destroyed || !this.socket.writable) return false;
    this.socket.write(text);
    return true;
  }

  /** Resolves when the server closes the connection, or after `ms` (then `closedAfter` is still null). */
  async closedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.closed, new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
    return this.closedAfter !== null;
  }

  /** What was received once a response head arrived or the server closed, or after `ms`. */
  async response(ms: number): Promise<string> {
    const until = Date.now() + ms;
    while (Date.now() < until && !/\r\n\r\n/.test(this.received) && this.closedAfter === null) await sleep(10);
    await sleep(20);
    return this.received;
  }

  destroy(): void {
    this.socket?.destroy();
  }
}

/** For a suite: opens connections to the server `base()` names, each destroyed after the test that opened it. */
export function connectionsTo(base: () => string): () => Promise<RawConnection> {
  const open: RawConnection[] = [];
  afterEach(() => open.splice(0).forEach((c) => c.destroy()));
  return async () => {
    const c = new RawConnection(base());
    open.push(c);
    await c.connected();
    return c;
  };
}

/** The status code of the first response in `text`, or undefined. */
export function statusOf(text: string): number | undefined {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** A request head with Host and the given headers, ready to write. */
export function head(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

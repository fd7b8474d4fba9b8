/**
 * A real webhook receiver on loopback for the audit sink tests: records every request (headers, raw body, the status
 * it was answered with) and can misbehave on demand — answer 5xx for the next N requests, answer late or not until
 * released, or go away (listener closed, open sockets destroyed) and come back on the same port, as a restarted
 * receiver would.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** What this receiver answered. */
  status: number;
}

export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  /** Every request waits this long before it is answered. */
  delayMs = 0;
  private failures: { left: number; status: number } = { left: 0, status: 500 };
  /** While held, the answers of requests that arrived, waiting for release. */
  private held: Array<() => void> | null = null;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The bodies of the requests answered 2xx, parsed: what a receiver actually took. */
  get accepted(): any[] {
    return this.requests.filter((r) => r.status < 300).map((r) => JSON.parse(r.raw));
  }

  /** The next `count` requests are answered `status` (and recorded like any other). */
  fail(count: number, status = 500): void {
    this.failures = { left: count, status };
  }

  /** Answers nothing until the returned function is called; then answers what arrived meanwhile, in order. */
  hold(): () => void {
    this.held = [];
    return () => {
      const waiting = this.held ?? [];
      this.held = null;
      for (const answer of waiting) answer();
    };
  }

  /** Forgets what was received so far. */
  clear(): void {
    this.requests.length = 0;
  }

  /** Stops listening and cuts every open connection, so that the sender sees the receiver gone, not slow. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Listens again on the port it had. */
  async restart(): Promise<void> {
    await this.listen();
  }

  /** Polls until `check` on the accepted bodies passes, or throws its last failure after `timeoutMs`. */
  async until<T>(check: (accepted: any[]) => T, timeoutMs = 10_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      try {
        return check(this.accepted);
      } catch (e) {
        if (Date.now() > end) throw e;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let status = 200;
        if (this.failures.left > 0) {
          this.failures.left--;
          status = this.failures.status;
        }
        const answer = () => {
          this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), status });
          res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'failed');
        };
        if (this.held) this.held.push(answer);
        else if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  }
}

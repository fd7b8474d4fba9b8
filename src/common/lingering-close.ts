/**
 * A lingering close, as Go's net/http and Apache do it, for a request whose body is refused while the client still
 * sends it (413, 503, 408: body-reader.ts). Node answers such a request with `Connection: close` and then closes the
 * socket at once; the client, still writing, gets EPIPE, and the reset its next bytes draw makes its kernel drop the
 * answer it has not read yet, so it never sees why. Here the answer is sent and the write side closed (FIN), then
 * what the client still sends is read and thrown away (no memory kept) until it closes its side, or
 * `limits.max_linger_bytes` or `limits.linger_timeout` runs out; then the socket is closed.
 */
import { Socket } from 'node:net';

export interface LingerLimits {
  lingerTimeout: number;
  maxLingerBytes: number;
}

/**
 * Makes the close that follows the answer now being sent on `socket` a lingering one. Node's HTTP server closes a
 * `Connection: close` socket with `destroySoon()` once the answer is written; this socket's own replaces it.
 */
export function lingerAfterAnswer(socket: Socket | null | undefined, limits: LingerLimits): void {
  if (!socket || socket.destroyed || limits.lingerTimeout <= 0 || limits.maxLingerBytes <= 0) return;
  socket.destroySoon = () => linger(socket, limits);
}

function linger(socket: Socket, { lingerTimeout, maxLingerBytes }: LingerLimits): void {
  // The client already closed its side: nothing more will come.
  if (!socket.readable || socket.readableEnded) return Socket.prototype.destroySoon.call(socket);
  const close = () => socket.destroy();
  const timer = setTimeout(close, lingerTimeout);
  socket.once('close', () => clearTimeout(timer));
  // The answer, then FIN; the read side stays open (HTTP servers allow half-open sockets).
  socket.end();
  // Node's HTTP parser reads this socket: bytes past the refused body would be parsed as further requests. Its data
  // listener goes, and adding this one takes the socket back from the parser (Node unconsumes it for JS listeners).
  socket.removeAllListeners('data');
  let left = maxLingerBytes;
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) close();
  });
  socket.once('end', close);
  socket.resume();
  // A body nobody read fills its request's buffer, and Node's server then stops reading the socket; while its parser
  // consumed the socket, the socket's stream state kept a read pending, so resume() alone would not start reading
  // again. `_read` starts it when it is stopped, and does nothing otherwise.
  (socket as unknown as { _read(size: number): void })._read(0);
}

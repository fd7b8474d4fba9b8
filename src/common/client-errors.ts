/**
 * Fastify's `clientErrorHandler`: what Node reports before a request exists — a request not received within
 * `limits.request_timeout`, headers too large, bytes that are not HTTP. Answered, where the socket still takes it,
 * with Flipt's error body instead of Fastify's own, then the connection is closed (Node's behaviour, kept).
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { GrpcCode } from './grpc-status';

interface ClientError extends Error {
  code?: string;
}

const ANSWERS: Record<string, { status: number; code: GrpcCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: GrpcCode.DeadlineExceeded, message: 'request not received in time' },
  HPE_HEADER_OVERFLOW: { status: 431, code: GrpcCode.InvalidArgument, message: 'request header fields too large' },
};
const MALFORMED = { status: 400, code: GrpcCode.InvalidArgument, message: 'malformed HTTP request' };

export function clientErrorHandler(error: ClientError, socket: Socket): void {
  // A reset connection is gone: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = ANSWERS[error.code ?? ''] ?? MALFORMED;
  if (socket.writable) {
    const body = JSON.stringify({ code: answer.code, message: answer.message, details: [] });
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

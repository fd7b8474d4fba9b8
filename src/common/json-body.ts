/**
 * Flipt's gateway reads every request body as JSON whatever its Content-Type (its own SDK sends `text/plain`).
 * An empty body is `{}`; malformed JSON is a 400 naming the problem.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidError } from './errors';

export const BODY_LIMIT_BYTES = 4 * 1024 * 1024;

export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, parseJsonBody);
}

function parseJsonBody(_req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void): void {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') return done(null, {});
  try {
    done(null, JSON.parse(text));
  } catch (e) {
    done(new InvalidError(`invalid JSON in request body: ${(e as Error).message}`));
  }
}

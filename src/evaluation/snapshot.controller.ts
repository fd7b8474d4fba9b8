import { Controller, Get, Headers, Param, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastPath } from '../common/fast-path';
import { wantsPretty } from '../common/http-compat';
import { SnapshotCache } from './snapshot-cache.service';
import { SnapshotDocumentCache } from './snapshot-document-cache';
import { Excludable, NamespaceScoped, Needs } from '../auth/auth.decorators';
import { ChangeStreams } from './change-streams.service';
import { STREAM_DOC, STREAM_EXAMPLE } from './event-stream-text';

/** The body varies with both; shared caches must keep one copy per value. */
const VARY = ['Accept-Encoding', 'X-Flipt-Accept-Server-Version'];

/**
 * The document client-side SDKs (`@flipt-io/flipt-client-js`) poll and evaluate locally, sent from buffers made once
 * per namespace version (snapshot-document-cache.ts).
 */
@Excludable('evaluation')
@NamespaceScoped('key')
@Needs([{ resource: 'namespace', action: 'read' }])
@ApiTags('evaluation')
@Controller('internal/v1/evaluation/snapshot/namespace')
export class SnapshotController {
  private readonly documents = new SnapshotDocumentCache();

  constructor(
    private readonly snapshots: SnapshotCache,
    private readonly streams: ChangeStreams,
  ) {}

  /**
   * The change stream of the namespace's document: the events of OFREP's stream, whose `etag` is not the document's
   * ETag but says the same (the namespace changed: fetch the document again, with If-None-Match).
   */
  @Get(':key/stream')
  @FastPath((c: SnapshotController) => (request, reply) => c.streams.answer(request, reply, (request.params as { key: string }).key))
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event heard: an older one is answered with an event at once' })
  @ApiOkResponse({ description: STREAM_DOC, content: { 'text/event-stream': { schema: { type: 'string', example: STREAM_EXAMPLE } } } })
  @ApiResponse({ status: 404, description: 'The namespace does not exist' })
  @ApiResponse({ status: 429, description: 'The credential (or, without one, the address) already holds `limits.max_event_streams_per_credential` streams; Retry-After says when to try again' })
  @ApiResponse({ status: 503, description: '`limits.max_event_streams` are open on this instance; Retry-After says when to try again' })
  stream(@Req() request: FastifyRequest, @Param('key') key: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.streams.answer(request, reply, key);
  }

  @Get(':key')
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'ETag of the copy the client holds' })
  @ApiHeader({ name: 'X-Flipt-Accept-Server-Version', required: false, description: 'Client version; ≥ 1.47.0 gets every field' })
  @ApiHeader({
    name: 'Accept-Encoding',
    required: false,
    description: 'br and gzip are offered, br first at equal weight; a document under 1 KB, or a ?pretty one, is sent unencoded',
  })
  @ApiOkResponse({
    description: 'EvaluationNamespaceSnapshot: {namespace: {key}, flags: [...]}',
    schema: { type: 'object' },
    headers: {
      ETag: { description: 'SHA-1 of the namespace version; absent for a namespace that does not exist', schema: { type: 'string' } },
      'Content-Encoding': { description: 'br or gzip when the document is compressed', schema: { type: 'string' } },
      Vary: { description: 'Accept-Encoding, X-Flipt-Accept-Server-Version', schema: { type: 'string' } },
    },
  })
  @ApiResponse({ status: 304, description: 'Unchanged since the ETag in If-None-Match (the ETag is repeated)' })
  async get(
    @Param('key') key: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('x-flipt-accept-server-version') acceptServerVersion: string | undefined,
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | string | undefined> {
    // Indenting is done by http-compat's onSend hook, on JSON text only: a pretty document goes out as text, unencoded.
    const pretty = wantsPretty(reply.request);
    const answer = await this.documents.answer(await this.snapshots.get(key), {
      ifNoneMatch,
      acceptServerVersion,
      acceptEncoding: pretty ? undefined : acceptEncoding,
    });
    appendVary(reply, VARY);
    // A namespace that does not exist has no version: 200 with no flags and no ETag, as Flipt answers.
    if (answer.etag !== undefined) reply.header('etag', answer.etag);
    if (answer.body === undefined) {
      reply.status(304);
      return undefined;
    }
    reply.header('content-type', 'application/json; charset=utf-8');
    if (answer.coding !== 'identity') reply.header('content-encoding', answer.coding);
    return pretty ? answer.body.toString('utf8') : answer.body;
  }
}

/** Adds fields to a Vary header another hook may have started (CORS adds Origin). */
function appendVary(reply: FastifyReply, fields: readonly string[]): void {
  const existing = reply.getHeader('vary');
  if (existing === undefined) {
    reply.header('vary', fields.join(', '));
    return;
  }
  const text = Array.isArray(existing) ? existing.join(', ') : String(existing);
  const present = new Set(text.split(',').map((f) => f.trim().toLowerCase()));
  if (present.has('*')) return;
  const missing = fields.filter((f) => !present.has(f.toLowerCase()));
  if (missing.length > 0) reply.header('vary', [text, ...missing].join(', '));
}

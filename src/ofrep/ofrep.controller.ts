import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiOkResponse, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastPath } from '../common/fast-path';
import { EvaluationBody } from '../common/json-body';
import { ErrorFormat, type ErrorReport } from '../common/error.filter';
import { errorAnswer, type OfrepBulk, type OfrepFlag } from './ofrep-answer';
import {
  OfrepBulkEvaluationFailure, OfrepBulkEvaluationRequest, OfrepBulkEvaluationSuccess, OfrepConfiguration,
  OfrepEvaluationFailure, OfrepEvaluationRequest, OfrepEvaluationSuccess,
} from './ofrep.dto';
import { parseOfrepBulkRequest, parseOfrepRequest, requireNamespace } from './ofrep-request';
import { type BulkAnswer, OfrepService } from './ofrep.service';
import { AnyCredential, AUTHENTICATION, type AuthenticatedRequest, Excludable, NamespaceScoped, Needs } from '../auth/auth.decorators';
import { AcceptsStreamTicket, STREAM_TICKET_PARAM } from '../auth/stream-ticket.route';
import { requestNamespace } from '../auth/request-namespace';
import { ChangeStreams } from '../evaluation/change-streams.service';
import { STREAM_DOC, STREAM_EXAMPLE } from '../evaluation/event-stream-text';
import { andThen } from '../common/maybe-async';

const NO_BODY = 'No body: the credential is missing or refused (a namespaced token outside its namespace too)';

/**
 * Every error on these routes is sent by the one filter in OFREP's shape (ofrep-answer.ts), a refusal made before the
 * body is read included.
 */
/** A request header's one value (the first, when a client repeated it). */
function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The longest `flagConfigEtag` read: the tags Flagpole's events carry are 16 characters. */
const MAX_TAG = 64;

/** `flagConfigEtag`: the tag of the event a client refetches after (OFREP ADR-0008), when it is one. */
function heardTag(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.flagConfigEtag;
  return typeof value === 'string' && value !== '' && value.length <= MAX_TAG ? value : undefined;
}

function sendOfrepError(reply: FastifyReply, error: ErrorReport): void {
  const key = (reply.request.params as Record<string, unknown> | undefined)?.key;
  const answer = errorAnswer(error, typeof key === 'string' ? key : undefined);
  reply.status(answer.status);
  if (answer.body === undefined) {
    reply.send();
    return;
  }
  reply.header('content-type', 'application/json').send(JSON.stringify(answer.body));
}

/**
 * The OpenFeature Remote Evaluation Protocol, as Flipt v1 serves it (docs/api.md lists every choice). The namespace
 * comes from the `X-Flipt-Namespace` or `X-Flagpole-Namespace` header; namespaced tokens may use these routes in
 * their namespace. Bodies arrive `unknown` and are parsed here (ofrep-request.ts), as the evaluation routes parse
 * theirs.
 */
@Excludable('ofrep')
@NamespaceScoped('header')
@Needs([{ resource: 'namespace', action: 'read' }])
@ErrorFormat(sendOfrepError)
@ApiTags('ofrep')
@ApiExtraModels(OfrepEvaluationSuccess, OfrepEvaluationFailure)
@ApiHeader({ name: 'X-Flipt-Namespace', required: false, description: 'Namespace (absent or empty: `default`)' })
@ApiHeader({ name: 'X-Flagpole-Namespace', required: false, description: 'Namespace, as X-Flipt-Namespace; both sent must agree' })
@ApiResponse({ status: 401, description: NO_BODY })
@ApiResponse({ status: 403, description: 'No body' })
@Controller('ofrep/v1')
export class OfrepController {
  constructor(
    private readonly ofrep: OfrepService,
    private readonly streams: ChangeStreams,
  ) {}

  @Post('evaluate/flags/:key')
  @EvaluationBody()
  @FastPath((c: OfrepController) => (request) => c.single(request))
  @HttpCode(200)
  @ApiParam({ name: 'key', description: 'The flag key' })
  @ApiBody({ type: OfrepEvaluationRequest, required: false })
  @ApiOkResponse({ type: OfrepEvaluationSuccess })
  @ApiResponse({ status: 400, type: OfrepEvaluationFailure, description: 'PARSE_ERROR (not JSON) or INVALID_CONTEXT' })
  @ApiResponse({ status: 404, type: OfrepEvaluationFailure, description: 'FLAG_NOT_FOUND: `flag was not found <key>`' })
  @ApiResponse({ status: 500, type: OfrepEvaluationFailure, description: 'GENERAL' })
  evaluate(@Req() request: FastifyRequest): OfrepFlag | Promise<OfrepFlag> {
    return this.single(request);
  }

  @Post('evaluate/flags')
  @EvaluationBody()
  @FastPath((c: OfrepController) => (request, reply) => c.many(request, reply))
  @HttpCode(200)
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'ETag of the answer the client holds' })
  @ApiQuery({
    name: 'flagConfigEtag',
    required: false,
    description: "The `etag` of the event stream's event that made the client refetch: when it is not this instance's, the instance makes sure it has the namespace's latest state first",
  })
  @ApiQuery({ name: 'flagConfigLastModified', required: false, description: 'Accepted and not used (Flagpole\'s events carry no lastModified)' })
  @ApiBody({ type: OfrepBulkEvaluationRequest, required: false })
  @ApiOkResponse({
    type: OfrepBulkEvaluationSuccess,
    headers: { ETag: { description: 'Changes with the namespace (any write to it) and with the context', schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'The ETag in If-None-Match is current (it is repeated); nothing was evaluated' })
  @ApiResponse({ status: 400, type: OfrepBulkEvaluationFailure, description: 'PARSE_ERROR (not JSON) or INVALID_CONTEXT' })
  @ApiResponse({ status: 500, type: OfrepBulkEvaluationFailure, description: 'GENERAL' })
  bulk(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): OfrepBulk | undefined | Promise<OfrepBulk | undefined> {
    return this.many(request, reply);
  }

  /** The single evaluation, for both handlers (common/fast-path.ts). */
  private single(request: FastifyRequest): OfrepFlag | Promise<OfrepFlag> {
    const { key } = request.params as { key: string };
    return this.ofrep.evaluate(requireNamespace(requestNamespace(request, 'header')), key, parseOfrepRequest(request.body));
  }

  /** The bulk evaluation, for both handlers: its ETag on the reply, and its body, or none with a 304. */
  private many(request: FastifyRequest, reply: FastifyReply): OfrepBulk | undefined | Promise<OfrepBulk | undefined> {
    const namespace = requireNamespace(requestNamespace(request, 'header'));
    const parsed = parseOfrepBulkRequest(request.body, this.ofrep.maxSelectedFlags);
    const stream = { prefix: headerOf(request, 'x-forwarded-prefix') ?? '', authentication: (request as AuthenticatedRequest)[AUTHENTICATION] };
    const answer = this.ofrep.bulk(namespace, parsed, headerOf(request, 'if-none-match'), stream, heardTag(request));
    const send = (a: BulkAnswer): OfrepBulk | undefined => {
      reply.header('etag', a.etag);
      if (a.body === undefined) reply.status(304);
      return a.body;
    };
    return andThen(answer, send);
  }

  @Get('_stream/:namespaceKey/events')
  @FastPath((c: OfrepController) => (request, reply) => c.streams.answer(request, reply, (request.params as { namespaceKey: string }).namespaceKey))
  @NamespaceScoped('namespaceKey')
  @AcceptsStreamTicket()
  @ApiProduces('text/event-stream')
  @ApiParam({ name: 'namespaceKey', description: 'The namespace whose changes are streamed' })
  @ApiQuery({
    name: STREAM_TICKET_PARAM,
    type: String,
    required: false,
    description: 'The stream ticket of the URL an authenticated bulk answer advertises: the credential, for clients that cannot send a header (a browser\'s EventSource). When given, it alone authenticates the request',
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event heard (EventSource sends it when it reconnects): an older one is answered with an event at once' })
  @ApiOkResponse({ description: STREAM_DOC, content: { 'text/event-stream': { schema: { type: 'string', example: STREAM_EXAMPLE } } } })
  @ApiResponse({ status: 404, type: OfrepBulkEvaluationFailure, description: 'The namespace does not exist' })
  @ApiResponse({ status: 429, type: OfrepBulkEvaluationFailure, description: 'GENERAL: the credential (or, without one, the address) already holds `limits.max_event_streams_per_credential` streams; Retry-After says when to try again' })
  @ApiResponse({ status: 503, type: OfrepBulkEvaluationFailure, description: 'GENERAL: `limits.max_event_streams` are open on this instance; Retry-After says when to try again' })
  events(@Req() request: FastifyRequest, @Param('namespaceKey') namespace: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.streams.answer(request, reply, namespace);
  }

  @Get('configuration')
  @AnyCredential()
  @ApiOkResponse({ type: OfrepConfiguration, description: 'As Flipt serves it (no longer part of OFREP)' })
  configuration(): OfrepService['configuration'] {
    return this.ofrep.configuration;
  }
}

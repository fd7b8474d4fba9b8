/**
 * The server span of every HTTP request, from three Fastify hooks registered only when tracing is on: started as the
 * request arrives (continuing the trace its `traceparent` or B3 headers name), made current as its handler starts
 * (so evaluation, write and database spans are its children), ended with the response's status. Named
 * `METHOD /route/:pattern` as OpenTelemetry's HTTP conventions say; the query string is never recorded (it may carry
 * an OAuth code), nor any header but the user agent.
 */
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tracing } from './tracing';

const SPAN = Symbol('flagpole:server-span');

type Traced = FastifyRequest & { [SPAN]?: Span };

export function registerServerSpans(fastify: FastifyInstance, tracing: Tracing): void {
  if (!tracing.on) return;
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = tracing.start(
      route === undefined ? request.method : `${request.method} ${route}`,
      tracing.incoming(request.headers),
      { 'http.request.method': request.method },
      SpanKind.SERVER,
    );
    (request as Traced)[SPAN] = span;
    // The sampler decides on the trace id alone: the rest is read only for a span that is recorded.
    if (span.isRecording()) {
      const query = request.url.indexOf('?');
      const userAgent = request.headers['user-agent'];
      span.setAttributes({
        'url.path': query === -1 ? request.url : request.url.slice(0, query),
        'url.scheme': request.protocol,
        'network.protocol.version': request.raw.httpVersion,
        'client.address': request.ip,
        ...(route === undefined ? {} : { 'http.route': route }),
        ...(userAgent === undefined ? {} : { 'user_agent.original': userAgent }),
      });
    }
    done();
  });
  // The last hook before the handler: the handler (and all it awaits) runs with the request's span current.
  fastify.addHook('preHandler', (request, _reply, done) => {
    const span = (request as Traced)[SPAN];
    if (span) tracing.within(span, done);
    else done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = (request as Traced)[SPAN];
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    const span = (request as Traced)[SPAN];
    if (span) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'request aborted by the client' });
      span.end();
    }
    done();
  });
}

/**
 * `@RequestNamespace()`: a handler's namespace, as request-namespace.ts reads it from where the route's
 * `@NamespaceScoped(from)` says, the same answer the guard checked namespaced tokens against. The route's body and
 * query DTOs are still declared and validated as before (their `namespaceKey` field included); only the reading of
 * the namespace is here.
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requireStorableText } from '../common/storable-text';
import { requestNamespace } from './request-namespace';
import { scopeOfRequest } from './route-policy';

export const RequestNamespace = createParamDecorator((_: unknown, context: ExecutionContext): string | null => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const source = scopeOfRequest(request);
  if (source === null) throw new Error(`@RequestNamespace() on ${request.routeOptions.url}, which is not @NamespaceScoped`);
  // The request pipe checks `@Param` values; the path parameter read here is a key the services look up just as well.
  const fromPath = (request.params as Record<string, unknown> | undefined)?.[source];
  if (typeof fromPath === 'string') requireStorableText(source, fromPath);
  return requestNamespace(request, source);
});

/**
 * The grant the one guard worked out for a request, kept on it for routes that cut their answer to what the caller
 * may see (the namespace list: Flipt's `viewable_namespaces`).
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Grant } from './grant';

export const GRANT = Symbol('flagpole:grant');

export interface AuthorizedRequest {
  [GRANT]?: Grant;
}

/** Which namespaces the caller may read; undefined when authorization is off (all of them). */
export type NamespaceFilter = ((key: string) => boolean) | undefined;

export function viewableNamespaces(request: AuthorizedRequest): NamespaceFilter {
  const grant = request[GRANT];
  return grant ? (key) => grant.allows('read', 'namespace', key) : undefined;
}

export const ViewableNamespaces = createParamDecorator(
  (_: unknown, context: ExecutionContext): NamespaceFilter => viewableNamespaces(context.switchToHttp().getRequest<AuthorizedRequest>()),
);

/**
 * What a route needs from authentication, declared where the route is. The one guard (auth.guard.ts) reads these;
 * a route without any of them requires an authentication (when `authentication.required`) and refuses namespaced
 * tokens.
 */
import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FlagpoleConfig } from '../config/config.types';
import type { AuthenticationRecord } from './authentication.record';

export const PUBLIC = 'flagpole:auth:public';
export const EXCLUDABLE = 'flagpole:auth:excludable';
export const NAMESPACE_SCOPE = 'flagpole:auth:namespace-scope';

/** Never authenticated: health, `GET /auth/v1/method`, the login endpoints of the OIDC, GitHub and Kubernetes methods. */
export const Public = () => SetMetadata(PUBLIC, true);

/**
 * Public while `protect(config)` is false; otherwise like any route without `@Public()`. For `/metrics`, which
 * Prometheus scrapes without a credential unless `metrics.require_authentication` asks for one.
 */
export const PublicUnless = (protect: (config: FlagpoleConfig) => boolean) => SetMetadata(PUBLIC, protect);

/** The `authentication.exclude.<group>` switch that opens the route (Flipt's management, evaluation and OFREP APIs). */
export type ExcludableGroup = 'management' | 'evaluation' | 'ofrep';
export const Excludable = (group: ExcludableGroup) => SetMetadata(EXCLUDABLE, group);

/**
 * Where a request names its namespace:
 * - `namespaceKey`: the path parameter, else `namespaceKey` (`namespace_key`) of the body, else of the query;
 * - `key`: the path parameter `key`, else the body's `key` (namespace CRUD, snapshots);
 * - `requests`: every item of the body's `requests` (v2 batch evaluation), which must all agree.
 * An empty namespace is `default`.
 */
export type NamespaceSource = 'namespaceKey' | 'key' | 'requests';

/** Namespaced tokens may use the route when the request's namespace is theirs. */
export const NamespaceScoped = (from: NamespaceSource = 'namespaceKey') => SetMetadata(NAMESPACE_SCOPE, from);

/** Overrides a controller-wide `@NamespaceScoped`: the route names no single namespace (listing namespaces). */
export const Unscoped = () => SetMetadata(NAMESPACE_SCOPE, null);

/** The request's property holding the authentication the guard found. */
export const AUTHENTICATION = Symbol('flagpole:authentication');

export interface AuthenticatedRequest {
  [AUTHENTICATION]?: AuthenticationRecord;
}

/** The request's authentication, or undefined when none was required or found. */
export const CurrentAuthentication = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticationRecord | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>()[AUTHENTICATION],
);

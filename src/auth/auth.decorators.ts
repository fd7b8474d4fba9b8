/**
 * What a route needs from authentication, declared where the route is (route-policy.ts keeps and resolves it). A
 * Nest route declares one of these on its method or controller; without any, it requires an authentication (when
 * `authentication.required`) and refuses namespaced tokens.
 */
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Action, Resource } from '../authorization/policy';
import type { FlagpoleConfig } from '../config/config.types';
import type { AuthenticationRecord } from './authentication.record';
import { declareRoute, type ExcludableGroup, type NamespaceSource } from './route-policy';

export type { ExcludableGroup, NamespaceSource } from './route-policy';

/** Never authenticated: health, `GET /auth/v1/method`, the login endpoints of the OIDC, GitHub and Kubernetes methods. */
export const Public = () => declareRoute({ public: true });

/**
 * With `@Public()`: a credential, when one is sent, is checked and, when valid, put on the request
 * (`@CurrentAuthentication()`); a missing or refused one is no error. For `/health`, whose details only a caller with
 * a credential sees while `authentication.required`.
 */
export const IdentifiesCaller = () => declareRoute({ identify: true });

/**
 * Public while `protect(config)` is false; otherwise like any route without `@Public()`. For `/metrics`, which
 * Prometheus scrapes without a credential unless `metrics.require_authentication` asks for one.
 */
export const PublicUnless = (protect: (config: FlagpoleConfig) => boolean) => declareRoute({ public: protect });

/** Requires an authentication when `authentication.required`, whatever the exclusions; not namespace-scoped. */
export const Authenticated = () => declareRoute({});

/** The `authentication.exclude.<group>` switch that opens the route (Flipt's management, evaluation and OFREP APIs). */
export const Excludable = (group: ExcludableGroup) => declareRoute({ group });

/** Namespaced tokens may use the route when the request's namespace (read from `from`) is theirs. */
export const NamespaceScoped = (from: NamespaceSource = 'namespaceKey') => declareRoute({ scope: from });

/** Overrides a controller-wide `@NamespaceScoped`: the route names no single namespace (listing namespaces). */
export const Unscoped = () => declareRoute({ scope: null });

/**
 * Authorization (docs/authorization.md): the route acts on `resource` in the request's namespace, with the action of
 * its HTTP method (GET read, POST create, PUT update, DELETE delete). On a controller, for each of its routes.
 */
export const OnResource = (resource: Resource) => declareRoute({ access: { needs: [{ resource }] } });

/**
 * Authorization: the route needs each of these permissions. `namespace`: where they apply — the request's namespace
 * (`scope`, the default), the namespace only when the request names one (`ifNamed`), or none (`none`).
 */
export const Needs = (needs: Array<{ resource: Resource; action?: Action }>, namespace: 'scope' | 'ifNamed' | 'none' = 'scope') =>
  declareRoute({ access: { needs, namespace } });

/** Authorization: any authenticated credential may use the route (its own authentication, server facts). */
export const AnyCredential = () => declareRoute({ access: 'any' });

/** Authorization: the namespace list, cut to the namespaces the caller may read (`@ViewableNamespaces()`). */
export const ListsViewableNamespaces = () => declareRoute({ access: 'viewable' });

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

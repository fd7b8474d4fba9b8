/**
 * What a route needs from authentication, worked out once per route as Fastify registers it, and read from the
 * request at run time. Routes declare it with the decorators of auth.decorators.ts, which write a declaration into
 * the route's Fastify config (`@RouteConfig`, which Nest hands to Fastify); the `onRoute` hook of app.ts turns it into
 * a RoutePolicy with the configuration at hand. The one guard, the evaluation fast path and the check made before a
 * body is read all read `request.routeOptions.config[POLICY]`: nothing looks a route up again per request.
 */
import { PATH_METADATA } from '@nestjs/common/constants';
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { Permission } from '../authorization/grant';
import type { Action, Resource } from '../authorization/policy';
import { addRouteConfig, routeConfigOf, type RouteConfig } from '../common/route-config';
import type { FlagpoleConfig } from '../config/config.types';

/** The `authentication.exclude.<group>` switch that opens a route (Flipt's management, evaluation and OFREP APIs). */
export type ExcludableGroup = 'management' | 'evaluation' | 'ofrep';

/**
 * Where a request names its namespace:
 * - `namespaceKey`: the path parameter, else `namespaceKey` (`namespace_key`) of the body, else of the query;
 * - `key`: the path parameter `key`, else the body's `key` (namespace CRUD, snapshots);
 * - `requests`: every item of the body's `requests` (v2 batch evaluation), which must all agree;
 * - `header`: the `X-Flipt-Namespace` or `X-Flagpole-Namespace` header (OFREP), which must agree when both are sent.
 * An empty namespace is `default`.
 */
export type NamespaceSource = 'namespaceKey' | 'key' | 'requests' | 'header';

/** As a route declares it; a method's declaration wins over its controller's, field by field. */
export interface AuthDeclaration {
  /** true: never authenticated; a function: public while it answers false for the configuration. */
  public?: true | ((config: FlagpoleConfig) => boolean);
  /** On a public route: a credential sent is checked and, when valid, kept on the request; none is no refusal. */
  identify?: true;
  group?: ExcludableGroup;
  /** null: names no single namespace (namespaced tokens are refused). */
  scope?: NamespaceSource | null;
  access?: AccessDeclaration;
}

/**
 * What `authorization.required` asks of the caller (docs/authorization.md):
 * - `needs`: each permission, in the request's namespace (`scope`: where the route's scope reads it; `ifNamed`: only
 *   when the request names one, else anywhere; `none`: resources outside namespaces). An action left out is the
 *   HTTP method's: GET read, POST create, PUT and PATCH update, DELETE delete;
 * - `any`: any authenticated credential (its own authentication, server facts);
 * - `viewable`: the namespace list, cut to the namespaces the caller may read.
 */
export type AccessDeclaration =
  | { needs: ReadonlyArray<{ resource: Resource; action?: Action }>; namespace?: 'scope' | 'ifNamed' | 'none' }
  | 'any'
  | 'viewable';

/** A route's access, with its actions resolved; `undeclared` routes refuse everyone when authorization is on. */
export type RouteAccess =
  | { kind: 'needs'; needs: readonly Permission[]; namespace: 'scope' | 'ifNamed' | 'none' }
  | { kind: 'any' }
  | { kind: 'viewable' }
  | { kind: 'undeclared' };

/** What the route needs, for this configuration. */
export interface RoutePolicy {
  /** An authentication is required: `authentication.required`, not public, its group not excluded. */
  readonly authenticate: boolean;
  /** Where namespaced tokens find the request's namespace; null: they may not use the route. */
  readonly scope: NamespaceSource | null;
  /** What authorization asks (whether or not it is on: the route table is the same either way). */
  readonly access: RouteAccess;
  /**
   * Not required, but looked for: a valid credential is kept on the request, a missing or refused one is no error
   * (`/health`, which shows its details only to a caller it knows while `authentication.required`).
   */
  readonly identify?: boolean;
}

const DECLARATION = 'flagpole:auth';
const POLICY = 'flagpole:auth-policy';

/** A class or method decorator adding `fields` to the declaration of the method, or of each route of the class. */
export function declareRoute(fields: AuthDeclaration): ClassDecorator & MethodDecorator {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      declare(descriptor.value as Function, fields, true);
      return;
    }
    const prototype = (target as Function).prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = prototype[name];
      // Class decorators run after method ones: a field the method declared itself stays.
      if (typeof method === 'function' && Reflect.hasMetadata(PATH_METADATA, method)) declare(method, fields, false);
    }
  };
}

function declare(method: Function, fields: AuthDeclaration, override: boolean): void {
  const existing = (routeConfigOf(method)[DECLARATION] as AuthDeclaration | undefined) ?? {};
  addRouteConfig(method, { [DECLARATION]: override ? { ...existing, ...fields } : { ...fields, ...existing } });
}

/** The policy for a declaration (every route without one: authentication required, no namespace scope). */
export function resolvePolicy(declaration: AuthDeclaration, config: FlagpoleConfig, method = 'GET'): RoutePolicy {
  const scope = declaration.scope ?? null;
  const access = resolveAccess(declaration.access, method);
  if (!config.authentication.required) return { authenticate: false, scope, access };
  const open = declaration.public;
  if (open === true || (typeof open === 'function' && !open(config))) return { authenticate: false, scope, access, identify: declaration.identify === true };
  const group = declaration.group;
  return { authenticate: !(group && config.authentication.exclude[group]), scope, access };
}

const ACTION_OF_METHOD: Record<string, Action> = { GET: 'read', HEAD: 'read', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

function resolveAccess(declared: AccessDeclaration | undefined, method: string): RouteAccess {
  if (declared === undefined) return { kind: 'undeclared' };
  if (declared === 'any' || declared === 'viewable') return { kind: declared };
  const fallback = ACTION_OF_METHOD[method] ?? 'update';
  return {
    kind: 'needs',
    needs: declared.needs.map((n) => ({ resource: n.resource, action: n.action ?? fallback })),
    namespace: declared.namespace ?? 'scope',
  };
}

/**
 * For Fastify's `onRoute` hook: resolves a declared route's policy into its config. Returns it, or undefined for
 * routes that declare nothing (Swagger's and the UI's files, served outside Nest and the guard).
 */
export function settleRoutePolicy(route: RouteOptions, config: FlagpoleConfig): RoutePolicy | undefined {
  const routeConfig = route.config as RouteConfig | undefined;
  const declaration = routeConfig?.[DECLARATION] as AuthDeclaration | undefined;
  if (!declaration) return undefined;
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  const policy = resolvePolicy(declaration, config, method);
  route.config = { ...routeConfig, [POLICY]: policy } as RouteOptions['config'];
  return policy;
}

const REQUIRED: RoutePolicy = { authenticate: true, scope: null, access: { kind: 'undeclared' } };

/**
 * The policy of the route the request matched. A route without one (declared outside Flagpole's decorators) gets
 * the strictest: authentication required, no namespace scope.
 */
export function policyOfRequest(request: FastifyRequest, config: FlagpoleConfig): RoutePolicy {
  const policy = settledPolicy(request);
  if (policy) return policy;
  return config.authentication.required ? REQUIRED : { authenticate: false, scope: null, access: { kind: 'undeclared' } };
}

/** Where the matched route names its namespace (null: it names none), whether or not it requires an authentication. */
export function scopeOfRequest(request: FastifyRequest): NamespaceSource | null {
  return settledPolicy(request)?.scope ?? null;
}

function settledPolicy(request: FastifyRequest): RoutePolicy | undefined {
  return (request.routeOptions.config as unknown as RouteConfig | undefined)?.[POLICY] as RoutePolicy | undefined;
}

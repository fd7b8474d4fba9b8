/**
 * Facts a route carries to Fastify: a controller method's entries in its Fastify route config (`@RouteConfig`, which
 * Nest hands to Fastify as the route's `config`). Fastify's `onRoute` hooks read them as routes are registered, and
 * handlers find them on `request.routeOptions.config` — so a decision about a route is made once, from what the route
 * declares where it is written. Several decorators may add entries to one method's config.
 */
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { onRequestHookHandler, RouteOptions } from 'fastify';

export type RouteConfig = Record<string | symbol, unknown>;

/** The method's route config with `entries` added (replacing entries of the same names). */
export function addRouteConfig(method: Function, entries: RouteConfig): void {
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...routeConfigOf(method), ...entries }, method);
}

export function routeConfigOf(method: Function): RouteConfig {
  return (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, method) as RouteConfig | undefined) ?? {};
}

/** For `onRoute` hooks: adds a route-level onRequest hook (once), after the route's own. */
export function addOnRequest(route: RouteOptions, hook: onRequestHookHandler): void {
  const hooks = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
  if (!hooks.includes(hook)) route.onRequest = [...hooks, hook];
}

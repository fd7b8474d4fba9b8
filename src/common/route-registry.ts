/**
 * Remembers every registered route so that an unmatched request can be told apart: an unknown path is Flipt's
 * 404 `Not Found`, a known path with the wrong method is its 501 `Method Not Allowed`.
 */
import FindMyWay from 'find-my-way';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

export class RouteRegistry {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true });
  private readonly routes: Array<{ method: string; url: string }> = [];

  /** Every route registered, as `{method, url}` with Fastify's `:param` syntax. */
  list(): ReadonlyArray<{ method: string; url: string }> {
    return this.routes;
  }

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      if (!(METHODS as readonly string[]).includes(m)) continue;
      this.routes.push({ method: m, url });
      try {
        this.router.on(m as (typeof METHODS)[number], url, () => undefined);
      } catch {
        // The same route registered twice (Fastify's HEAD twins, aliases) changes nothing here.
      }
    }
  }

  /** True when the path exists for some method other than `method`. */
  knowsPathForOtherMethod(method: string, url: string): boolean {
    const path = url.split('?')[0];
    return METHODS.some((m) => m !== method && this.router.find(m, path) !== null);
  }
}

/**
 * Counts and times every request for `GET /metrics`, by method, route template and status.
 * The template (`/api/v1/families/:familySlug/people`), never the path, so the number of
 * series stays that of the routes. Doors that answer without the router (CalDAV, MCP, the
 * OAuth door) label their paths themselves (`Door.routeLabel`): a fixed template per kind of
 * path they serve. Only a path no door knows is `unmatched`. It sits outside the error
 * boundary, so it sees the status the client got.
 */
import type Koa from 'koa';

/** Where request figures go (the daemon's Metrics). */
export interface RequestObserver {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

/** The route label of a finished request: the router's template, its door's, or `unmatched`. */
export function routeLabel(
  ctx: Koa.Context,
  doorLabel: (ctx: Koa.Context) => string | null = () => null,
): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  return doorLabel(ctx) ?? 'unmatched';
}

export function requestMetrics(
  metrics: RequestObserver,
  doorLabel?: (ctx: Koa.Context) => string | null,
): Koa.Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      metrics.observeRequest(ctx.method, routeLabel(ctx, doorLabel), ctx.status, seconds);
    }
  };
}

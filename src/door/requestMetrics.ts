/**
 * Counts and times every request for `GET /metrics`, by method, route template and status.
 * The template (`/api/v1/families/:familySlug/people`), never the path, so the number of
 * series stays that of the routes; a request no route matched counts as `unmatched`.
 * It sits outside the error mapper, so it sees the status the client got.
 */
import type Koa from 'koa';

/** Where request figures go (the daemon's Metrics). */
export interface RequestObserver {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

export function requestMetrics(metrics: RequestObserver): Koa.Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute;
      metrics.observeRequest(
        ctx.method,
        typeof route === 'string' ? route : 'unmatched',
        ctx.status,
        seconds,
      );
    }
  };
}

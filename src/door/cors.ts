/**
 * CORS for browser dashboards served from another origin (a wall tablet's page): only the
 * origins in `server.corsOrigins` (none by default; `*` for any) get CORS headers.
 *
 * It runs before the router, so a preflight (OPTIONS with Access-Control-Request-Method) is
 * answered here with 204 — never a 405 — and before authentication and rate limits, because a
 * browser sends no x-api-key on a preflight. The actual request then goes through every check
 * as usual; its answer (errors included) carries the CORS headers so the page can read it.
 *
 * The API authenticates with a header, never with cookies, so credentials are never allowed
 * (no Access-Control-Allow-Credentials), which also makes `*` safe to send as it is.
 * A disallowed origin gets no CORS headers at all: the browser then refuses to show the answer.
 */
import type Koa from 'koa';

const ALLOW_METHODS = 'GET, POST, PATCH, PUT, DELETE';
const ALLOW_HEADERS = 'x-api-key, content-type, idempotency-key, x-request-id';
/** Headers a page may read besides the CORS-safelisted ones. */
const EXPOSE_HEADERS =
  'x-request-id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed';
/**
 * How long a browser may reuse a preflight's answer (seconds); short, so a config change soon
 * applies.
 */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

export function cors(origins: readonly string[]): Koa.Middleware {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    if (!origin) return void (await next());
    // The answer depends on Origin whenever a list is configured: caches must keep them apart.
    if (!any) ctx.vary('Origin');
    if (!any && !allowed.has(origin)) return void (await next());
    const allowOrigin = any ? '*' : origin;

    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      ctx.status = 204;
      ctx.set({
        'Access-Control-Allow-Origin': allowOrigin,
        'Access-Control-Allow-Methods': ALLOW_METHODS,
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      });
      ctx.vary('Access-Control-Request-Headers');
      return;
    }
    ctx.set({
      'Access-Control-Allow-Origin': allowOrigin,
      'Access-Control-Expose-Headers': EXPOSE_HEADERS,
    });
    await next();
  };
}

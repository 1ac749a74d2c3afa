/**
 * Counts and times every request for `GET /metrics`, by method, route template and status.
 * The template (`/api/v1/families/:familySlug/people`), never the path, so the number of
 * series stays that of the routes. Doors that answer without the router (CalDAV, MCP, the
 * OAuth door) are labelled by `doorRoute`: a fixed template per kind of path they serve, or
 * one a door sets in `ctx.state.metricsRoute`. Only a path no door knows is `unmatched`.
 * It sits outside the error mapper, so it sees the status the client got.
 */
import type Koa from 'koa';
import type { Metrics } from '../../metrics.js';

const OAUTH_ENDPOINTS = new Set([
  '/oauth/authorize',
  '/oauth/token',
  '/oauth/register',
  '/oauth/revoke',
]);
const WELL_KNOWN = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/caldav',
];
/** CalDAV's depth below /dav/: service root, family (principal and home), collection, object. */
const DAV_TEMPLATES = [
  '/dav/',
  '/dav/:familySlug/',
  '/dav/:familySlug/:collection/',
  '/dav/:familySlug/:collection/:object',
];

/**
 * The label of a path served outside the router: one of a fixed, small set, so a client
 * cannot grow the number of series by inventing paths. Null when no door serves it.
 */
export function doorRoute(path: string): string | null {
  if (path === '/mcp') return '/mcp';
  if (OAUTH_ENDPOINTS.has(path)) return path;
  for (const prefix of WELL_KNOWN)
    if (path === prefix || path.startsWith(`${prefix}/`)) return prefix;
  if (path === '/dav' || path.startsWith('/dav/')) {
    const depth = path.split('/').filter(Boolean).length - 1;
    return DAV_TEMPLATES[Math.min(depth, DAV_TEMPLATES.length - 1)];
  }
  return null;
}

/** The route label of a finished request: the router's template, a door's, or `unmatched`. */
export function routeLabel(ctx: Koa.Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const set = (ctx.state as { metricsRoute?: unknown }).metricsRoute;
  if (typeof set === 'string') return set;
  return doorRoute(ctx.path) ?? 'unmatched';
}

export function requestMetrics(metrics: Metrics): Koa.Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      metrics.observeRequest(ctx.method, routeLabel(ctx), ctx.status, seconds);
    }
  };
}

/**
 * `POST /mcp`: the Model Context Protocol over stateless Streamable HTTP, beside the REST API.
 *
 * Order: the Host (and Origin, when sent) must name this daemon — its publicUrl or a loopback
 * name — so a web page on a rebound DNS name cannot drive it (403); only POST is served (405);
 * then the credentials: an OAuth access token (Authorization: Bearer hoa_…, src/oauth) or the
 * family key (x-api-key or Authorization: Bearer) as REST checks it — none or a bad one is a
 * 401 before any MCP message is read, naming the protected resource metadata in
 * `WWW-Authenticate` (RFC 9728 §5.1) so an OAuth client can find the authorization server,
 * and spends the client address's budget of failures; then the message counts in the key's
 * budget, or the grant's own (`rateLimit.perMinute`, the daemon's one limiter: 429 past it);
 * then the body is read with the REST body's caps, and a fresh server and transport answer it
 * in JSON. Tool calls are sent to REST with the inner-call proof (dispatch.ts), so REST takes
 * a grant's token and does not count the call again.
 */
import { INNER_CALL_HEADER, limitHeaders, type Limited } from '../http/middleware/rateLimit.js';
import { HttpError, Unauthorized } from '../http/errors.js';
import type Koa from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { KeyCache } from '../http/middleware/auth.js';
import { jsonBody } from '../http/middleware/body.js';
import type { RouteDef, Services } from '../http/route.js';
import type { ApiKeyRecord, FamilyInfo } from '../store/types.js';
import { buildCatalog } from './catalog.js';
import { buildMcpServer } from './server.js';

export const MCP_PATH = '/mcp';

export interface McpEndpointOptions {
  services: Services;
  routes: readonly RouteDef[];
  /** The daemon's own address, where tool calls are sent as REST requests. */
  baseUrl: () => string;
  version: string;
  /** The OAuth door, when there is one (src/oauth). */
  grants?: McpGrants;
}

/** What /mcp needs of the OAuth door. */
export interface McpGrants {
  verifyAccess(
    token: string,
  ): { key: ApiKeyRecord; family: FamilyInfo; grant: { id: string } } | null;
  /** The RFC 9728 document's address, named on every 401. */
  resourceMetadata: string;
  isAccessToken(token: string): boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Host header (host[:port]) allowed: publicUrl's host exactly, or a loopback name on any port. */
export function hostAllowed(host: string, publicHost: string): boolean {
  const h = host.trim().toLowerCase();
  if (!h) return false;
  if (h === publicHost) return true;
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0];
  return LOOPBACK.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name);
}

export function originAllowed(origin: string, publicHost: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && hostAllowed(u.host, publicHost);
  } catch {
    return false;
  }
}

export function presentedKey(ctx: Koa.Context): string {
  const direct = ctx.get('x-api-key');
  if (direct) return direct;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return m ? m[1] : '';
}

export function mcpEndpoint(o: McpEndpointOptions): Koa.Middleware {
  const catalog = buildCatalog(o.routes);
  const keys = new KeyCache(o.services.store);
  const body = jsonBody(o.services.config.server.bodyLimitBytes);
  const publicHost = new URL(o.services.config.server.publicUrl).host.toLowerCase();

  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) {
      await next();
      return;
    }
    const origin = ctx.get('origin');
    if (!hostAllowed(ctx.host, publicHost) || (origin && !originAllowed(origin, publicHost))) {
      throw new HttpError(
        403,
        'forbidden',
        `The ${origin && !originAllowed(origin, publicHost) ? 'Origin' : 'Host'} of this request does not name this server (its publicUrl or a loopback address)`,
      );
    }
    if (ctx.method !== 'POST') {
      // Stateless: no stream to resume (GET) and no session to end (DELETE).
      ctx.set('Allow', 'POST');
      throw new HttpError(
        405,
        'method_not_allowed',
        `${ctx.method} is not allowed on ${MCP_PATH}; it takes POST (stateless Streamable HTTP)`,
      );
    }
    // 1. Who: a valid credential is served whatever others sent from this address; a failed one
    //    spends the address's budget of failures (the daemon's one limiter, as on REST).
    const presented = presentedKey(ctx);
    const checked = verifyCredential(presented, o.grants, keys);
    if ('refused' in checked) {
      const l = o.services.limits.failure(ctx.ip);
      if (l) return rpcLimited(ctx, l);
      throw new Unauthorized(checked.refused, challenge(o.grants, checked.error));
    }
    const { key, family, grantId } = checked;
    // 2. Every MCP message counts in the key's (or the grant's own) budget; its tool call's REST
    //    request carries the inner-call proof and is not counted again.
    const t = o.services.limits.credential({ kind: 'key', keyId: key.id, grantId });
    ctx.set(limitHeaders(t));
    if (t.limited) return rpcLimited(ctx, t.limited);

    await body(ctx, async () => {
      const message = (ctx.request as Koa.Request & { body?: unknown }).body;
      const server = buildMcpServer({
        catalog,
        key,
        family,
        now: o.services.now,
        version: o.version,
        target: {
          baseUrl: o.baseUrl(),
          familySlug: family.slug,
          apiKey: presented,
          requestId: ctx.response.get('x-request-id') || undefined,
          headers: { [INNER_CALL_HEADER]: o.services.limits.inner.proof(presented) },
        },
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      ctx.res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      ctx.respond = false;
      // No body at all is passed as null: the transport answers it with a JSON-RPC parse error.
      await transport.handleRequest(ctx.req, ctx.res, message ?? null);
    });
  };
}

type Checked =
  { key: ApiKeyRecord; family: FamilyInfo; grantId?: string } | { refused: string; error?: string };

/** The presented credential: an OAuth access token or an API key of a family. */
function verifyCredential(
  presented: string,
  grants: McpGrants | undefined,
  keys: KeyCache,
): Checked {
  if (!presented)
    return {
      refused:
        'Credentials are required: an OAuth access token, or an API key in x-api-key or Authorization: Bearer <key>',
    };
  if (grants?.isAccessToken(presented)) {
    const g = grants.verifyAccess(presented);
    return g
      ? { key: g.key, family: g.family, grantId: g.grant.id }
      : {
          refused: 'The access token is not valid (unknown, expired or revoked)',
          error: 'invalid_token',
        };
  }
  const k = keys.verify(presented);
  return k?.family
    ? { key: k.key, family: k.family }
    : {
        refused: 'The API key is not valid (unknown, malformed or revoked)',
        error: 'invalid_token',
      };
}

/** RFC 9728 §5.1: a 401 names the protected resource metadata, so a client finds the server. */
function challenge(
  grants: McpGrants | undefined,
  error?: string,
): Record<string, string> | undefined {
  return grants
    ? {
        'WWW-Authenticate': `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${grants.resourceMetadata}"`,
      }
    : undefined;
}

/**
 * Over a budget, in the MCP transport's own form: HTTP 429 with Retry-After (what MCP clients
 * act on: the SDK's transport surfaces the status, proxies and retry layers read the header),
 * and a JSON-RPC error as the body, as the SDK's transport itself answers requests it refuses
 * before reading them (no id: the message is not read).
 */
function rpcLimited(ctx: Koa.Context, l: Limited): void {
  ctx.status = 429;
  ctx.set('Retry-After', String(l.retryAfter));
  ctx.body = {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32000,
      message: l.message,
      data: { code: 'rate_limited', retryAfter: l.retryAfter },
    },
  };
}

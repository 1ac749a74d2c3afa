/**
 * `POST /mcp`: the Model Context Protocol over stateless Streamable HTTP, beside the REST API.
 *
 * Order: the Host (and Origin, when sent) must name this daemon — its publicUrl, a loopback
 * name, this machine's name or one of its addresses (src/addresses.ts) — so a web page on a
 * rebound DNS name cannot drive it (403); only POST is served (405);
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
import type { Addresses } from '../addresses.js';

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
  /** The grant of a token, when it was made for `resource` (this request's `/mcp` address). */
  verifyAccess(
    token: string,
    resource: string,
  ): { key: ApiKeyRecord; family: FamilyInfo; grant: { id: string } } | null;
  /** The resource (`${origin}/mcp`) and the RFC 9728 document's address as `ctx` sees them. */
  urlsFor(ctx: Koa.Context): { resource: string; resourceMetadata: string };
  isAccessToken(token: string): boolean;
}

/**
 * The DNS-rebinding guard: the Host and the Origin, when sent, must name this daemon. A host
 * a trusted proxy (or a cluster node) passed on counts as this daemon's: the proxy routed that
 * name here. Answers which of the two does not name it, or null.
 */
export function foreignHeader(ctx: Koa.Context, addresses: Addresses): 'Host' | 'Origin' | null {
  const local = ctx.req.socket.localAddress;
  const origin = addresses.origin(ctx);
  const routed = addresses.trustsPeer(ctx) || typeof ctx.state.forwardedBy === 'string';
  if (!origin || !(routed || addresses.ownHost(origin.host, local))) return 'Host';
  const sent = ctx.get('origin');
  if (!sent) return null;
  try {
    const u = new URL(sent);
    if (
      (u.protocol === 'http:' || u.protocol === 'https:') &&
      (u.host === origin.host || addresses.ownHost(u.host, local))
    )
      return null;
  } catch {
    /* not a URL: refused below */
  }
  return 'Origin';
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
  const addresses = o.services.addresses;

  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) {
      await next();
      return;
    }
    const foreign = foreignHeader(ctx, addresses);
    if (foreign) {
      throw new HttpError(
        403,
        'forbidden',
        `The ${foreign} of this request does not name this server (its publicUrl, a loopback address, this machine's name or one of its addresses)`,
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
    const urls = o.grants?.urlsFor(ctx);
    const checked = verifyCredential(presented, o.grants, keys, urls?.resource);
    if ('refused' in checked) {
      const l = o.services.limits.failure(ctx.ip);
      if (l) return rpcLimited(ctx, l);
      throw new Unauthorized(checked.refused, challenge(urls, checked.error));
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
          // The tool's REST answer builds its links (a plan's shareUrl) on this request's origin.
          headers: {
            ...addresses.vouch(addresses.forRequest(ctx)),
            [INNER_CALL_HEADER]: o.services.limits.inner.proof(presented),
          },
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
  resource: string | undefined,
): Checked {
  if (!presented)
    return {
      refused:
        'Credentials are required: an OAuth access token, or an API key in x-api-key or Authorization: Bearer <key>',
    };
  if (grants && resource !== undefined && grants.isAccessToken(presented)) {
    const g = grants.verifyAccess(presented, resource);
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

/**
 * RFC 9728 §5.1: a 401 names the protected resource metadata — at the address this request
 * came to — so a client finds the server.
 */
function challenge(
  urls: { resourceMetadata: string } | undefined,
  error?: string,
): Record<string, string> | undefined {
  return urls
    ? {
        'WWW-Authenticate': `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${urls.resourceMetadata}"`,
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

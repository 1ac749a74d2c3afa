/**
 * `POST /mcp`: the Model Context Protocol over stateless Streamable HTTP, beside the REST API.
 *
 * Order: the Host (and Origin, when sent) must name this daemon — its publicUrl, a loopback
 * name, this machine's name or one of its addresses (src/addresses.ts) — so a web page on a
 * rebound DNS name cannot drive it (403); only POST is served (405);
 * then the credentials: an OAuth access token (Authorization: Bearer hoa_…, src/oauth) or the
 * family key (x-api-key or Authorization: Bearer) as REST checks it — none or a bad one is a
 * 401 before any MCP message is read, naming the protected resource metadata in
 * `WWW-Authenticate` (RFC 9728 §5.1) so an OAuth client can find the authorization server;
 * then the body is read with the REST body's caps, and a fresh server and transport answer it
 * in JSON. A grant's tool calls are forwarded with its token and a proof (dispatch.ts).
 */
import { RateLimiter, unauthorizedRateLimit } from '../http/middleware/rateLimit.js';
import { HttpError, Unauthorized } from '../http/errors.js';
import type Koa from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { KeyCache } from '../http/middleware/auth.js';
import { jsonBody } from '../http/middleware/body.js';
import { FORWARD_PROOF_HEADER, type RouteDef, type Services } from '../http/route.js';
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
  forwardProof(token: string): string;
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
  const guesses = new RateLimiter(o.services.config.rateLimit.publicPerMinute, () =>
    o.services.now().getTime(),
  );

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
    // Missing and wrong keys count per client address, as on the REST routes, so a key cannot be
    // guessed at line rate through this door either.
    const presented = presentedKey(ctx);
    const grants = o.grants;
    const urls = grants?.urlsFor(ctx);
    const challenge = (error?: string) =>
      urls
        ? {
            'WWW-Authenticate': `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${urls.resourceMetadata}"`,
          }
        : undefined;
    let checked: { key: ApiKeyRecord; family: FamilyInfo; grantId?: string } | null = null;
    const checkKey: Koa.Middleware = async (_ctx, n) => {
      if (!presented)
        throw new Unauthorized(
          'Credentials are required: an OAuth access token, or an API key in x-api-key or Authorization: Bearer <key>',
          challenge(),
        );
      if (grants && urls && grants.isAccessToken(presented)) {
        const g = grants.verifyAccess(presented, urls.resource);
        if (!g)
          throw new Unauthorized(
            'The access token is not valid (unknown, expired or revoked)',
            challenge('invalid_token'),
          );
        checked = { key: g.key, family: g.family, grantId: g.grant.id };
      } else {
        const k = keys.verify(presented);
        if (!k || !k.family)
          throw new Unauthorized(
            'The API key is not valid (unknown, malformed or revoked)',
            challenge('invalid_token'),
          );
        checked = { key: k.key, family: k.family };
      }
      await n();
    };
    await unauthorizedRateLimit(guesses, checkKey)(ctx, () => Promise.resolve());
    const { key, family, grantId } = checked!;

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
            ...(grantId && grants
              ? { [FORWARD_PROOF_HEADER]: grants.forwardProof(presented) }
              : {}),
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

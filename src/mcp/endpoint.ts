/**
 * `POST /mcp`: the Model Context Protocol over stateless Streamable HTTP, beside the REST API.
 *
 * Order: the Host (and Origin, when sent) must name this daemon — its publicUrl or a loopback
 * name — so a web page on a rebound DNS name cannot drive it (403); only POST is served (405);
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
  forwardProof(token: string): string;
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
  const guesses = new RateLimiter(o.services.config.rateLimit.publicPerMinute, () =>
    o.services.now().getTime(),
  );

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
    // Missing and wrong keys count per client address, as on the REST routes, so a key cannot be
    // guessed at line rate through this door either.
    const presented = presentedKey(ctx);
    const grants = o.grants;
    const challenge = (error?: string) =>
      grants
        ? {
            'WWW-Authenticate': `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${grants.resourceMetadata}"`,
          }
        : undefined;
    let checked: { key: ApiKeyRecord; family: FamilyInfo; grantId?: string } | null = null;
    const checkKey: Koa.Middleware = async (_ctx, n) => {
      if (!presented)
        throw new Unauthorized(
          'Credentials are required: an OAuth access token, or an API key in x-api-key or Authorization: Bearer <key>',
          challenge(),
        );
      if (grants?.isAccessToken(presented)) {
        const g = grants.verifyAccess(presented);
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
          ...(grantId && grants
            ? { headers: { [FORWARD_PROOF_HEADER]: grants.forwardProof(presented) } }
            : {}),
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

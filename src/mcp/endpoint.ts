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
 * in JSON. A tool call is sent to REST as an inner call: the client's key or token with this
 * process's proof (the door core's credentials), so REST takes a grant's token for it.
 *
 * As a door: `/mcp` is its path; a request names its family by its credential (key or access
 * token); errors are JSON-RPC error objects (no id: the message was not read) under the error
 * table's status and headers, as the SDK's own transport answers requests it refuses.
 */
import type Koa from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Door } from '../door/door.js';
import { DoorError, Unauthorized, type ErrorAnswer } from '../door/errors.js';
import { jsonBody } from '../door/body.js';
import { bearerToken, INNER_CALL_HEADER, type Caller } from '../door/credentials.js';
import type { AnyRoute, CoreServices } from '../door/route.js';
import type { DoorContext, DoorMiddleware } from '../door/state.js';
import { countCaller, limitedError } from '../door/limits.js';
import { buildCatalog } from './catalog.js';
import { buildMcpServer } from './server.js';
import type { Addresses } from '../addresses.js';

export const MCP_PATH = '/mcp';

/** What /mcp needs of the OAuth door (src/oauth), when there is one. */
export interface McpGrants {
  /**
   * The resource (`${origin}/mcp`: an access token is good only at the one its grant was made
   * for, RFC 8707) and the RFC 9728 document's address (named on every 401), as `ctx` sees them.
   */
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

/** The credential /mcp takes: `x-api-key`, or `Authorization: Bearer` (a key or an access token). */
export function presentedKey(ctx: Koa.Context): string {
  return ctx.get('x-api-key') || bearerToken(ctx.get('authorization')) || '';
}

export function mcpDoor(grants?: McpGrants): Door<CoreServices> {
  return {
    name: 'mcp',
    prefixes: [MCP_PATH],
    familyOf(ctx, find) {
      const presented = presentedKey(ctx);
      return presented ? find.byCredential({ kind: 'bearer', token: presented }) : null;
    },
    routeLabel: (path) => (path === MCP_PATH ? MCP_PATH : null),
    render: renderRpc,
    handler: (m) => mcpHandler(m.services, m.routes, m.baseUrl, m.version, grants),
  };
}

/** The JSON-RPC error codes of the door's refusals (the server's range, JSON-RPC 2.0 §5.1). */
function rpcCode(answer: ErrorAnswer): number {
  if (answer.kind === 'invalid') return -32600; // Invalid Request
  if (answer.kind === 'internal') return -32603; // Internal error
  return -32000;
}

/** Writes an answer of the table as a JSON-RPC error object, under the table's status. */
export function renderRpc(answer: ErrorAnswer, ctx: Koa.Context): void {
  const retryAfter = answer.headers['Retry-After'];
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.body = {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: rpcCode(answer),
      message: answer.message,
      data: {
        code: answer.code,
        ...(answer.issues ? { issues: answer.issues } : {}),
        ...(answer.issueCount !== undefined ? { issueCount: answer.issueCount } : {}),
        ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}),
      },
    },
  };
}

function mcpHandler(
  services: CoreServices,
  routes: readonly AnyRoute[],
  baseUrl: () => string,
  version: string,
  grants: McpGrants | undefined,
): DoorMiddleware {
  const catalog = buildCatalog(routes);
  const body = jsonBody(services.config.server.bodyLimitBytes);

  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) return void (await next());
    const foreign = foreignHeader(ctx, services.addresses);
    if (foreign) {
      throw new DoorError(
        'forbidden',
        `The ${foreign} of this request does not name this server (its publicUrl, a loopback address, this machine's name or one of its addresses)`,
      );
    }
    if (ctx.method !== 'POST') {
      // Stateless: no stream to resume (GET) and no session to end (DELETE).
      throw new DoorError(
        'method_not_allowed',
        `${ctx.method} is not allowed on ${MCP_PATH}; it takes POST (stateless Streamable HTTP)`,
        { headers: { Allow: 'POST' } },
      );
    }
    const presented = presentedKey(ctx);
    const caller = login(ctx, services, presented, grants);
    await body(ctx, async () => {
      const message = (ctx.request as Koa.Request & { body?: unknown }).body;
      await answerRpc(ctx, { catalog, caller, services, version, baseUrl, presented }, message);
    });
  };
}

/**
 * Who is asking: an OAuth access token or a family's API key. A valid one is served whatever
 * others sent from this address, and its message counts in its budget (the key's, or the
 * grant's own; the tool call's REST request is not counted again); a missing or wrong one
 * spends the address's budget of failures (the daemon's one limiter), past which it is a 429.
 */
function login(
  ctx: DoorContext,
  services: CoreServices,
  presented: string,
  grants: McpGrants | undefined,
): Caller {
  // The addresses as this request sees them: a token is good at the resource it was granted
  // for alone, and a 401 names the metadata at the address the client used (RFC 9728 §5.1).
  const urls = grants?.urlsFor(ctx);
  const challenge = (error?: string) =>
    urls
      ? {
          'WWW-Authenticate': `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${urls.resourceMetadata}"`,
        }
      : undefined;
  const caller = presented
    ? services.credentials.resolve({
        kind: 'bearer',
        token: presented,
        ...(urls ? { resource: urls.resource } : {}),
      })
    : null;
  if (!caller) {
    const l = services.limits.failure(ctx.ip);
    if (l) throw limitedError(l);
    throw new Unauthorized(
      !presented
        ? 'Credentials are required: an OAuth access token, or an API key in x-api-key or Authorization: Bearer <key>'
        : grants?.isAccessToken(presented)
          ? 'The access token is not valid (unknown, expired or revoked)'
          : 'The API key is not valid (unknown, malformed or revoked)',
      challenge(presented ? 'invalid_token' : undefined),
    );
  }
  ctx.state.caller = caller;
  ctx.state.family = caller.family;
  countCaller(ctx, services.limits, caller);
  return caller;
}

interface RpcParts {
  catalog: ReturnType<typeof buildCatalog>;
  caller: Caller;
  services: CoreServices;
  version: string;
  baseUrl: () => string;
  presented: string;
}

/**
 * A fresh server and transport answer the message in JSON. A tool call that REST answered as a
 * store or cluster failure (507, 503) is answered with that status and its Retry-After, its
 * JSON-RPC result carrying REST's error body: the one table holds for tool calls too.
 */
async function answerRpc(ctx: DoorContext, p: RpcParts, message: unknown): Promise<void> {
  const failed: { status: number; retryAfter: string | null }[] = [];
  const server = buildMcpServer({
    catalog: p.catalog,
    key: p.caller.key,
    family: p.caller.family,
    now: p.services.now,
    version: p.version,
    target: {
      baseUrl: p.baseUrl(),
      familySlug: p.caller.family.slug,
      apiKey: p.presented,
      requestId: ctx.response.get('x-request-id') || undefined,
      // The tool's REST answer builds its links (a plan's shareUrl) on this request's origin.
      headers: {
        ...p.services.addresses.vouch(p.services.addresses.forRequest(ctx)),
        [INNER_CALL_HEADER]: p.services.credentials.inner.proof(p.presented),
      },
    },
    onUnavailable: (status, retryAfter) => failed.push({ status, retryAfter }),
  });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  ctx.res.on('close', () => {
    void transport.close();
    void server.close();
  });
  const res = ctx.res;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
  // The transport writes the answer once, when every handler is done: its status is the
  // failure's, if a tool call met one.
  res.writeHead = (status: number, ...rest: unknown[]) => {
    const failure = failed[0];
    if (!failure || status !== 200) return writeHead(status, ...rest);
    if (failure.retryAfter) res.setHeader('Retry-After', failure.retryAfter);
    return writeHead(failure.status, ...rest);
  };
  await server.connect(transport);
  ctx.respond = false;
  // No body at all is passed as null: the transport answers it with a JSON-RPC parse error.
  await transport.handleRequest(ctx.req, ctx.res, message ?? null);
}

/**
 * The OAuth door (docs/oauth.md): beside /mcp, it answers the metadata documents,
 * registration, the consent page, the token and the revocation endpoints. Answers and errors
 * are OAuth's own (`{error, error_description}`, RFC 6749 §5.2), not the REST API's error
 * shape: OAuth clients read those; the consent page's are HTML. Each request:
 *
 * 1. metadata (GET, CORS `*`: public documents browsers' MCP clients fetch too);
 * 2. register (JSON, bounded per address: registration.ts);
 * 3. authorize GET → the consent page; POST → the admin's answer, redirected to the client;
 * 4. token and revoke (form posts, the client authenticated by its registered method).
 *
 * Reading bodies, authenticating clients and the door's form of errors are in requests.ts. A
 * request names no family before it is served (a form's code or token is looked up first), so
 * `familyOf` says nothing: on a cluster node, what reaches a family another node holds is passed
 * there once that is found out (OwnedElsewhere).
 */
import type Koa from 'koa';
import type { Addresses } from '../addresses.js';
import type { Door } from '../door/door.js';
import { DoorError } from '../door/errors.js';
import { addressBucket, countAddress } from '../door/limits.js';
import type { CoreServices } from '../door/route.js';
import type { DoorMiddleware } from '../door/state.js';
import type { OAuthCredentials } from '../store/ports.js';
import type { OAuthAuthority } from './authority.js';
import { OAuthFailure, type OAuthClient } from './records.js';
import {
  oauthUrls,
  resourceMetadata,
  serverMetadata,
  OAUTH_PATHS,
  type OAuthUrls,
} from './metadata.js';
import { RegistrationLimiter, registerClient } from './registration.js';
import { authorize } from './consentFlow.js';
import { parseScopes } from './credentials.js';
import { authenticateClient, readBody, renderOAuth } from './requests.js';

const WELL_KNOWN = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
];
const ENDPOINTS = new Set<string>(Object.values(OAUTH_PATHS));

/**
 * The issuer, resource and documents' addresses as a request to `ctx` sees them: those of the
 * origin it came to (publicUrl when set). RFC 8414 §3.3 wants the issuer identical to the
 * address its metadata was fetched from, so a daemon reached as http://192.168.1.20:8080 and
 * as http://household.lan:8080 is an issuer at each. A code, and the grant made from it, is
 * bound to the resource of the origin it was approved at (RFC 8707), and its tokens are
 * accepted by /mcp at that origin alone.
 */
export function oauthUrlsFor(
  addresses: Pick<Addresses, 'forRequest'>,
  mcpPath: string,
): (ctx: Koa.Context) => OAuthUrls {
  return (ctx) => oauthUrls(addresses.forRequest(ctx), mcpPath);
}

/** The metrics label of an OAuth path: an endpoint, or the document's well-known prefix. */
export function oauthRouteLabel(path: string): string | null {
  if (ENDPOINTS.has(path)) return path;
  for (const prefix of WELL_KNOWN)
    if (path === prefix || path.startsWith(`${prefix}/`)) return prefix;
  return null;
}

/** A metadata document: cacheable, and different per address it is asked at (Host, or a trusted proxy's). */
function answerDocument(ctx: Koa.Context, body: Record<string, unknown>): void {
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.set('Vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
  ctx.body = body;
}

/**
 * `store` is the OAuth door's own (its clients): the door holds credentials, as the key check
 * does, and is handed the store for them alone.
 */
export function oauthDoor(
  authority: OAuthAuthority,
  mcpPath: string,
  store: Pick<OAuthCredentials, 'listOAuth' | 'transactOAuth'>,
): Door<CoreServices> {
  return {
    name: 'oauth',
    prefixes: ['/oauth/', ...WELL_KNOWN],
    familyOf: () => null,
    routeLabel: oauthRouteLabel,
    render: renderOAuth,
    handler: ({ services }) => oauthHandler(services, authority, mcpPath, store),
  };
}

function oauthHandler(
  services: CoreServices,
  authority: OAuthAuthority,
  mcpPath: string,
  store: Pick<OAuthCredentials, 'listOAuth' | 'transactOAuth'>,
): DoorMiddleware {
  const registrations = new RegistrationLimiter(() => services.now().getTime());
  const urlsFor = oauthUrlsFor(services.addresses, mcpPath);
  // Where the documents are answered depends only on publicUrl's path prefix, if any.
  const paths = oauthUrls(services.addresses.publicBase ?? 'http://localhost', mcpPath);
  const documents = new Map<string, (u: OAuthUrls) => Record<string, unknown>>();
  for (const p of paths.resourceMetadataPaths) documents.set(p, resourceMetadata);
  for (const p of paths.serverMetadataPaths) documents.set(p, serverMetadata);

  return async (ctx, next) => {
    const doc = documents.get(ctx.path);
    if (!doc && !ENDPOINTS.has(ctx.path)) return void (await next());
    // Nothing here carries a credential of the daemon's own: every request counts per client
    // address, as the public pages do; past the limit, 429 on the page or in OAuth's JSON.
    countAddress(ctx, services.limits);
    if (preflight(ctx, Boolean(doc))) return;
    const allowed = doc
      ? ['GET', 'HEAD']
      : ctx.path === OAUTH_PATHS.authorize
        ? ['GET', 'POST']
        : ['POST'];
    if (!allowed.includes(ctx.method)) {
      throw new DoorError(
        'method_not_allowed',
        `${ctx.method} is not allowed here; it takes ${allowed.join(', ')}`,
        { headers: { Allow: allowed.join(', ') } },
      );
    }
    if (doc) return answerDocument(ctx, doc(urlsFor(ctx)));
    ctx.set('Cache-Control', 'no-store');
    switch (ctx.path) {
      case OAUTH_PATHS.register: {
        const body = await readBody(ctx, 'json');
        const answer = await registerClient(
          { store, authority, limiter: registrations, now: services.now },
          body,
          addressBucket(ctx.ip),
        );
        ctx.status = answer.status;
        ctx.body =
          'error' in answer
            ? { error: answer.error, error_description: answer.error_description }
            : answer.body;
        return;
      }
      case OAUTH_PATHS.authorize:
        return authorize(ctx, { services, authority, urls: urlsFor(ctx) });
      case OAUTH_PATHS.token:
      case OAUTH_PATHS.revoke:
        return tokenOrRevoke(ctx, authority);
    }
  };
}

/**
 * Browser-based MCP clients fetch the documents and endpoints cross-origin; nothing here rides
 * on cookies (the consent page, a person's own browser, is not offered). True when answered.
 */
function preflight(ctx: Koa.Context, document: boolean): boolean {
  if (ctx.path === OAUTH_PATHS.authorize) return false;
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.method !== 'OPTIONS') return false;
  ctx.set('Access-Control-Allow-Methods', document ? 'GET' : 'POST');
  ctx.set('Access-Control-Allow-Headers', 'authorization, content-type, mcp-protocol-version');
  ctx.status = 204;
  return true;
}

/** Step 4: a form post from an authenticated client. */
async function tokenOrRevoke(ctx: Koa.Context, authority: OAuthAuthority): Promise<void> {
  const form = await readBody(ctx, 'form');
  const client = authenticateClient(ctx, form, authority);
  if (ctx.path === OAUTH_PATHS.revoke) {
    if (!form.token) throw new OAuthFailure('invalid_request', 'token is required');
    await authority.revokeToken(client, form.token);
    ctx.status = 200;
    ctx.body = {};
    return;
  }
  ctx.set('Pragma', 'no-cache');
  ctx.body = await token(authority, client, form);
}

async function token(authority: OAuthAuthority, client: OAuthClient, form: Record<string, string>) {
  const resource = form.resource;
  switch (form.grant_type) {
    case 'authorization_code':
      for (const f of ['code', 'code_verifier', 'redirect_uri'])
        if (!form[f]) throw new OAuthFailure('invalid_request', `${f} is required`);
      return authority.exchangeCode(client, {
        code: form.code,
        verifier: form.code_verifier,
        redirectUri: form.redirect_uri,
        resource,
      });
    case 'refresh_token': {
      if (!form.refresh_token)
        throw new OAuthFailure('invalid_request', 'refresh_token is required');
      let scopes;
      if (form.scope) {
        const parsed = parseScopes(form.scope);
        if ('unknown' in parsed)
          throw new OAuthFailure('invalid_scope', `unknown scope ${parsed.unknown}`);
        scopes = parsed.scopes;
      }
      return authority.refresh(client, { refreshToken: form.refresh_token, scopes, resource });
    }
    case undefined:
      throw new OAuthFailure('invalid_request', 'grant_type is required');
    default:
      throw new OAuthFailure(
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token',
      );
  }
}

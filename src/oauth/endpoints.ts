/**
 * The OAuth door (docs/oauth.md): a Koa middleware beside /mcp that answers the metadata
 * documents, registration, the consent page, the token and the revocation endpoints.
 * Answers and errors are OAuth's own (`{error, error_description}`, RFC 6749 §5.2), not the
 * REST API's error shape: OAuth clients read those. Each request:
 *
 * 1. metadata (GET, CORS `*`: public documents browsers' MCP clients fetch too);
 * 2. register (JSON, bounded per address: registration.ts);
 * 3. authorize GET → the consent page; POST → the admin's answer, redirected to the client;
 * 4. token and revoke (form posts, the client authenticated by its registered method).
 *
 * Reading bodies, authenticating clients and the error answers are in requests.ts.
 */
import type Koa from 'koa';
import { KeyCache } from '../http/middleware/auth.js';
import { addressBucket, limitHeaders } from '../http/middleware/rateLimit.js';
import { hasScope } from '../family/scopes.js';
import type { Services } from '../http/route.js';
import type { Store } from '../store/store.js';
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
import { consentHeaders, renderConsent, type AuthorizeRequest } from './consent.js';
import { parseScopes, withImplied } from './credentials.js';
import {
  authenticateClient,
  checkAuthorizeRequest,
  oauthError,
  problem,
  queryParams,
  readBody,
} from './requests.js';

export interface OAuthDoor {
  middleware: Koa.Middleware;
  /** The issuer, resource and documents' addresses as a request to `ctx` sees them. */
  urlsFor(ctx: Koa.Context): OAuthUrls;
}

/**
 * `store` is the OAuth door's own (clients, and the admin key check of the consent page): the
 * door holds credentials, as the key check does, and is handed the store for them alone.
 *
 * The issuer and the resource are those of the origin a request came to (publicUrl when set):
 * RFC 8414 §3.3 wants the issuer identical to the address its metadata was fetched from, so a
 * daemon reached as http://192.168.1.20:8080 and as http://household.lan:8080 is an issuer at
 * each. A code, and the grant made from it, is bound to the resource of the origin it was
 * approved at (RFC 8707), and its tokens are accepted by /mcp at that origin alone.
 */
/** A metadata document: cacheable, and different per address it is asked at (Host, or a trusted proxy's). */
function answerDocument(ctx: Koa.Context, body: Record<string, unknown>): void {
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.set('Vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
  ctx.body = body;
}

export function oauthDoor(
  services: Services,
  store: Store,
  authority: OAuthAuthority,
  mcpPath: string,
): OAuthDoor {
  const keys = new KeyCache(store);
  const clock = () => services.now().getTime();
  const registrations = new RegistrationLimiter(clock);
  const urlsFor = (ctx: Koa.Context) => oauthUrls(services.addresses.forRequest(ctx), mcpPath);
  // Where the documents are answered depends only on publicUrl's path prefix, if any.
  const paths = oauthUrls(services.addresses.publicBase ?? 'http://localhost', mcpPath);
  const documents = new Map<string, (u: OAuthUrls) => Record<string, unknown>>();
  for (const p of paths.resourceMetadataPaths) documents.set(p, resourceMetadata);
  for (const p of paths.serverMetadataPaths) documents.set(p, serverMetadata);
  const endpoints = new Set<string>(Object.values(OAUTH_PATHS));

  const middleware: Koa.Middleware = async (ctx, next) => {
    const doc = documents.get(ctx.path);
    if (!doc && !endpoints.has(ctx.path)) {
      await next();
      return;
    }
    const browserFacing = ctx.path === OAUTH_PATHS.authorize;
    if (overAddressLimit(ctx, browserFacing)) return;
    if (!browserFacing) {
      // Browser-based MCP clients fetch these cross-origin; nothing here rides on cookies.
      ctx.set('Access-Control-Allow-Origin', '*');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', doc ? 'GET' : 'POST');
        ctx.set(
          'Access-Control-Allow-Headers',
          'authorization, content-type, mcp-protocol-version',
        );
        ctx.status = 204;
        return;
      }
    }
    const allowed = doc ? ['GET', 'HEAD'] : browserFacing ? ['GET', 'POST'] : ['POST'];
    if (!allowed.includes(ctx.method)) {
      ctx.set('Allow', allowed.join(', '));
      return oauthError(
        ctx,
        405,
        'invalid_request',
        `${ctx.method} is not allowed here; it takes ${allowed.join(', ')}`,
      );
    }
    if (doc) return answerDocument(ctx, doc(urlsFor(ctx)));
    ctx.set('Cache-Control', 'no-store');
    switch (ctx.path) {
      case OAUTH_PATHS.register: {
        const body = await readBody(ctx, 'json');
        if (body === null) return;
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
        return authorize(ctx);
      case OAUTH_PATHS.token:
      case OAUTH_PATHS.revoke: {
        const form = await readBody(ctx, 'form');
        if (form === null) return;
        try {
          const client = authenticateClient(ctx, form, authority);
          if (ctx.path === OAUTH_PATHS.revoke) {
            if (!form.token) throw new OAuthFailure('invalid_request', 'token is required');
            await authority.revokeToken(client, form.token);
            ctx.status = 200;
            ctx.body = {};
            return;
          }
          ctx.set('Pragma', 'no-cache');
          ctx.body = await token(client, form);
        } catch (err) {
          if (!(err instanceof OAuthFailure)) throw err;
          if (err.status === 401 && ctx.get('authorization'))
            ctx.set('WWW-Authenticate', 'Basic realm="household-organizer"');
          oauthError(ctx, err.status, err.error, err.message);
        }
        return;
      }
    }
  };

  /**
   * Nothing here carries a credential of the daemon's own: every request counts per client
   * address, as the public pages do; past the limit, 429 on the page or in OAuth's JSON.
   */
  function overAddressLimit(ctx: Koa.Context, browserFacing: boolean): boolean {
    const t = services.limits.address(ctx.ip);
    ctx.set(limitHeaders(t));
    if (!t.limited) return false;
    ctx.set('Retry-After', String(t.limited.retryAfter));
    if (browserFacing) problem(ctx, t.limited.message, 429);
    else oauthError(ctx, 429, 'rate_limited', t.limited.message);
    return true;
  }

  async function token(client: OAuthClient, form: Record<string, string>) {
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

  /**
   * Step 3: the page, or the admin's answer. Errors the client cannot be trusted with stay on
   * the page: an unknown client or redirect, and — RFC 9700 §4.11.2 — any error in the request
   * of a client no admin has granted yet (anyone can register an https redirect, and sending
   * errors there unasked would make this page an open redirector). A client that holds a
   * working grant gets RFC 6749 §4.1.2.1's error redirect.
   */
  async function authorize(ctx: Koa.Context): Promise<void> {
    let params: Record<string, string>;
    if (ctx.method === 'GET') {
      const read = queryParams(ctx.querystring);
      if ('twice' in read) return problem(ctx, `The parameter ${read.twice} is given twice`);
      params = read.params;
    } else {
      const form = await readBody(ctx, 'form');
      if (form === null) return;
      params = form;
    }
    const urls = urlsFor(ctx);
    const client = params.client_id ? authority.getClient(params.client_id) : undefined;
    if (!client)
      return problem(
        ctx,
        'The assistant is not registered here (unknown or expired client_id); register it again from the assistant',
      );
    const redirect = params.redirect_uri ?? '';
    if (!client.redirectUris.includes(redirect))
      return problem(ctx, 'redirect_uri is not one the assistant registered');
    const back = (query: Record<string, string>) => {
      const u = new URL(redirect);
      for (const [k, v] of Object.entries({
        ...query,
        ...(params.state !== undefined ? { state: params.state } : {}),
        iss: urls.issuer,
      }))
        u.searchParams.set(k, v);
      ctx.status = 303;
      ctx.set(consentHeaders(redirect));
      ctx.redirect(u.href);
      ctx.status = 303;
    };
    const refuse = (error: string, description: string) =>
      authority.hasWorkingGrant(client.id)
        ? back({ error, error_description: description })
        : problem(ctx, `The assistant's request cannot be used (${error}): ${description}`);
    const checked = checkAuthorizeRequest(params, urls.resource);
    if ('error' in checked) return refuse(checked.error, checked.description);
    const request: AuthorizeRequest = {
      response_type: 'code',
      client_id: client.id,
      redirect_uri: redirect,
      code_challenge: params.code_challenge,
      code_challenge_method: 'S256',
      state: params.state,
      scope: params.scope,
      resource: params.resource,
    };
    const offered = withImplied(checked.scopes);
    const page = (status: number, error?: string, chosen?: 'read' | 'write') => {
      ctx.status = status;
      ctx.set(consentHeaders(redirect));
      ctx.type = 'text/html';
      ctx.body = renderConsent({
        request,
        clientName: client.name,
        offered,
        chosen: chosen ?? (offered.includes('household:write') ? 'write' : 'read'),
        error,
      });
    };
    if (ctx.method === 'GET') return page(200);

    // The admin chose, on this page that names where the answer goes: it is sent back.
    if (params.decision === 'deny')
      return back({
        error: 'access_denied',
        error_description: 'The household admin denied the request',
      });
    const chosen =
      params.grant_scope === 'write' && offered.includes('household:write') ? 'write' : 'read';
    // A valid key is served whatever others sent from this address; a wrong one spends the
    // address's budget of failures (shared with every door), past which the page says to wait.
    const verified = params.api_key ? keys.verify(params.api_key.trim()) : null;
    if (!verified?.family) {
      const l = services.limits.failure(ctx.ip, 'Too many wrong keys from this address');
      if (l) {
        ctx.set('Retry-After', String(l.retryAfter));
        return page(429, l.message, chosen);
      }
      return page(401, 'That API key is not valid (unknown, mistyped or revoked).', chosen);
    }
    if (!hasScope(verified.key, 'admin'))
      return page(
        403,
        'That key is not an admin key; approving needs a key with the admin scope.',
        chosen,
      );
    const code = await authority.issueCode({
      clientId: client.id,
      redirectUri: redirect,
      codeChallenge: params.code_challenge,
      resource: urls.resource,
      scopes: chosen === 'write' ? ['household:read', 'household:write'] : ['household:read'],
      familyId: verified.family.id,
      keyId: verified.key.id,
      personId: verified.key.personId,
    });
    back({ code });
  }

  return { middleware, urlsFor };
}

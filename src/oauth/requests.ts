/**
 * Reading an OAuth request (docs/oauth.md): its body (a form or JSON, bounded), the client it
 * authenticates as, and the error answers of the door — OAuth's JSON ones and the consent
 * page's HTML problem page.
 */
import type Koa from 'koa';
import type { OAuthAuthority } from './authority.js';
import { OAuthFailure, type OAuthClient } from './records.js';
import { consentHeaders, renderProblem } from './consent.js';
import { clientSecretHash, parseScopes, sameHash, validChallenge } from './credentials.js';
import type { OAuthScope } from '../domain/oauth/grants.js';

const BODY_LIMIT = 16 * 1024;

export function oauthError(
  ctx: Koa.Context,
  status: number,
  error: string,
  description: string,
): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error, error_description: description };
}

export function problem(ctx: Koa.Context, message: string, status = 400): void {
  ctx.status = status;
  ctx.set(consentHeaders(null));
  ctx.type = 'text/html';
  ctx.body = renderProblem(message);
}

/**
 * The client of a token or revocation request: HTTP Basic (RFC 6749 §2.3.1, form-encoded id
 * and secret) or client_id (+ client_secret) in the form. A confidential client must prove its
 * secret (either way); a public one sends only its id.
 */
export function authenticateClient(
  ctx: Koa.Context,
  form: Record<string, string>,
  authority: OAuthAuthority,
): OAuthClient {
  let id = form.client_id;
  let secret = form.client_secret;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(ctx.get('authorization'));
  if (basic) {
    const text = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon < 0)
      throw new OAuthFailure('invalid_client', 'The Basic credentials are malformed', 401);
    try {
      id = decodeURIComponent(text.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(text.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw new OAuthFailure('invalid_client', 'The Basic credentials are malformed', 401);
    }
    if (form.client_id !== undefined && form.client_id !== id)
      throw new OAuthFailure('invalid_request', 'client_id differs from the Basic credentials');
  }
  if (!id)
    throw new OAuthFailure(
      'invalid_client',
      'client_id is required (or HTTP Basic client credentials)',
      401,
    );
  const client = authority.getClient(id);
  if (!client)
    throw new OAuthFailure(
      'invalid_client',
      'The client is unknown (or its registration expired unused)',
      401,
    );
  if (client.authMethod === 'none') {
    if (secret)
      throw new OAuthFailure(
        'invalid_client',
        'This client was registered as public: it has no secret',
        401,
      );
    return client;
  }
  const hash = secret ? clientSecretHash(secret) : null;
  if (!hash || !sameHash(client.secretHash, hash))
    throw new OAuthFailure('invalid_client', 'The client secret is missing or wrong', 401);
  return client;
}

/**
 * The body of a POST: a form (`application/x-www-form-urlencoded`, each parameter at most
 * once) or JSON, at most BODY_LIMIT bytes. Answers null after writing the error itself.
 */
export async function readBody(
  ctx: Koa.Context,
  kind: 'form' | 'json',
): Promise<Record<string, string> | null> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  const wanted = kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  if (type !== wanted) {
    oauthError(
      ctx,
      415,
      kind === 'form' ? 'invalid_request' : 'invalid_client_metadata',
      `The body must be ${wanted}`,
    );
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) {
      oauthError(ctx, 413, 'invalid_request', `The body is larger than ${BODY_LIMIT} bytes`);
      return null;
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (kind === 'json') {
    try {
      return JSON.parse(text) as Record<string, string>;
    } catch {
      oauthError(ctx, 400, 'invalid_client_metadata', 'The body is not valid JSON');
      return null;
    }
  }
  const read = queryParams(text);
  if ('twice' in read) {
    oauthError(ctx, 400, 'invalid_request', `The parameter ${read.twice} is given twice`);
    return null;
  }
  return read.params;
}

/**
 * Form or query parameters, each at most once (RFC 6749 §3.1), into an object without a
 * prototype: a parameter named `__proto__` or `constructor` is a parameter like any other —
 * neither taken for one already given nor able to reach Object.prototype.
 */
export function queryParams(text: string): { params: Record<string, string> } | { twice: string } {
  const params = Object.create(null) as Record<string, string>;
  for (const [k, v] of new URLSearchParams(text)) {
    if (Object.hasOwn(params, k)) return { twice: k };
    params[k] = v;
  }
  return { params };
}

/**
 * The authorization request's own checks (after its client and redirect are known): the OAuth
 * error to answer, or the scopes it asks for.
 */
export function checkAuthorizeRequest(
  params: Record<string, string>,
  resource: string,
): { error: string; description: string } | { scopes: OAuthScope[] } {
  const fail = (error: string, description: string) => ({ error, description });
  if (params.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be code');
  if (!params.code_challenge || !validChallenge(params.code_challenge))
    return fail('invalid_request', 'code_challenge is required (PKCE, 43 base64url characters)');
  if (params.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256');
  const scopes = parseScopes(params.scope);
  if ('unknown' in scopes)
    return fail(
      'invalid_scope',
      `unknown scope ${scopes.unknown}; this server offers household:read and household:write`,
    );
  if (params.resource !== undefined && params.resource !== resource)
    return fail('invalid_target', `resource must be ${resource}`);
  return { scopes: scopes.scopes };
}

/**
 * Reading an OAuth request (docs/oauth.md): its body (a form or JSON, through the door core's
 * bounded reader), the client it authenticates as, and the door's form of the error table's
 * answers — OAuth's JSON ones (RFC 6749 §5.2) and the consent page's HTML problem page.
 */
import type Koa from 'koa';
import { readText } from '../door/body.js';
import { basicCredentials } from '../door/credentials.js';
import { DoorError, type ErrorAnswer } from '../door/errors.js';
import type { OAuthAuthority } from './authority.js';
import { OAuthFailure, type OAuthClient } from './records.js';
import { browserVoice, consentHeaders, renderProblem } from './consent.js';
import { clientSecretHash, parseScopes, sameHash, validChallenge } from './credentials.js';
import type { OAuthScope } from '../domain/oauth/grants.js';
import { OAUTH_PATHS } from './metadata.js';

const BODY_LIMIT = 16 * 1024;

/** OAuth's error code for an answer of the table that is not one of OAuth's own failures. */
function oauthCode(answer: ErrorAnswer, path: string): string {
  if (answer.kind === 'rate_limited') return 'rate_limited';
  if (answer.status >= 500)
    return answer.status === 500 ? 'server_error' : 'temporarily_unavailable';
  const metadata = answer.kind === 'invalid' || answer.kind === 'unsupported_media_type';
  return metadata && path === OAUTH_PATHS.register ? 'invalid_client_metadata' : 'invalid_request';
}

/**
 * Writes an answer of the table as the OAuth door does: on the consent page (a person's
 * browser) an HTML page, else OAuth's JSON `{error, error_description}`, never cached.
 */
export function renderOAuth(answer: ErrorAnswer, ctx: Koa.Context): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  if (ctx.path === OAUTH_PATHS.authorize) {
    ctx.set(consentHeaders(null));
    ctx.type = 'text/html';
    ctx.body = renderProblem(answer.message, browserVoice(ctx));
    return;
  }
  ctx.set('Cache-Control', 'no-store');
  const cause = answer.cause;
  if (cause instanceof OAuthFailure && answer.kind === 'unauthorized' && ctx.get('authorization'))
    ctx.set('WWW-Authenticate', 'Basic realm="household-organizer"');
  ctx.body = {
    error: cause instanceof OAuthFailure ? cause.error : oauthCode(answer, ctx.path),
    error_description: answer.message,
  };
}

/** A problem the consent page shows its person (400): the client cannot be trusted with it. */
export function problem(message: string): DoorError {
  return new DoorError('invalid', message);
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
  const basic = basicCredentials(ctx.get('authorization'));
  if (basic) {
    if (!basic.user)
      throw new OAuthFailure('invalid_client', 'The Basic credentials are malformed', 401);
    try {
      // RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic encodes them.
      id = decodeURIComponent(basic.user.replace(/\+/g, ' '));
      secret = decodeURIComponent(basic.password.replace(/\+/g, ' '));
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
 * once) or JSON, at most BODY_LIMIT bytes, read by the door core's body reader.
 */
export async function readBody(
  ctx: Koa.Context,
  kind: 'form' | 'json',
): Promise<Record<string, string>> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  const wanted = kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  if (type !== wanted) throw new DoorError('unsupported_media_type', `The body must be ${wanted}`);
  const text = await readText(ctx, { limitBytes: BODY_LIMIT, compressed: false });
  if (kind === 'json') {
    try {
      return JSON.parse(text) as Record<string, string>;
    } catch {
      throw new DoorError('invalid', 'The body is not valid JSON');
    }
  }
  const read = queryParams(text);
  if ('twice' in read)
    throw new OAuthFailure('invalid_request', `The parameter ${read.twice} is given twice`);
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

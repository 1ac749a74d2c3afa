/**
 * Step 3 of the OAuth door (docs/oauth.md): the consent page (GET /oauth/authorize) and the
 * admin's answer to it (POST). Errors the client cannot be trusted with — an unknown client, a
 * redirect URI it did not register — stay on the page (an HTML problem page); the others go
 * back to the client's redirect URI as RFC 6749 §4.1.2.1 says (only to a client an admin has
 * granted before). The admin proves themselves with an admin key, resolved by the door core's
 * credentials; wrong keys spend the address's budget of failures in the daemon's one limiter.
 */
import type Koa from 'koa';
import type { CoreServices } from '../door/route.js';
import { hasScope } from '../family/scopes.js';
import type { OAuthAuthority } from './authority.js';
import type { OAuthClient } from './records.js';
import type { OAuthUrls } from './metadata.js';
import { browserVoice, consentHeaders, renderConsent, type AuthorizeRequest } from './consent.js';
import { voiceOf, type Voice } from '../domain/i18n/voice.js';
import { familyLocale } from '../domain/shared/state.js';
import { withImplied } from './credentials.js';
import { checkAuthorizeRequest, problem, queryParams, readBody } from './requests.js';
import type { OAuthScope } from '../domain/oauth/grants.js';

export interface ConsentParts {
  services: CoreServices;
  authority: OAuthAuthority;
  /** The issuer and resource as this request sees them (the origin it came to). */
  urls: OAuthUrls;
}

/** The authorization request's parameters: the query of a GET, the form of a POST. */
async function paramsOf(ctx: Koa.Context): Promise<Record<string, string>> {
  if (ctx.method !== 'GET') return readBody(ctx, 'form');
  const read = queryParams(ctx.querystring);
  if ('twice' in read) throw problem(`The parameter ${read.twice} is given twice`);
  return read.params;
}

/** A request the client may be told about: what it asked for, checked. */
interface Checked {
  client: OAuthClient;
  redirect: string;
  params: Record<string, string>;
  request: AuthorizeRequest;
  offered: OAuthScope[];
}

/** Sends the browser back to the client with `query` (and the state and issuer). */
function back(
  ctx: Koa.Context,
  urls: OAuthUrls,
  c: Pick<Checked, 'redirect' | 'params'>,
  query: Record<string, string>,
): void {
  const u = new URL(c.redirect);
  for (const [k, v] of Object.entries({
    ...query,
    ...(c.params.state !== undefined ? { state: c.params.state } : {}),
    iss: urls.issuer,
  }))
    u.searchParams.set(k, v);
  ctx.status = 303;
  ctx.set(consentHeaders(c.redirect));
  ctx.redirect(u.href);
  ctx.status = 303;
}

/**
 * The client and its redirect URI (problems stay on the page), then what it asks for: null
 * when refused. Errors the client cannot be trusted with stay on the page: an unknown client or
 * redirect, and — RFC 9700 §4.11.2 — any error in the request of a client no admin has granted
 * yet (anyone can register an https redirect, and sending errors there unasked would make this
 * page an open redirector). A client that holds a working grant gets RFC 6749 §4.1.2.1's error
 * redirect.
 */
function check(ctx: Koa.Context, p: ConsentParts, params: Record<string, string>): Checked | null {
  const client = params.client_id ? p.authority.getClient(params.client_id) : undefined;
  if (!client)
    throw problem(
      'The assistant is not registered here (unknown or expired client_id); register it again from the assistant',
    );
  const redirect = params.redirect_uri ?? '';
  if (!client.redirectUris.includes(redirect))
    throw problem('redirect_uri is not one the assistant registered');
  const checked = checkAuthorizeRequest(params, p.urls.resource);
  if ('error' in checked) {
    const { error, description } = checked;
    if (!p.authority.hasWorkingGrant(client.id))
      throw problem(`The assistant's request cannot be used (${error}): ${description}`);
    back(ctx, p.urls, { redirect, params }, { error, error_description: description });
    return null;
  }
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
  return { client, redirect, params, request, offered: withImplied(checked.scopes) };
}

/** The consent page, with an error on it when the admin's answer was refused. */
function page(
  ctx: Koa.Context,
  c: Checked,
  status: number,
  error?: string,
  chosen?: 'read' | 'write',
  voice: Voice = browserVoice(ctx),
): void {
  ctx.status = status;
  ctx.set(consentHeaders(c.redirect));
  ctx.type = 'text/html';
  ctx.body = renderConsent({
    request: c.request,
    clientName: c.client.name,
    offered: c.offered,
    chosen: chosen ?? (c.offered.includes('household:write') ? 'write' : 'read'),
    error,
    voice,
  });
}

export async function authorize(ctx: Koa.Context, p: ConsentParts): Promise<void> {
  const c = check(ctx, p, await paramsOf(ctx));
  if (!c) return;
  if (ctx.method === 'GET') return page(ctx, c, 200);
  // The admin chose, on this page that names where the answer goes: it is sent back.
  if (c.params.decision === 'deny')
    return back(ctx, p.urls, c, {
      error: 'access_denied',
      error_description: 'The household admin denied the request',
    });
  await decide(ctx, p, c);
}

/** The admin's approval: an admin key of the family, then a code back to the client. */
async function decide(ctx: Koa.Context, p: ConsentParts, c: Checked): Promise<void> {
  const chosen =
    c.params.grant_scope === 'write' && c.offered.includes('household:write') ? 'write' : 'read';
  // A valid key is served whatever others sent from this address; a wrong one spends the
  // address's budget of failures (shared with every door), past which the page says to wait.
  const apiKey = c.params.api_key?.trim();
  const caller = apiKey ? p.services.credentials.resolve({ kind: 'apiKey', text: apiKey }) : null;
  const browser = browserVoice(ctx);
  if (!caller) {
    const l = p.services.limits.failure(ctx.ip, browser.say('pages', 'consentTooMany'));
    if (l) {
      ctx.set('Retry-After', String(l.retryAfter));
      return page(ctx, c, 429, l.message, chosen);
    }
    return page(ctx, c, 401, browser.say('pages', 'consentBadKey'), chosen);
  }
  // The key names the family: its page speaks the family's language from here on.
  const family = voiceOf(familyLocale(caller.family), caller.family.timezone);
  if (!hasScope(caller.key, 'admin'))
    return page(ctx, c, 403, family.say('pages', 'consentNotAdmin'), chosen, family);
  const code = await p.authority.issueCode({
    clientId: c.client.id,
    redirectUri: c.redirect,
    codeChallenge: c.params.code_challenge,
    resource: p.urls.resource,
    scopes: chosen === 'write' ? ['household:read', 'household:write'] : ['household:read'],
    familyId: caller.family.id,
    keyId: caller.key.id,
    personId: caller.key.personId,
  });
  back(ctx, p.urls, c, { code });
}

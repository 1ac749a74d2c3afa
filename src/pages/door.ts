/**
 * The household pages' door (docs/pages.md): server-rendered HTML at `/`, `/signin`, the
 * sections of a signed-in admin and the devices' pairing pages. It answers its own paths and
 * passes every other request on. Each answer carries the strict CSP of the consent page (no
 * outside assets; an inline script only by its hash), is never cached nor framed, and every
 * refusal is a page.
 *
 * A request is read in this order: the session cookie (a signed-in section without one sends
 * the browser to /signin), its budget (the session's own when signed in, else the address's),
 * the form of a POST, its CSRF token (refused before any handler runs), then the handler, which
 * acts through REST with the session as an inner call of this process (rest.ts).
 */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { DoorMiddleware } from '../door/state.js';
import { DomainError } from '../domain/shared/errors.js';
import { bestLocale } from '../domain/i18n/negotiate.js';
import { voiceOf, type Voice } from '../domain/i18n/voice.js';
import { familyLocale, type FamilyInfo } from '../domain/shared/state.js';
import { PageError, pageError } from './errors.js';
import {
  checkCsrf,
  cookie,
  FORM_COOKIE,
  readForm,
  SESSION_COOKIE,
  sessionCsrf,
  setCookie,
} from './forms.js';
import type { PageAnswer, PageRequest, PageRoute, PagesDeps, Session } from './context.js';
import { e, errorBox, page } from './html.js';
import type { KeyOf } from '../domain/i18n/messages.js';
import { SESSION_DAYS } from '../family/access.js';

export function pagesHandler(deps: PagesDeps, routes: readonly PageRoute[]): DoorMiddleware {
  return async (ctx, next): Promise<void> => {
    const matched = match(routes, ctx);
    if (!matched) {
      await next();
      return;
    }
    const { route, params } = matched;
    const origin = deps.services.addresses.forRequest(ctx);
    const r: PageRequest = {
      koa: ctx,
      deps,
      params,
      form: Object.create(null) as PageRequest['form'],
      session: null,
      now: deps.services.now(),
      origin,
      secure: origin.startsWith('https:'),
      voice: browserVoice(ctx),
    };
    try {
      r.session = await sessionOf(r);
      if (r.session) r.voice = familyVoice(r.session.family);
      // A signed-in request counts in its session's budget, never in the address's anonymous one.
      const limited = (
        r.session
          ? deps.services.limits.credential({ kind: 'key', keyId: r.session.key.id })
          : deps.services.limits.address(ctx.ip)
      ).limited;
      if (limited) throw new PageError(429, limited.message, limited.retryAfter);
      if (route.signedIn && !r.session) return writeAnswer(ctx, { redirect: '/signin' });
      if (route.method === 'POST') {
        r.form = await readForm(ctx);
        checkCsrf(r.form, route.signedIn ? r.session?.csrf : cookie(ctx, FORM_COOKIE));
      }
      writeAnswer(ctx, await route.handle(r));
    } catch (err) {
      writeAnswer(ctx, problem(r, err));
    }
  };
}

function match(
  routes: readonly PageRoute[],
  ctx: Koa.Context,
): { route: PageRoute; params: string[] } | null {
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  let pathMatched = false;
  for (const route of routes) {
    const m = route.path.exec(ctx.path);
    if (!m) continue;
    pathMatched = true;
    if (route.method === method) return { route, params: m.slice(1) };
  }
  if (pathMatched) {
    // One of the pages' paths, asked with another method.
    const allow = routes.filter((rt) => rt.path.test(ctx.path)).map((rt) => rt.method);
    return {
      route: {
        method: method as 'GET',
        path: /^/,
        signedIn: false,
        handle: () => {
          ctx.set('Allow', [...new Set(allow)].join(', '));
          throw pageError(405, 'errorMethod', { method: ctx.method });
        },
      },
      params: [],
    };
  }
  return null;
}

/** The voice of a page before anyone is known: the browser's language among the shipped ones. */
export function browserVoice(ctx: Koa.Context): Voice {
  return voiceOf(bestLocale(ctx.get('accept-language')), 'UTC');
}

/** The family's own voice: its locale on its zone. */
export function familyVoice(family: FamilyInfo): Voice {
  return voiceOf(familyLocale(family), family.timezone);
}

/** The live session of the request's cookie (its end slides; the cookie follows it). */
async function sessionOf(r: PageRequest): Promise<Session | null> {
  const value = cookie(r.koa, SESSION_COOKIE);
  if (!value) return null;
  // The core's credential check (live, its source live), then its end on the daemon's clock.
  const caller = r.deps.services.credentials.resolve({ kind: 'session', text: value });
  const key = caller ? await r.deps.access.session(value, r.now) : null;
  const family = key ? r.deps.access.family(key.familyId) : undefined;
  if (!key || !family) {
    // Expired or revoked: the browser forgets it.
    setCookie(r.koa, SESSION_COOKIE, '', 0, r.secure);
    return null;
  }
  setCookie(r.koa, SESSION_COOKIE, value, SESSION_DAYS * 86_400, r.secure);
  return { key, cookie: value, family, csrf: sessionCsrf(value) };
}

/** A domain refusal (an unknown or another family's id: 404) as the page's own. */
const DOMAIN_STATUS: Record<string, number> = {
  invalid: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
};

function problem(r: PageRequest, err: unknown): PageAnswer {
  if (err instanceof DomainError && DOMAIN_STATUS[err.kind])
    err = new PageError(DOMAIN_STATUS[err.kind], err.message);
  if (!(err instanceof PageError)) {
    r.deps.services.logger.error({ err }, 'a household page failed');
    err = pageError(500, 'errorInternal');
  }
  const { status, message, retryAfter, said } = err as PageError;
  if (retryAfter !== undefined) r.koa.set('Retry-After', String(retryAfter));
  const v = r.voice;
  const back = r.session
    ? `<p><a href="/">${e(v.say('pages', 'backHome'))}</a></p>`
    : `<p><a href="/signin">${e(v.say('pages', 'signInLink'))}</a></p>`;
  const text = said ? v.say('pages', said.key, said.values) : message;
  return {
    status,
    html: page({ title: v.say('pages', titleOf(status)), voice: v }, `${errorBox(text)}\n${back}`),
  };
}

export function titleOf(status: number): KeyOf<'pages'> {
  if (status === 403) return 'titleNotAllowed';
  if (status === 404) return 'titleNotFound';
  if (status === 429) return 'titleTooMany';
  if (status >= 500) return 'titleBroken';
  return 'titleFailed';
}

/** Writes a page's answer with the headers every page carries. */
export function writeAnswer(ctx: Koa.Context, a: PageAnswer): void {
  ctx.set({
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex, nofollow',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  });
  if ('redirect' in a) {
    ctx.status = 303;
    ctx.set('Location', a.redirect);
    ctx.body = '';
    return;
  }
  if ('html' in a) {
    ctx.status = a.status ?? 200;
    ctx.set('content-security-policy', csp(a.html));
    // The page's language (its `<html lang>`), for what reads the headers.
    const lang = /^<!doctype html>\s*<html lang="([^"]+)"/i.exec(a.html)?.[1];
    if (lang) ctx.set('content-language', lang);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = a.html;
    return;
  }
  ctx.status = 200;
  if (a.headers) ctx.set(a.headers);
  ctx.type = a.type;
  ctx.body = a.body;
}

/** The consent page's policy, with the hash of the page's one inline script, if it has one. */
function csp(html: string): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  const scriptSrc =
    script === undefined
      ? ''
      : `script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'; `;
  return `default-src 'none'; ${scriptSrc}style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

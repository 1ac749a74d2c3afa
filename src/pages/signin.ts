/**
 * Getting in: the first-run setup of a family never set up (guarded by the setup code printed
 * at start), sign-in with an API key or a one-time link of `household-organizer open`, and
 * sign-out. Each way in ends in a session: a record of its own (`hs_…`, no API key), sent back
 * as the `ho_session` cookie. Every one-time way in (the setup code, a sign-in link) is spent
 * in the same write that makes the session (src/family/access.ts). A wrong code or key spends the address's budget of failures (then 429).
 */
import { normalizeTimeZone } from '../domain/shared/time.js';
import { SESSION_DAYS } from '../family/access.js';
import type { NewKey } from '../family/keys.js';
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { PageError } from './errors.js';
import { anonymousToken, field, SESSION_COOKIE, setCookie } from './forms.js';
import { canonicalLocale, DEFAULT_LOCALE } from '../domain/i18n/locale.js';
import type { KeyOf, Values } from '../domain/i18n/messages.js';
import { closestLocale, localeSelect, ZONE_SCRIPT, zoneSelect } from './choices.js';
import { csrfField, e, errorBox, page, rich, sayer } from './html.js';
import { rest } from './rest.js';

function startSession(r: PageRequest, made: NewKey): PageAnswer {
  setCookie(r.koa, SESSION_COOKIE, made.apiKey, SESSION_DAYS * 86_400, r.secure);
  return { redirect: '/' };
}

function failed(r: PageRequest, sentence: string): void {
  const limited = r.deps.services.limits.failure(r.koa.ip, sentence);
  if (limited) throw new PageError(429, limited.message, limited.retryAfter);
}

// ---- first-run setup ------------------------------------------------------------------------

interface SetupValues {
  name: string;
  timezone: string;
  locale: string;
  people: string;
}

function setupPage(r: PageRequest, v: SetupValues | null, error?: string): PageAnswer {
  const token = anonymousToken(r.koa, r.secure);
  const say = sayer(r.voice);
  const html = page(
    { title: r.voice.say('pages', 'setupTitle'), voice: r.voice, script: ZONE_SCRIPT },
    `<p>${say('setupWelcome')}</p>
${errorBox(error)}<form method="post" action="/setup">${csrfField(token)}
<label for="code">${say('fieldCode')}</label>
<input id="code" name="code" autocomplete="off" autocapitalize="characters" required aria-describedby="code-help">
<p class="muted" id="code-help">${say('codeHelp')}</p>
<label for="name">${say('fieldFamilyName')}</label>
<input id="name" name="name" required maxlength="200" value="${e(v?.name ?? '')}">
<label for="timezone">${say('fieldZone')}</label>
${zoneSelect(v?.timezone ?? null)}
<label for="locale">${say('fieldLanguage')}</label>
${localeSelect(v?.locale ?? closestLocale(r.voice.locale))}
<label for="people">${say('fieldPeople')}</label>
<textarea id="people" name="people" rows="5">${e(v?.people ?? '')}</textarea>
<button type="submit">${say('setupSubmit')}</button>
</form>`,
  );
  return { html, status: error ? 400 : 200 };
}

async function setup(r: PageRequest): Promise<PageAnswer> {
  const { access } = r.deps;
  const pending = access.pendingFamily();
  if (!pending) return { redirect: '/signin' };
  const v = {
    name: field(r.form, 'name'),
    timezone: field(r.form, 'timezone'),
    locale: field(r.form, 'locale'),
    people: r.form.people?.[0] ?? '',
  };
  const say = (key: KeyOf<'pages'>, values?: Values) => r.voice.say('pages', key, values);
  if (!access.checkSetupCode(pending.id, field(r.form, 'code'))) {
    failed(r, say('setupTooMany'));
    return setupPage(r, v, say('setupWrongCode'));
  }
  // Checked before the code is spent: a typo must not cost the setup.
  const zone = normalizeTimeZone(v.timezone);
  const locale = v.locale ? canonicalLocale(v.locale) : DEFAULT_LOCALE;
  if (!v.name || v.name.length > 200) return setupPage(r, v, say('setupNoName'));
  if (!zone) return setupPage(r, v, say('setupBadZone', { zone: v.timezone }));
  if (!locale) return setupPage(r, v, say('setupBadLocale'));
  const names = v.people
    .split(/\r?\n/)
    .map((n) => n.trim())
    .filter(Boolean)
    .slice(0, 30);
  // The code is spent and the session made in one write: of concurrent setups, one wins.
  const made = await access.finishSetup(pending.id, field(r.form, 'code'), r.now);
  if (!made) {
    failed(r, say('setupTooMany'));
    return setupPage(r, v, say('setupUsed'));
  }
  const family = access.family(pending.id)!;
  r.session = { key: made.record, cookie: made.apiKey, family, csrf: '' };
  await rest(r, 'PATCH', '', { name: v.name, timezone: zone, locale });
  for (const name of names) await rest(r, 'POST', '/people', { name });
  return startSession(r, made);
}

// ---- sign-in and sign-out -------------------------------------------------------------------

function signinPage(r: PageRequest, error?: string, status = 200): PageAnswer {
  const token = anonymousToken(r.koa, r.secure);
  const link = typeof r.koa.query.link === 'string' ? r.koa.query.link : null;
  const say = sayer(r.voice);
  const body = link
    ? `<p>${say('signinByLink')}</p>
${errorBox(error)}<form method="post" action="/signin">${csrfField(token)}<input type="hidden" name="link" value="${e(link)}">
<button type="submit">${say('continue')}</button></form>`
    : `<p>${rich(r.voice, 'signinIntro', {}, { command: OPEN_COMMAND })}</p>
${errorBox(error)}<form method="post" action="/signin">${csrfField(token)}
<label for="key">${say('fieldKey')}</label>
<input type="password" id="key" name="key" autocomplete="current-password" required>
<button type="submit">${say('signinSubmit')}</button></form>`;
  return {
    html: page({ title: r.voice.say('pages', 'signinTitle'), voice: r.voice }, body),
    status,
  };
}

const OPEN_COMMAND = '<code>household-organizer open &lt;family&gt;</code>';

async function signin(r: PageRequest): Promise<PageAnswer> {
  const link = field(r.form, 'link');
  const made = link
    ? await r.deps.access.redeemLink(link, r.now)
    : await r.deps.access.signInWithKey(field(r.form, 'key'), r.now);
  if (made) return startSession(r, made);
  failed(r, r.voice.say('pages', 'signinTooMany'));
  return signinPage(
    r,
    link
      ? r.voice.say('pages', 'signinLinkUsed', { command: 'household-organizer open' })
      : r.voice.say('pages', 'signinBadKey'),
    401,
  );
}

async function signout(r: PageRequest): Promise<PageAnswer> {
  const s = r.session!;
  await r.deps.access.revoke(s.family.id, s.key.id, r.now);
  setCookie(r.koa, SESSION_COOKIE, '', 0, r.secure);
  return { redirect: '/signin' };
}

export const signinRoutes: PageRoute[] = [
  {
    method: 'GET',
    path: /^\/signin$/,
    signedIn: false,
    handle: (r) => Promise.resolve(r.session ? { redirect: '/' } : signinPage(r)),
  },
  { method: 'POST', path: /^\/signin$/, signedIn: false, handle: signin },
  { method: 'POST', path: /^\/signout$/, signedIn: true, handle: signout },
  { method: 'POST', path: /^\/setup$/, signedIn: false, handle: setup },
];

/** `/` before sign-in: the setup while a family awaits it, else the sign-in page. */
export function anonymousHome(r: PageRequest): PageAnswer {
  return r.deps.access.pendingFamily() ? setupPage(r, null) : { redirect: '/signin' };
}

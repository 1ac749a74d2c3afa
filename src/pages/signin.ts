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
import { csrfField, e, errorBox, page } from './html.js';
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

/** Picks the browser's own zone in the list when it is there; the page works without it. */
const ZONE_SCRIPT = `(function(){try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone,s=document.getElementById('timezone');if(z&&s&&!s.dataset.chosen){for(var i=0;i<s.options.length;i++){if(s.options[i].value===z){s.value=z;break}}}}catch(e){}})();`;

export function zoneSelect(chosen: string | null): string {
  // The list leaves out UTC (an alias), which a family may well have.
  const zones = ['UTC', ...Intl.supportedValuesOf('timeZone')];
  if (chosen && !zones.includes(chosen)) zones.unshift(chosen);
  return `<select id="timezone" name="timezone"${chosen ? ' data-chosen="1"' : ''}>${zones
    .map((z) => `<option${z === (chosen ?? 'UTC') ? ' selected' : ''}>${e(z)}</option>`)
    .join('')}</select>`;
}

interface SetupValues {
  name: string;
  timezone: string;
  people: string;
}

function setupPage(r: PageRequest, v: SetupValues | null, error?: string): PageAnswer {
  const token = anonymousToken(r.koa, r.secure);
  const html = page(
    { title: 'Set up your household', script: ZONE_SCRIPT },
    `<p>Welcome. This sets up the family on this server and signs you in as its admin.</p>
${errorBox(error)}<form method="post" action="/setup">${csrfField(token)}
<label for="code">Setup code</label>
<input id="code" name="code" autocomplete="off" autocapitalize="characters" required aria-describedby="code-help">
<p class="muted" id="code-help">Printed when the server started, in its terminal and log (“setup code”).</p>
<label for="name">Family name</label>
<input id="name" name="name" required maxlength="200" value="${e(v?.name ?? '')}">
<label for="timezone">Time zone</label>
${zoneSelect(v?.timezone ?? null)}
<label for="people">The people in it, one name per line</label>
<textarea id="people" name="people" rows="5">${e(v?.people ?? '')}</textarea>
<button type="submit">Set up and sign in</button>
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
    people: r.form.people?.[0] ?? '',
  };
  if (!access.checkSetupCode(pending.id, field(r.form, 'code'))) {
    failed(r, 'Too many wrong setup codes from this address');
    return setupPage(
      r,
      v,
      'That is not the setup code. Look for “setup code” where the server started.',
    );
  }
  // Checked before the code is spent: a typo must not cost the setup.
  const zone = normalizeTimeZone(v.timezone);
  if (!v.name || v.name.length > 200) return setupPage(r, v, 'Give the family a name.');
  if (!zone) return setupPage(r, v, `“${v.timezone}” is not a time zone.`);
  const names = v.people
    .split(/\r?\n/)
    .map((n) => n.trim())
    .filter(Boolean)
    .slice(0, 30);
  // The code is spent and the session made in one write: of concurrent setups, one wins.
  const made = await access.finishSetup(pending.id, field(r.form, 'code'), r.now);
  if (!made) {
    failed(r, 'Too many wrong setup codes from this address');
    return setupPage(r, v, 'This setup code has just been used. Sign in instead.');
  }
  const family = access.family(pending.id)!;
  r.session = { key: made.record, cookie: made.apiKey, family, csrf: '' };
  await rest(r, 'PATCH', '', { name: v.name, timezone: zone });
  for (const name of names) await rest(r, 'POST', '/people', { name });
  return startSession(r, made);
}

// ---- sign-in and sign-out -------------------------------------------------------------------

function signinPage(r: PageRequest, error?: string, status = 200): PageAnswer {
  const token = anonymousToken(r.koa, r.secure);
  const link = typeof r.koa.query.link === 'string' ? r.koa.query.link : null;
  const body = link
    ? `<p>This one-time link signs this browser in to the household.</p>
${errorBox(error)}<form method="post" action="/signin">${csrfField(token)}<input type="hidden" name="link" value="${e(link)}">
<button type="submit">Continue</button></form>`
    : `<p>Sign in with an API key of your family, or open a one-time link made on the server with <code>household-organizer open &lt;family&gt;</code>.</p>
${errorBox(error)}<form method="post" action="/signin">${csrfField(token)}
<label for="key">API key</label>
<input type="password" id="key" name="key" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`;
  return { html: page({ title: 'Sign in' }, body), status };
}

async function signin(r: PageRequest): Promise<PageAnswer> {
  const link = field(r.form, 'link');
  const made = link
    ? await r.deps.access.redeemLink(link, r.now)
    : await r.deps.access.signInWithKey(field(r.form, 'key'), r.now);
  if (made) return startSession(r, made);
  failed(r, 'Too many failed sign-ins from this address');
  return signinPage(
    r,
    link
      ? 'This link has been used or is older than 10 minutes. Make a new one with household-organizer open.'
      : 'That key is not valid (unknown, mistyped or revoked).',
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

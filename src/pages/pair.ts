/**
 * A device's pairing page, `/pair/<token>` (docs/pages.md): opened on the phone (its QR code is
 * on the admin's page), it sets the device up per client, with the device's key already in
 * place — nothing to type. Valid for 10 minutes and one use: a GET shows only which device it
 * sets up and a Continue button (a link preview or a proxy sees no key); the first POST spends
 * the link in the write that reads the key, and shows the key with every client's values; the
 * Apple profile is held PROFILE_MINUTES for that browser (a cookie) and no one else.
 *
 * - Apple (iPhone, iPad, Mac): a configuration profile, payload `com.apple.caldav.account`.
 *   It is unsigned, so the device says "Not Verified" when installing it; it holds the key as
 *   the account's password, which is why the link is one-use and short-lived.
 * - Android: a DAVx⁵ login link (`caldavs://user:key@host/dav/` — DAVx⁵ opens these and fills
 *   its login form in; `caldav://` for a plain-http server).
 * - Thunderbird, Home Assistant and assistants (MCP): the values to paste.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import type { ApiKeyRecord } from '../store/types.js';
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import type { Voice } from '../domain/i18n/voice.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import { familyVoice } from './door.js';
import { pageError } from './errors.js';
import { anonymousToken, cookie, setCookie } from './forms.js';
import { csrfField, e, page, rich, sayer } from './html.js';
import { PAIR_COOKIE, PROFILE_MINUTES } from './profiles.js';

/** A QR code as inline SVG (the CSP allows it: it is markup, not a loaded image). */
export async function qrSvg(text: string, label: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `<div class="qr">${svg.replace('<svg ', `<svg role="img" aria-label="${e(label)}" `)}</div>`;
}

export interface DavPlaces {
  origin: string;
  slug: string;
}

function davLink(p: DavPlaces, apiKey: string): string {
  const u = new URL(p.origin);
  const scheme = u.protocol === 'https:' ? 'caldavs' : 'caldav';
  return `${scheme}://${encodeURIComponent(p.slug)}:${encodeURIComponent(apiKey)}@${u.host}${u.pathname.replace(/\/$/, '')}/dav/`;
}

const xml = (s: string) => e(s);

/** The Apple configuration profile (a property list) with one CalDAV account. */
export function mobileconfig(
  p: DavPlaces,
  device: ApiKeyRecord,
  apiKey: string,
  familyName: string,
  voice: Voice,
): string {
  const u = new URL(p.origin);
  const ssl = u.protocol === 'https:';
  const port = u.port ? Number(u.port) : ssl ? 443 : 80;
  const prefix = u.pathname.replace(/\/$/, '');
  const id = `household.${u.hostname}.${p.slug}.${device.id}`;
  const str = (k: string, v: string) => `<key>${k}</key><string>${xml(v)}</string>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
<key>PayloadContent</key>
<array>
<dict>
${str('PayloadType', 'com.apple.caldav.account')}
<key>PayloadVersion</key><integer>1</integer>
${str('PayloadIdentifier', `${id}.caldav`)}
${str('PayloadUUID', randomUUID().toUpperCase())}
${str('PayloadDisplayName', voice.say('pages', 'profileName', { family: familyName }))}
${str('CalDAVAccountDescription', familyName)}
${str('CalDAVHostName', u.hostname)}
<key>CalDAVPort</key><integer>${port}</integer>
${str('CalDAVPrincipalURL', `${prefix}/dav/${p.slug}/`)}
${str('CalDAVUsername', p.slug)}
${str('CalDAVPassword', apiKey)}
<key>CalDAVUseSSL</key><${ssl ? 'true' : 'false'}/>
</dict>
</array>
${str('PayloadType', 'Configuration')}
<key>PayloadVersion</key><integer>1</integer>
${str('PayloadIdentifier', id)}
${str('PayloadUUID', randomUUID().toUpperCase())}
${str('PayloadDisplayName', `${familyName}: ${device.name}`)}
${str('PayloadDescription', voice.say('pages', 'profileText', { family: familyName, device: device.name }))}
<key>PayloadRemovalDisallowed</key><false/>
</dict>
</plist>
`;
}

/** The pairing pages speak the family's language once the link names it. */
function speakFor(r: PageRequest, family: FamilyInfo): void {
  r.voice = familyVoice(family);
}

/** GET: which device the link sets up, and a Continue button; no key (a preview bot sees none). */
function pairPage(r: PageRequest): Promise<PageAnswer> {
  const device = r.deps.access.openPairing(r.params[0], r.now);
  const family = device ? r.deps.access.family(device.familyId) : undefined;
  if (!device || !family) throw pageError(404, 'pairGone');
  speakFor(r, family);
  const token = anonymousToken(r.koa, r.secure);
  const body = `<p>${rich(r.voice, 'pairIntro', {}, { device: `<strong><bdi>${e(device.name)}</bdi></strong>`, family: `<bdi>${e(family.name)}</bdi>` })}</p>
<form method="post" action="/pair/${e(encodeURIComponent(r.params[0]))}">${csrfField(token)}
<button type="submit">${sayer(r.voice)('continue')}</button></form>`;
  return Promise.resolve({
    html: page({ title: r.voice.say('pages', 'pairTitle'), voice: r.voice }, body),
  });
}

/**
 * POST: spends the link (in the write that reads it: of concurrent Continues, one gets the key)
 * and shows every client's values, with the Apple profile held for PROFILE_MINUTES for this
 * browser alone (a cookie only it has).
 */
async function pairContinue(r: PageRequest): Promise<PageAnswer> {
  const claimed = await r.deps.access.claimPairing(r.params[0], r.now);
  const family = claimed ? r.deps.access.family(claimed.device.familyId) : undefined;
  if (!claimed || !family) throw pageError(404, 'pairGone');
  speakFor(r, family);
  const { device, apiKey } = claimed;
  const places = { origin: r.origin, slug: family.slug };
  const browser = randomBytes(24).toString('base64url');
  setCookie(r.koa, PAIR_COOKIE, browser, PROFILE_MINUTES * 60, r.secure);
  r.deps.profiles.hold(r.params[0], browser, {
    body: mobileconfig(places, device, apiKey, family.name, r.voice),
    slug: family.slug,
  });
  return { html: await valuesPage(r, device, apiKey, places, family.name) };
}

async function valuesPage(
  r: PageRequest,
  device: ApiKeyRecord,
  apiKey: string,
  places: DavPlaces,
  familyName: string,
): Promise<string> {
  const dav = `${r.origin}/dav/${places.slug}/`;
  const profile = `/pair/${encodeURIComponent(r.params[0])}/apple.mobileconfig`;
  const davx5 = davLink(places, apiKey);
  const v = r.voice;
  const say = sayer(v);
  const values = (rows: [Parameters<typeof say>[0], string][]) =>
    `<dl>${rows.map(([k, x]) => `<dt>${say(k)}</dt><dd class="secret">${e(x)}</dd>`).join('')}</dl>`;
  const link = (href: string, key: Parameters<typeof say>[0]) =>
    `<a href="${e(href)}">${say(key)}</a>`;
  const card = (id: string, title: Parameters<typeof say>[0], inner: string) =>
    `<section class="card" aria-labelledby="${id}"><h2 id="${id}">${say(title)}</h2>\n${inner}</section>`;
  const body = `<p>${rich(v, 'pairValues', {}, { device: `<strong><bdi>${e(device.name)}</bdi></strong>`, family: `<bdi>${e(familyName)}</bdi>` })}</p>
${card('apple', 'apple', `<p>${rich(v, 'appleSteps', { minutes: PROFILE_MINUTES }, { link: link(profile, 'appleProfile') })}</p>`)}
${card('android', 'android', `<p>${rich(v, 'androidSteps', {}, { link: link(davx5, 'androidLink') })}</p>${await qrSvg(davx5, v.say('pages', 'androidQr'))}`)}
${card(
  'tb',
  'thunderbird',
  `<p>${say('thunderbirdSteps')}</p>${values([
    ['username', places.slug],
    ['location', dav],
    ['password', apiKey],
  ])}`,
)}
${card(
  'ha',
  'homeAssistant',
  `<p>${say('homeAssistantSteps')}</p>${values([
    ['url', `${r.origin}/dav/`],
    ['username', places.slug],
    ['password', apiKey],
  ])}`,
)}
${card(
  'mcp',
  'mcp',
  `${values([['serverAddress', `${r.origin}/mcp`]])}<dl><dt>${rich(v, 'header', {}, { name: '<code>x-api-key</code>' })}</dt><dd class="secret">${e(apiKey)}</dd></dl>
<p class="muted">${say('mcpNote')}</p>`,
)}`;
  return page({ title: v.say('pages', 'pairTitle'), voice: v }, body);
}

/** The profile the Continue of this browser prepared (its cookie), within its minutes. */
function profile(r: PageRequest): Promise<PageAnswer> {
  const held = r.deps.profiles.take(r.params[0], cookie(r.koa, PAIR_COOKIE));
  if (!held) throw pageError(404, 'profileGone', { minutes: PROFILE_MINUTES });
  return Promise.resolve({
    body: held.body,
    type: 'application/x-apple-aspen-config',
    headers: { 'content-disposition': `attachment; filename="${held.slug}.mobileconfig"` },
  });
}

export const pairRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/pair\/([^/]+)$/, signedIn: false, handle: pairPage },
  { method: 'POST', path: /^\/pair\/([^/]+)$/, signedIn: false, handle: pairContinue },
  {
    method: 'GET',
    path: /^\/pair\/([^/]+)\/apple\.mobileconfig$/,
    signedIn: false,
    handle: profile,
  },
];

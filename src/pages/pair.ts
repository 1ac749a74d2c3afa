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
import { PageError } from './errors.js';
import { anonymousToken, cookie, setCookie } from './forms.js';
import { csrfField, e, page } from './html.js';
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
${str('PayloadDisplayName', `${familyName} calendars and lists`)}
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
${str('PayloadDescription', `The calendars and lists of ${familyName} for ${device.name}.`)}
<key>PayloadRemovalDisallowed</key><false/>
</dict>
</plist>
`;
}

const GONE =
  'This setup link has been used, has expired (after 10 minutes) or was revoked. Ask for a new one.';

/** GET: which device the link sets up, and a Continue button; no key (a preview bot sees none). */
function pairPage(r: PageRequest): Promise<PageAnswer> {
  const device = r.deps.access.openPairing(r.params[0], r.now);
  const family = device ? r.deps.access.family(device.familyId) : undefined;
  if (!device || !family) throw new PageError(404, GONE);
  const token = anonymousToken(r.koa, r.secure);
  const body = `<p>This sets up <strong>${e(device.name)}</strong> for ${e(family.name)}. The link works once: Continue shows the device's settings, here only, this one time.</p>
<form method="post" action="/pair/${e(encodeURIComponent(r.params[0]))}">${csrfField(token)}
<button type="submit">Continue</button></form>`;
  return Promise.resolve({ html: page({ title: 'Set up this device' }, body) });
}

/**
 * POST: spends the link (in the write that reads it: of concurrent Continues, one gets the key)
 * and shows every client's values, with the Apple profile held for PROFILE_MINUTES for this
 * browser alone (a cookie only it has).
 */
async function pairContinue(r: PageRequest): Promise<PageAnswer> {
  const claimed = await r.deps.access.claimPairing(r.params[0], r.now);
  const family = claimed ? r.deps.access.family(claimed.device.familyId) : undefined;
  if (!claimed || !family) throw new PageError(404, GONE);
  const { device, apiKey } = claimed;
  const places = { origin: r.origin, slug: family.slug };
  const browser = randomBytes(24).toString('base64url');
  setCookie(r.koa, PAIR_COOKIE, browser, PROFILE_MINUTES * 60, r.secure);
  r.deps.profiles.hold(r.params[0], browser, {
    body: mobileconfig(places, device, apiKey, family.name),
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
  const values = (rows: [string, string][]) =>
    `<dl>${rows.map(([k, v]) => `<dt>${e(k)}</dt><dd class="secret">${e(v)}</dd>`).join('')}</dl>`;
  const body = `<p>Set up <strong>${e(device.name)}</strong> for ${e(familyName)}. The key below is shown here only, this once; the link is now spent.</p>
<section class="card" aria-labelledby="apple"><h2 id="apple">iPhone, iPad or Mac</h2>
<p><a href="${e(profile)}">Download the profile</a> (in this browser, for ${PROFILE_MINUTES} minutes), then open Settings → “Profile Downloaded” → Install. It is not signed, so the device calls it “Not Verified”.</p></section>
<section class="card" aria-labelledby="android"><h2 id="android">Android (DAVx⁵)</h2>
<p>With DAVx⁵ installed, <a href="${e(davx5)}">open this link</a>; DAVx⁵ fills in its login.</p>${await qrSvg(davx5, 'QR code: DAVx⁵ login link')}</section>
<section class="card" aria-labelledby="tb"><h2 id="tb">Thunderbird</h2>
<p>New Calendar → On the Network, then:</p>${values([
    ['Username', places.slug],
    ['Location', dav],
    ['Password', apiKey],
  ])}</section>
<section class="card" aria-labelledby="ha"><h2 id="ha">Home Assistant</h2>
<p>Settings → Devices &amp; services → Add integration → CalDAV:</p>${values([
    ['URL', `${r.origin}/dav/`],
    ['Username', places.slug],
    ['Password', apiKey],
  ])}</section>
<section class="card" aria-labelledby="mcp"><h2 id="mcp">Assistants (MCP)</h2>
${values([
  ['Server address', `${r.origin}/mcp`],
  ['Header x-api-key', apiKey],
])}
<p class="muted">Assistants that sign in with OAuth need only the address.</p></section>`;
  return page({ title: 'Set up this device' }, body);
}

/** The profile the Continue of this browser prepared (its cookie), within its minutes. */
function profile(r: PageRequest): Promise<PageAnswer> {
  const held = r.deps.profiles.take(r.params[0], cookie(r.koa, PAIR_COOKIE));
  if (!held)
    throw new PageError(
      404,
      `The profile is offered for ${PROFILE_MINUTES} minutes after Continue, to the browser that pressed it. Ask for a new setup link.`,
    );
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

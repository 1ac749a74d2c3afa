/**
 * Devices, signed-in browsers and API keys of the family. A device is added through
 * `POST …/devices` (the REST route) and its pairing link shown once, with a QR code to scan on
 * the device; devices are listed per person with their last use and revoked through REST.
 * Sessions and keys have no REST routes (the CLI makes and revokes keys): an admin session
 * revokes them here, as `household-organizer key revoke` would.
 */
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { pageError } from './errors.js';
import { field } from './forms.js';
import { at, strong } from './bits.js';
import { buttonForm, csrfField, doneBox, e, rich, sayer } from './html.js';
import { scopeWords } from './running.js';
import { qrSvg } from './pair.js';
import { rest } from './rest.js';
import type { DeviceView } from '../domain/family/devices.js';
import { framed } from './sections.js';

interface Person {
  id: string;
  name: string;
}

/** When a key was last used, on the family's zone and clock. */
const when = (r: PageRequest, iso: string | null) =>
  iso ? r.voice.say('pages', 'lastUsed', { when: at(r, iso) }) : r.voice.say('pages', 'neverUsed');

function keyItem(
  r: PageRequest,
  k: { name: string; scopes: readonly string[]; lastUsedAt: string | null },
  action: string,
  extra = '',
): string {
  const csrf = sessionOf(r).csrf;
  return `<li class="row"><span>${strong(k.name)} <span class="muted">${extra}${e(scopeWords(r, k.scopes))} · ${e(when(r, k.lastUsedAt))}</span></span>${buttonForm(action, csrf, r.voice.say('pages', 'revoke', { name: k.name }))}</li>`;
}

async function devicesPage(r: PageRequest): Promise<PageAnswer> {
  const { devices } = await rest<{ devices: DeviceView[] }>(r, 'GET', '/devices');
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const s = sessionOf(r);
  const say = sayer(r.voice);
  const nobody = r.voice.say('pages', 'nobodyInParticular');
  const nameOf = (id: string | null) => people.find((p) => p.id === id)?.name ?? nobody;
  const owners = [...new Set(devices.map((d) => d.personId))];
  const deviceList = devices.length
    ? owners
        .map(
          (owner) =>
            `<h3><bdi>${e(nameOf(owner))}</bdi></h3><ul class="items">${devices
              .filter((d) => d.personId === owner)
              .map((d) => keyItem(r, d, `/devices/${d.id}/revoke`))
              .join('')}</ul>`,
        )
        .join('')
    : `<p>${say('noDevices')}</p>`;
  const access = r.deps.access.listAccess(s.family.id, r.now).filter((k) => k.kind !== 'device');
  const kindOf = (k: { id: string; kind?: string }) =>
    `${say(k.id === s.key.id ? 'thisBrowser' : k.kind === 'session' ? 'aBrowser' : 'anApiKey')} · `;
  const accessList = `<ul class="items">${access
    .map((k) => keyItem(r, k, `/keys/${k.id}/revoke`, kindOf(k)))
    .join('')}</ul>`;
  const body = `<h2>${say('devicesByPerson')}</h2>${deviceList}
<h2>${say('addDevice')}</h2>
<form method="post" action="/devices">${csrfField(s.csrf)}
<label for="person">${say('whoseIsIt')}</label><select id="person" name="personId"><option value="">${e(nobody)}</option>${people
    .map((p) => `<option value="${e(p.id)}">${e(p.name)}</option>`)
    .join('')}</select>
<label for="name">${say('fieldName')}</label><input id="name" name="name" required maxlength="200" placeholder="${say('deviceExample')}">
<fieldset class="card"><legend>${say('itMay')}</legend>
<label class="check"><input type="checkbox" name="scopes" value="read" checked>${say('mayRead')}</label>
<label class="check"><input type="checkbox" name="scopes" value="write" checked>${say('mayWrite')}</label>
<label class="check"><input type="checkbox" name="scopes" value="admin">${say('mayAdmin')}</label></fieldset>
<button type="submit">${say('addDeviceSubmit')}</button></form>
<h2>${say('browsersAndKeys')}</h2>${accessList}`;
  return framed(r, r.voice.say('pages', 'devicesTitle'), '/devices', body);
}

async function addDevice(r: PageRequest): Promise<PageAnswer> {
  const made = await rest<{ device: DeviceView; pairing: { url: string; expiresAt: string } }>(
    r,
    'POST',
    '/devices',
    {
      personId: field(r.form, 'personId') || null,
      name: field(r.form, 'name'),
      scopes: r.form.scopes ?? [],
    },
  );
  // The link on the origin this browser uses (REST was asked over loopback).
  const link = r.origin + new URL(made.pairing.url).pathname;
  const say = sayer(r.voice);
  const until = r.voice.formats.instantTime(new Date(made.pairing.expiresAt));
  const body = `${doneBox(rich(r.voice, 'addedName', {}, { name: strong(made.device.name) }))}
<p id="pairing-until">${say('deviceScan', { time: until })}</p>
${await qrSvg(link, r.voice.say('pages', 'deviceQr'))}
<p><a class="secret" id="pairing-link" href="${e(link)}">${e(link)}</a></p>
<p><a href="/devices">${say('backDevices')}</a></p>`;
  return framed(r, r.voice.say('pages', 'deviceTitle'), '/devices', body);
}

async function revokeDevice(r: PageRequest): Promise<PageAnswer> {
  await rest(r, 'DELETE', `/devices/${encodeURIComponent(r.params[0])}`);
  return { redirect: '/devices' };
}

async function revokeKey(r: PageRequest): Promise<PageAnswer> {
  const s = sessionOf(r);
  if (!s.key.scopes.includes('admin') && r.params[0] !== s.key.id)
    throw pageError(403, 'onlyAdminKeys');
  await r.deps.access.revoke(s.family.id, r.params[0], r.now);
  return { redirect: r.params[0] === s.key.id ? '/signin' : '/devices' };
}

export const deviceRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/devices$/, signedIn: true, handle: devicesPage },
  { method: 'POST', path: /^\/devices$/, signedIn: true, handle: addDevice },
  { method: 'POST', path: /^\/devices\/([^/]+)\/revoke$/, signedIn: true, handle: revokeDevice },
  { method: 'POST', path: /^\/keys\/([^/]+)\/revoke$/, signedIn: true, handle: revokeKey },
];

/**
 * Devices, signed-in browsers and API keys of the family. A device is added through
 * `POST …/devices` (the REST route) and its pairing link shown once, with a QR code to scan on
 * the device; devices are listed per person with their last use and revoked through REST.
 * Sessions and keys have no REST routes (the CLI makes and revokes keys): an admin session
 * revokes them here, as `household-organizer key revoke` would.
 */
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { PageError } from './errors.js';
import { field } from './forms.js';
import { buttonForm, csrfField, e } from './html.js';
import { qrSvg } from './pair.js';
import { rest } from './rest.js';
import type { DeviceView } from '../domain/family/devices.js';
import { framed } from './sections.js';

interface Person {
  id: string;
  name: string;
}

const when = (iso: string | null) =>
  iso ? `last used ${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never used';

function keyItem(
  k: { name: string; scopes: readonly string[]; lastUsedAt: string | null },
  action: string,
  csrf: string,
  extra = '',
): string {
  return `<li class="row"><span><strong>${e(k.name)}</strong> <span class="muted">${extra}${e(k.scopes.join(', '))} · ${when(k.lastUsedAt)}</span></span>${buttonForm(action, csrf, `Revoke ${k.name}`)}</li>`;
}

async function devicesPage(r: PageRequest): Promise<PageAnswer> {
  const { devices } = await rest<{ devices: DeviceView[] }>(r, 'GET', '/devices');
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const s = sessionOf(r);
  const ownerName = (personId: string | null) =>
    people.find((p) => p.id === personId)?.name ?? 'Nobody in particular';
  const owners = [...new Set(devices.map((d) => d.personId))];
  const deviceList = devices.length
    ? owners
        .map(
          (owner) =>
            `<h3>${e(ownerName(owner))}</h3><ul class="items">${devices
              .filter((d) => d.personId === owner)
              .map((d) => keyItem(d, `/devices/${d.id}/revoke`, s.csrf))
              .join('')}</ul>`,
        )
        .join('')
    : '<p>No devices yet.</p>';
  const access = r.deps.access.listAccess(s.family.id, r.now).filter((k) => k.kind !== 'device');
  const accessList = `<ul class="items">${access
    .map((k) =>
      keyItem(
        k,
        `/keys/${k.id}/revoke`,
        s.csrf,
        k.id === s.key.id ? 'this browser · ' : k.kind === 'session' ? 'browser · ' : 'API key · ',
      ),
    )
    .join('')}</ul>`;
  const body = `<h2>Devices by person</h2>${deviceList}
<h2>Add a device</h2>
<form method="post" action="/devices">${csrfField(s.csrf)}
<label for="person">Whose is it?</label><select id="person" name="personId"><option value="">Nobody in particular</option>${people
    .map((p) => `<option value="${e(p.id)}">${e(p.name)}</option>`)
    .join('')}</select>
<label for="name">Name</label><input id="name" name="name" required maxlength="200" placeholder="Ana's phone">
<fieldset class="card"><legend>It may</legend>
<label class="check"><input type="checkbox" name="scopes" value="read" checked>read the household</label>
<label class="check"><input type="checkbox" name="scopes" value="write" checked>change it</label>
<label class="check"><input type="checkbox" name="scopes" value="admin">manage it (admin)</label></fieldset>
<button type="submit">Add and show its setup code</button></form>
<h2>Signed-in browsers and API keys</h2>${accessList}`;
  return framed(r, 'Devices', '/devices', body);
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
  const body = `<p class="done" role="status">Added <strong>${e(made.device.name)}</strong>.</p>
<p>Scan this code with the device's camera, or open the link on it. It works once, for 10 minutes (until ${e(made.pairing.expiresAt.slice(11, 16))} UTC), and is shown only now.</p>
${await qrSvg(link, 'QR code: the setup link of the new device')}
<p><a class="secret" id="pairing-link" href="${e(link)}">${e(link)}</a></p>
<p><a href="/devices">Back to the devices</a></p>`;
  return framed(r, 'Set up the new device', '/devices', body);
}

async function revokeDevice(r: PageRequest): Promise<PageAnswer> {
  await rest(r, 'DELETE', `/devices/${encodeURIComponent(r.params[0])}`);
  return { redirect: '/devices' };
}

async function revokeKey(r: PageRequest): Promise<PageAnswer> {
  const s = sessionOf(r);
  if (!s.key.scopes.includes('admin') && r.params[0] !== s.key.id)
    throw new PageError(403, 'Only an admin may revoke keys and other browsers.');
  await r.deps.access.revoke(s.family.id, r.params[0], r.now);
  return { redirect: r.params[0] === s.key.id ? '/signin' : '/devices' };
}

export const deviceRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/devices$/, signedIn: true, handle: devicesPage },
  { method: 'POST', path: /^\/devices$/, signedIn: true, handle: addDevice },
  { method: 'POST', path: /^\/devices\/([^/]+)\/revoke$/, signedIn: true, handle: revokeDevice },
  { method: 'POST', path: /^\/keys\/([^/]+)\/revoke$/, signedIn: true, handle: revokeKey },
];

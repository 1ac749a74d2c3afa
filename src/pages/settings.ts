/**
 * Notifications and backups. The notification page shows which channels this server can send
 * on (its configuration) and the family's preferences, switched one at a time through REST.
 * The backup page shows the schedule (`backup.every`, `backup.keep`, `backup.dir`) and hands an
 * admin the family's export now — the file `household-organizer export` writes (there is no
 * REST route for it, so the page checks the admin scope itself).
 */
import { PREFERENCE_CHANNELS, PREFERENCE_KINDS } from '../domain/notifications/types.js';
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { PageError } from './errors.js';
import { buttonForm, e } from './html.js';
import { rest } from './rest.js';
import { framed } from './sections.js';

type Preferences = Record<string, Record<string, boolean>>;

async function notificationsPage(r: PageRequest): Promise<PageAnswer> {
  const { preferences } = await rest<{ preferences: Preferences }>(
    r,
    'GET',
    '/notification-preferences',
  );
  const { config } = r.deps.services;
  const csrf = sessionOf(r).csrf;
  const channel = (name: string, on: boolean, how: string) =>
    `<li><strong>${e(name)}</strong>: ${on ? 'ready' : `not set up on this server (${e(how)})`}</li>`;
  const rows = PREFERENCE_CHANNELS.map(
    (c) =>
      `<h3>${c === 'email' ? 'Email' : 'Push'}</h3><ul class="items">${PREFERENCE_KINDS.map((k) => {
        const on = preferences[c]?.[k] !== false;
        return `<li class="row"><span>${e(k.replace(/_/g, ' '))}: <strong>${on ? 'on' : 'off'}</strong></span>${buttonForm(
          `/notifications/${c}/${k}/${on ? 'off' : 'on'}`,
          csrf,
          `Turn ${c} ${k.replace(/_/g, ' ')} ${on ? 'off' : 'on'}`,
        )}</li>`;
      }).join('')}</ul>`,
  ).join('');
  const body = `<h2>Channels of this server</h2><ul>
<li><strong>In the app</strong>: always</li>
${channel('Email', config.email.smtpUrl !== null, 'email.smtpUrl')}
${channel('Push (ntfy)', config.push.ntfyUrl !== null, 'push.ntfyUrl')}
${channel('Text messages', config.sms.gatewayUrl !== null, 'sms.gatewayUrl')}
</ul>
<p class="muted">Email and text messages go to each person with an address (see People).</p>
<h2>What the household is sent</h2>${rows}`;
  return framed(r, 'Notifications', '/notifications', body);
}

async function setPreference(r: PageRequest): Promise<PageAnswer> {
  const [channel, eventKind, state] = r.params;
  await rest(r, 'POST', '/notification-preferences', {
    channel,
    eventKind,
    isEnabled: state === 'on',
  });
  return { redirect: '/notifications' };
}

function requireAdmin(r: PageRequest): void {
  if (!sessionOf(r).key.scopes.includes('admin'))
    throw new PageError(403, 'Only an admin may see and download backups.');
}

function backupsPage(r: PageRequest): Promise<PageAnswer> {
  requireAdmin(r);
  const { backup } = r.deps.services.config;
  const schedule = backup.every
    ? `Every ${e(backup.every)}, keeping the last ${backup.keep}, in ${e(backup.dir ?? '<data folder>/backups')}.`
    : 'Not scheduled (set HOUSEHOLD_BACKUP_EVERY, e.g. 1d).';
  const body = `<h2>Schedule</h2><p>${schedule}</p>
<p class="muted">A scheduled backup copies the whole store; restoring it is in docs/operations.md.</p>
<h2>Download now</h2>
<p>The family's export: everything it holds, as one JSON file (what <code>household-organizer export ${e(sessionOf(r).family.slug)}</code> writes; <code>import</code> restores it).</p>
<p><a href="/backups/export.json" download>Download the export</a></p>`;
  return Promise.resolve(framed(r, 'Backups', '/backups', body));
}

function download(r: PageRequest): Promise<PageAnswer> {
  requireAdmin(r);
  const s = sessionOf(r);
  const doc = r.deps.access.exportFamily(s.family.slug, r.now);
  return Promise.resolve({
    body: JSON.stringify(doc),
    type: 'application/json',
    headers: {
      'content-disposition': `attachment; filename="${s.family.slug}-${r.now.toISOString().slice(0, 10)}.json"`,
    },
  });
}

export const settingsRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/notifications$/, signedIn: true, handle: notificationsPage },
  {
    method: 'POST',
    path: /^\/notifications\/([a-z_]+)\/([a-z_]+)\/(on|off)$/,
    signedIn: true,
    handle: setPreference,
  },
  { method: 'GET', path: /^\/backups$/, signedIn: true, handle: backupsPage },
  { method: 'GET', path: /^\/backups\/export\.json$/, signedIn: true, handle: download },
];

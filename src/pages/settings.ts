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
import type { KeyOf } from '../domain/i18n/messages.js';
import { pageError } from './errors.js';
import { buttonForm, e, rich, sayer } from './html.js';
import { rest } from './rest.js';
import { framed } from './sections.js';

type Preferences = Record<string, Record<string, boolean>>;

/** One switch: what the kind sends, in words, whether it is on, and the button that turns it. */
function preferenceRow(r: PageRequest, channel: string, kind: string, on: boolean): string {
  const say = sayer(r.voice);
  const channelName = r.voice.say('pages', channel === 'email' ? 'channelEmail' : 'channelPush');
  const kindName = r.voice.say('pages', 'kindName', { kind });
  return `<li class="row"><span><strong>${e(kindName)}</strong>: ${say(on ? 'switchOn' : 'switchOff')}<br><span class="muted">${say('kindWhat', { kind })}</span></span>${buttonForm(
    `/notifications/${channel}/${kind}/${on ? 'off' : 'on'}`,
    sessionOf(r).csrf,
    r.voice.say('pages', on ? 'turnOff' : 'turnOn', { kind: kindName, channel: channelName }),
  )}</li>`;
}

async function notificationsPage(r: PageRequest): Promise<PageAnswer> {
  const { preferences } = await rest<{ preferences: Preferences }>(
    r,
    'GET',
    '/notification-preferences',
  );
  const { config } = r.deps.services;
  const say = sayer(r.voice);
  const channel = (name: KeyOf<'pages'>, on: boolean, setting: string) =>
    `<li><strong>${say(name)}</strong>: ${on ? say('ready') : rich(r.voice, 'notSetUp', {}, { setting: `<code>${e(setting)}</code>` })}</li>`;
  const rows = PREFERENCE_CHANNELS.map(
    (c) =>
      `<h3>${say(c === 'email' ? 'byEmail' : 'byPush')}</h3><ul class="items">${PREFERENCE_KINDS.map(
        (k) => preferenceRow(r, c, k, preferences[c]?.[k] !== false),
      ).join('')}</ul>`,
  ).join('');
  const body = `<h2>${say('channelsTitle')}</h2><ul>
<li><strong>${say('inTheApp')}</strong>: ${say('always')}</li>
${channel('channelEmail', config.email.smtpUrl !== null, 'email.smtpUrl')}
${channel('channelPush', config.push.ntfyUrl !== null, 'push.ntfyUrl')}
${channel('channelSms', config.sms.gatewayUrl !== null, 'sms.gatewayUrl')}
</ul>
<p class="muted">${say('channelsNote')}</p>
<h2>${say('whatIsSent')}</h2>${rows}`;
  return framed(r, r.voice.say('pages', 'notificationsTitle'), '/notifications', body);
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
  if (!sessionOf(r).key.scopes.includes('admin')) throw pageError(403, 'onlyAdminBackups');
}

function backupsPage(r: PageRequest): Promise<PageAnswer> {
  requireAdmin(r);
  const { backup } = r.deps.services.config;
  const say = sayer(r.voice);
  const code = (text: string) => `<code>${e(text)}</code>`;
  const schedule = backup.every
    ? rich(
        r.voice,
        'scheduled',
        { every: backup.every, keep: backup.keep },
        { dir: code(backup.dir ?? r.voice.say('pages', 'dataFolder')) },
      )
    : rich(r.voice, 'notScheduled', {}, { setting: code('HOUSEHOLD_BACKUP_EVERY') });
  const body = `<h2>${say('schedule')}</h2><p>${schedule}</p>
<p class="muted">${rich(r.voice, 'backupNote', {}, { doc: code('docs/operations.md') })}</p>
<h2>${say('downloadNow')}</h2>
<p>${rich(r.voice, 'exportText', {}, { command: code(`household-organizer export ${sessionOf(r).family.slug}`), import: code('import') })}</p>
<p><a href="/backups/export.json" download>${say('download')}</a></p>`;
  return Promise.resolve(framed(r, r.voice.say('pages', 'backupsTitle'), '/backups', body));
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

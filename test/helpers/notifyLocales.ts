/**
 * A household's day of notifications in a chosen locale (test/http/notificationLocales.e2e.test.ts
 * and notificationPseudo.e2e.test.ts): a family in Berlin with a location, Ana (email), a
 * contextual digest at 08:00, an event "Swim" at 17:00 at the "Pool" with a reminder an hour
 * before and nobody responsible (a coverage alert at once); the real server on a fake clock
 * sends through the local SMTP, ntfy and SMS gateway stand-ins (the reminder goes by sms too,
 * to whoever has a phone).
 */
import { expect } from 'chai';
import { startTestServer, type Client, type TestServer } from './server.js';
import { FakeClock } from './clock.js';
import { startSmtp, type Mail, type SmtpFake } from './fakes/smtp.js';
import { startNtfy, type NtfyRecorder, type Publish } from './fakes/ntfy.js';
import { startWeather, type WeatherFake } from './fakes/weather.js';
import { startSmsGateway, type SmsGateway } from './fakes/sms.js';
import { until } from './until.js';

export interface Stand {
  server: TestServer;
  smtp: SmtpFake;
  ntfy: NtfyRecorder;
  weather: WeatherFake;
  sms: SmsGateway;
  clock: FakeClock;
  close(): Promise<void>;
}

export const DAY = '2026-06-10';

export async function startStand(): Promise<Stand> {
  const clock = new FakeClock(`${DAY}T04:00:00.000Z`);
  const [smtp, ntfy, weather, sms] = await Promise.all([
    startSmtp(),
    startNtfy(),
    startWeather(),
    startSmsGateway(),
  ]);
  const server = await startTestServer({
    now: clock.now,
    timezone: 'Europe/Berlin',
    overrides: {
      email: { smtpUrl: smtp.url },
      push: { ntfyUrl: ntfy.url },
      sms: { gatewayUrl: sms.url },
      weather: { geocodingUrl: weather.geocodingUrl, forecastUrl: weather.forecastUrl },
    },
  });
  return {
    server,
    smtp,
    ntfy,
    weather,
    sms,
    clock,
    async close() {
      await server.close();
      await Promise.all([smtp.close(), ntfy.close(), weather.close(), sms.close()]);
    },
  };
}

/** Moves the clock to `at` and runs what is due. */
export async function runAt(stand: Stand, at: string): Promise<void> {
  stand.clock.set(at);
  await stand.server.daemon.scheduler.runDue();
}

/** What one kind of notification sent: its in-app record, its emails and its push. */
export interface Sent {
  record: { title: string; body: string; deliveries: { recipient?: string }[] };
  mails: Mail[];
  push: Publish;
}

export interface Day {
  api: Client;
  reminder: Sent;
  coverage: Sent;
  digest: Sent;
}

/** The mails and the push a notification record made (its title names them). */
async function sentFor(stand: Stand, api: Client, kind: string, emails: number): Promise<Sent> {
  const record = await until(`a ${kind} notification`, async () =>
    (await api.get('/notifications?limit=50')).body.notifications.find(
      (n: { kind: string; pending: number }) => n.kind === kind && n.pending === 0,
    ),
  );
  const push = await until(`the ${kind} push`, () =>
    stand.ntfy.published.find((p) => !claimed.has(p) && p.message === record.body),
  );
  claimed.add(push);
  const mails = await until(`the ${kind} mails`, () => {
    // Each notification is sent before the next one is made: the mails not yet claimed.
    const mine = stand.smtp.messages.filter((x) => !claimed.has(x) && belongs(x, record));
    return mine.length >= emails ? mine : false;
  });
  for (const m of mails) claimed.add(m);
  return { record, mails, push };
}

const claimed = new WeakSet<Mail | Publish>();

/** A mail of the record: sent to the record's deliveries after it was made. */
function belongs(m: Mail, record: { deliveries: { recipient?: string }[] }): boolean {
  return record.deliveries.some((d) => d.recipient !== undefined && m.to.includes(d.recipient));
}

/**
 * The day in `locale` for a family of its own (`people`: more people, each with an email and
 * maybe a locale of their own). Every mail goes to Ana and the people given.
 */
export async function dayIn(
  stand: Stand,
  slug: string,
  locale: string,
  people: { name: string; email: string; locale?: string; phone?: string }[] = [],
): Promise<Day> {
  stand.clock.set(`${DAY}T04:00:00.000Z`);
  stand.smtp.messages.length = 0;
  stand.ntfy.published.length = 0;
  stand.sms.sent.length = 0;
  const { client: api } = await stand.server.family(slug, { timezone: 'Europe/Berlin' });
  const patched = await api.patch('', { locale, location: 'Berlin' });
  expect(patched.status, patched.text).to.equal(200);
  for (const p of [{ name: 'Ana', email: `ana@${slug}.test` }, ...people]) {
    const r = await api.post('/people', p);
    expect(r.status, r.text).to.equal(201);
  }
  const routine = await api.post('/notification-routines', {
    cron: '0 8 * * *',
    intent: 'digest',
    mode: 'contextual',
    channels: ['email', 'push'],
  });
  expect(routine.status, routine.text).to.equal(201);
  const ev = await api.post('/calendar/events', {
    title: 'Swim',
    date: DAY,
    time: '17:00',
    where: 'Pool',
    reminders: [{ offsetMinutes: 60, channels: ['in_app', 'email', 'push', 'sms'] }],
  });
  expect(ev.status, ev.text).to.equal(201);
  const emails = 1 + people.length;
  await runAt(stand, `${DAY}T04:00:00.000Z`);
  const coverage = await sentFor(stand, api, 'coverage_alert', emails);
  await runAt(stand, `${DAY}T06:00:00.000Z`); // 08:00 in Berlin
  const digest = await sentFor(stand, api, 'routine', emails);
  await runAt(stand, `${DAY}T14:00:00.000Z`); // 16:00, an hour before the swim
  const reminder = await sentFor(stand, api, 'reminder', emails);
  return { api, reminder, coverage, digest };
}

/** Text with the spaces CLDR puts in numbers and units (no-break, narrow) as plain spaces. */
export function spaced(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, ' ');
}

/**
 * The pseudo-locale through every kind of notification the service words itself (docs/i18n.md,
 * "The pseudo-locale"): a contextual reminder (going, responsible, leave-by, the weather), a
 * leave-by, a coverage alert, a check, a contextual briefing (events, chores, the weather), a
 * plain routine without a title, an intake update and a webhook's notice — in the in-app record,
 * the email (subject, text, HTML) and the push. With the test's own data (titles, names, the
 * place) taken out, no ASCII letter may be left: every word came through a catalog (accented)
 * or a format (accented). `manual` is left out: its words are the household's.
 */
import { expect } from 'chai';
import { until } from '../helpers/until.js';
import { DAY, runAt, startStand, type Stand } from '../helpers/notifyLocales.js';
import { startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { calendar } from '../helpers/fakes/icsText.js';
import { startReceiver, type Receiver } from '../helpers/fakes/receiver.js';

/** What the test itself typed: left out of the check. */
const DATA = [
  'Swim',
  'Vet',
  'Pool',
  'Home',
  'Ana',
  'Bo',
  'Berlin',
  'Pack the bag',
  'Take out the bins',
  'Water the plants',
  'School',
  'Class trip',
  'Receiver',
  'Water',
];

/** What is left of a text without the test's data: no ASCII letter may be. */
function leftOver(text: string): string {
  let t = text;
  for (const d of [...DATA].sort((a, b) => b.length - a.length)) t = t.split(d).join('');
  return t;
}

function noEnglish(where: string, text: string): void {
  expect(leftOver(text), `${where}: ${text}`).not.to.match(/[A-Za-z]/);
}

describe('notifications in the pseudo-locale', () => {
  let stand: Stand;
  let feeds: IcsServer;
  let receiver: Receiver;
  before(async () => {
    [stand, feeds, receiver] = await Promise.all([startStand(), startIcsServer(), startReceiver()]);
  });
  after(async () => {
    await stand.close();
    await Promise.all([feeds.close(), receiver.close()]);
  });

  it('words every kind in the catalog, on every channel', async () => {
    stand.clock.set(`${DAY}T04:00:00.000Z`);
    const { client: api } = await stand.server.family('pseudo', {
      timezone: 'Europe/Berlin',
      locale: 'en-XA',
    });
    expect((await api.patch('', { location: 'Berlin' })).status).to.equal(200);
    const ana = (await api.post('/people', { name: 'Ana', email: 'ana@pseudo.test' })).body.person
      .id;
    const bo = (await api.post('/people', { name: 'Bo' })).body.person.id;
    const channels = ['in_app', 'email', 'push'];
    const swim = (
      await api.post('/calendar/events', {
        title: 'Swim',
        date: DAY,
        time: '17:00',
        where: 'Pool',
        attendance: { [ana]: 'going' },
        responsiblePersonIds: [bo],
        travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
        reminders: [{ offsetMinutes: 60, mode: 'contextual', channels }],
      })
    ).body.entryId;
    await api.post('/calendar/events', { title: 'Vet', date: DAY, time: '18:00' });
    const check = await api.post('/checks', {
      eventId: swim,
      leadHours: 2,
      task: 'Pack the bag',
      channels,
    });
    expect(check.status, check.text).to.equal(201);
    await api.post('/trackers/chores/entries', {
      title: 'Take out the bins',
      data: { due: DAY, assignee: ana },
    });
    await api.post('/trackers/chores/entries', {
      title: 'Water the plants',
      data: { due: '2026-06-08' },
    });
    for (const body of [
      { cron: '0 8 * * *', mode: 'contextual', channels },
      { cron: '0 8 * * *', intent: 'reminder', message: 'Water', channels },
    ])
      expect((await api.post('/notification-routines', body)).status).to.equal(201);

    await runAt(stand, `${DAY}T04:00:00.000Z`); // the coverage alert, at once
    await runAt(stand, `${DAY}T06:00:00.000Z`); // 08:00: the briefing and the plain routine
    await runAt(stand, `${DAY}T13:00:00.000Z`); // 15:00: the check
    await runAt(stand, `${DAY}T14:00:00.000Z`); // 16:00: the reminder
    await runAt(stand, `${DAY}T14:30:00.000Z`); // 16:30: leave now

    // An intake update: the feed brings an event matching its hint.
    const ev = (uid: string, date: string) => ({
      uid,
      summary: 'Class trip',
      lines: [`DTSTART;VALUE=DATE:${date}`],
    });
    feeds.set('/school.ics', { body: calendar([ev('a@school', '20260620')]) });
    const feed = await api.post('/calendar/external', {
      name: 'School',
      url: feeds.url('/school.ics'),
      hint: 'Class trip',
    });
    expect(feed.status, feed.text).to.equal(201);
    feeds.set('/school.ics', {
      body: calendar([ev('a@school', '20260620'), ev('b@school', '20260627')]),
    });
    const next = (await api.get('/calendar/external')).body.feeds[0].nextRefreshAt;
    await runAt(stand, new Date(Date.parse(next) + 1000).toISOString());

    // A webhook's notice: its receiver answers 410 Gone.
    receiver.answer = () => ({ status: 410 });
    const hook = await api.post('/webhook-destinations', {
      name: 'Receiver',
      url: receiver.url,
      eventTypes: ['person.created'],
    });
    expect(hook.status, hook.text).to.equal(201);
    await api.post('/people', { name: 'Bo' });
    await stand.server.daemon.webhooks.idle();

    const kinds = [
      'coverage_alert',
      'routine',
      'check',
      'reminder',
      'leave_by',
      'intake_update',
      'notice',
    ];
    const records = await until('every kind of notification, sent', async () => {
      const all = (await api.get('/notifications?limit=50')).body.notifications;
      const done = all.filter((n: { pending: number }) => n.pending === 0);
      const seen = new Set(done.map((n: { kind: string }) => n.kind));
      return kinds.every((k) => seen.has(k)) && done.length >= 8 ? done : false;
    });
    for (const n of records) {
      noEnglish(`${n.kind} title`, n.title);
      noEnglish(`${n.kind} body`, n.body);
    }
    const titled = records.filter((n: { title: string }) => n.title.startsWith('['));
    expect(titled.map((n: { kind: string }) => n.kind)).to.include.members([
      'coverage_alert',
      'routine',
      'leave_by',
      'intake_update',
      'notice',
    ]);
    const mails = await until('the emails', () =>
      stand.smtp.messages.length >= 6 ? stand.smtp.messages : false,
    );
    for (const m of mails) {
      noEnglish('email subject', m.subject);
      noEnglish('email text', m.text);
      expect(m.headers['content-language']).to.equal('en-XA');
      noEnglish('email html', (m.html ?? '').replace(/<[^>]*>/g, ''));
    }
    const pushes = stand.ntfy.published;
    expect(pushes.length).to.be.at.least(6);
    for (const p of pushes) {
      noEnglish('push title', p.title ?? '');
      noEnglish('push message', p.message);
    }
  });
});

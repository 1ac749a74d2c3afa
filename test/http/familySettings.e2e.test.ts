/**
 * The family's own settings through the real server: PATCH /families/{slug} (shape, errors,
 * scope, the `family.updated` record), and what a new time zone moves in the same write —
 * reminders across the DST change of the old and of the new zone (fired at the new local time,
 * once; one that fired never again; one now past not sent), routines that follow the family,
 * `excludeEnded`, and feed events that keep their instants. Driven on a fake clock.
 */
import { expect } from 'chai';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';
import { startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { calendar } from '../helpers/fakes/icsText.js';
import { exportFamily, importFamily } from '../../src/store/portable.js';

const TEMPLATE = '/api/v1/families/{familySlug}';

describe('family settings: PATCH /families/{slug} and what a new zone moves', () => {
  let server: TestServer;
  let feeds: IcsServer;
  const clock = new FakeClock('2026-03-07T12:00:00.000Z');
  before(async () => {
    feeds = await startIcsServer();
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  async function family(
    slug: string,
    timezone: string,
  ): Promise<{ api: Client; jobs: (kind: string) => [string, string | undefined][] }> {
    const { client } = await server.family(slug, { timezone });
    const id = server.daemon.store.getFamilyBySlug(slug)!.id;
    return {
      api: client,
      jobs: (kind) =>
        server.daemon.store
          .familyJobs(id)
          .filter((j) => j.kind === kind)
          .map((j) => [
            new Date(j.dueAt).toISOString(),
            (j.data as { occurrenceDate?: string } | undefined)?.occurrenceDate,
          ]),
    };
  }
  async function runAt(at: string): Promise<void> {
    clock.set(at);
    await server.daemon.scheduler.runDue();
  }
  const reminders = async (api: Client) =>
    (await api.get('/notifications?limit=50')).body.notifications.filter(
      (n: any) => n.kind === 'reminder',
    );
  const covered = { responsibilityRequired: false };

  it('changes name, zone and location, answering the family as GET shows it, and logs family.updated', async () => {
    clock.set('2026-03-07T12:00:00.000Z');
    const seq = await changes.lastSeq(server.api);
    const r = await server.api.patch('', {
      name: '  The Silvas ',
      timezone: 'america/new_york',
      location: 'Boston',
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const family = {
      slug: 'home',
      name: 'The Silvas',
      timezone: 'America/New_York',
      location: 'Boston',
      locale: 'en',
    };
    expect(r.body).to.deep.equal({ ok: true, family });
    await conforms(server, r, 'patch', TEMPLATE);
    expect((await server.api.get('')).body.family).to.deep.equal(family);
    const logged = await changes.changesAfter(server.api, seq);
    expect(logged.map((c) => [c.type, c.object, c.previous])).to.deep.equal([
      [
        'family.updated',
        family,
        { slug: 'home', name: 'Home', timezone: 'Europe/Berlin', location: null, locale: 'en' },
      ],
    ]);
    // null removes the location; the same values again change nothing and log nothing.
    expect((await server.api.patch('', { location: null })).body.family.location).to.equal(null);
    const after = await changes.lastSeq(server.api);
    expect((await server.api.patch('', { timezone: 'America/New_York' })).status).to.equal(200);
    expect(await changes.lastSeq(server.api)).to.equal(after);
    expect(server.daemon.store.getFamilyBySlug('home')).to.include({
      name: 'The Silvas',
      timezone: 'America/New_York',
    });
  });

  it('refuses an unknown zone, a bad name or location, an empty or unknown field with 400 naming it, and a non-admin key with 403', async () => {
    const cases: [unknown, (string | number)[]][] = [
      [{ timezone: 'Mars/Olympus' }, ['timezone']],
      [{ timezone: '+01:00' }, ['timezone']],
      [{ name: '   ' }, ['name']],
      [{ location: '95,13' }, ['location']],
      [{ colour: 'blue' }, ['colour']],
      [{ name: 'x'.repeat(201) }, ['name']],
      [{ locale: 'not a language' }, ['locale']],
      [{ locale: 'zz-ZZ' }, ['locale']],
      [{ locale: 'de_DE' }, ['locale']],
      [{ locale: 'en-u-hc-h12' }, ['locale']],
      [{ locale: '' }, ['locale']],
      [{ locale: 'de-' + 'a'.repeat(33) }, ['locale']],
    ];
    for (const [body, path] of cases) {
      const r = await server.api.patch('', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.code).to.equal('invalid_request');
      expect(r.body.issues[0].path, JSON.stringify(body)).to.deep.equal(path);
    }
    expect((await server.api.patch('', {})).status).to.equal(400);
    const writer = await server.key({ scopes: ['read', 'write'] });
    const refused = await server.api.patch('', { timezone: 'UTC' }, { key: writer });
    expect(refused.status).to.equal(403);
    expect((await server.api.get('')).body.family.timezone).to.equal('America/New_York');
    // The daemon's own type is in the change log's schema but no webhook can subscribe to it.
    const hook = await server.api.post('/webhook-destinations', {
      name: 'x',
      url: 'http://127.0.0.1:9/x',
      eventTypes: ['family.updated'],
    });
    expect(hook.status).to.equal(400);
    expect(hook.body.issues[0].path).to.deep.equal(['eventTypes', 0]);
  });

  it('keeps the locale a family chose in its canonical form (35 characters at most), through export and import', async () => {
    const { api } = await family('lingua', 'Europe/Berlin');
    expect((await api.get('')).body.family.locale).to.equal('en');
    const seq = await changes.lastSeq(api);
    const r = await api.patch('', { locale: 'de-de' });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.family.locale).to.equal('de-DE');
    const logged = await changes.changesAfter(api, seq);
    expect(logged.map((c) => [c.type, c.object.locale, c.previous.locale])).to.deep.equal([
      ['family.updated', 'de-DE', 'en'],
    ]);
    // The same tag again changes nothing; the longest tag accepted is 35 characters.
    const after = await changes.lastSeq(api);
    expect((await api.patch('', { locale: 'de-DE' })).status).to.equal(200);
    expect(await changes.lastSeq(api)).to.equal(after);
    const longest = 'de-DE-' + ['1901', 'abcde', 'fghij', 'klmno', 'pqrstu'].join('-');
    expect(longest.length).to.equal(35);
    const long = await api.patch('', { locale: longest });
    expect(long.status, JSON.stringify(long.body)).to.equal(200);
    expect(long.body.family.locale).to.equal(longest);
    const tooLong = await api.patch('', { locale: longest + 'x' });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.body.issues[0].path).to.deep.equal(['locale']);
    expect((await api.patch('', { locale: 'ar-EG' })).body.family.locale).to.equal('ar-EG');
    const exported = JSON.parse(
      JSON.stringify(exportFamily(server.daemon.store, 'lingua', clock.now())),
    ) as ReturnType<typeof exportFamily>;
    const other = await startTestServer({ now: clock.now, timezone: 'UTC' });
    try {
      await importFamily(other.daemon.store, exported);
      const key = await other.key({ slug: 'lingua', scopes: ['read'] });
      const got = await other.http.get('/api/v1/families/lingua', { key });
      expect(got.body.family).to.include({ locale: 'ar-EG', timezone: 'Europe/Berlin' });
    } finally {
      await other.close();
    }
  });

  it('fires a reminder planned in Berlin at the new local time in New York, on the night New York springs forward, once', async () => {
    clock.set('2026-03-07T12:00:00.000Z');
    const { api, jobs } = await family('east', 'Europe/Berlin');
    await api.post('/calendar/events', {
      title: 'Swim',
      date: '2026-03-08',
      time: '09:00',
      ...covered,
      reminders: [{ offsetMinutes: 60 }],
    });
    expect(jobs('notify.reminder')).to.deep.equal([['2026-03-08T07:00:00.000Z', '2026-03-08']]); // 08:00 CET
    expect((await api.patch('', { timezone: 'America/New_York' })).status).to.equal(200);
    // 08:00 on the 8th in New York is already daylight time (EDT, −4): 12:00 UTC, not 13:00.
    expect(jobs('notify.reminder')).to.deep.equal([['2026-03-08T12:00:00.000Z', '2026-03-08']]);
    await runAt('2026-03-08T07:00:00.000Z');
    expect(await reminders(api)).to.have.length(0);
    await runAt('2026-03-08T12:00:00.000Z');
    const sent = await reminders(api);
    expect(sent.map((n: any) => [n.title, n.body, n.occurrenceDate])).to.deep.equal([
      ['Swim', 'Today 9:00 AM', '2026-03-08'],
    ]);
    await runAt('2026-03-08T13:00:00.000Z');
    expect(await reminders(api)).to.have.length(1);
    expect(jobs('notify.reminder')).to.deep.equal([]);
  });

  it('never sends again a reminder that fired in Berlin (on its spring-forward day) when the zone moves its time later, and does not send one moved into the past', async () => {
    clock.set('2026-03-29T05:00:00.000Z');
    const { api, jobs } = await family('west', 'Europe/Berlin');
    await api.post('/calendar/events', {
      title: 'Brunch',
      date: '2026-03-29',
      time: '09:00',
      ...covered,
      reminders: [{ offsetMinutes: 60 }],
    });
    await runAt('2026-03-29T06:00:00.000Z'); // 08:00 CEST
    expect(await reminders(api)).to.have.length(1);
    // A weekly choir at 10:00 whose reminder (09:00) is still to come in Berlin today …
    await api.post('/calendar/events', {
      title: 'Choir',
      date: '2026-03-29',
      time: '10:00',
      repeatFrequency: 'weekly',
      ...covered,
      reminders: [{ offsetMinutes: 60 }],
    });
    expect(jobs('notify.reminder').map(([at]) => at)).to.include('2026-03-29T07:00:00.000Z');
    clock.set('2026-03-29T06:30:00.000Z');
    expect((await api.patch('', { timezone: 'Asia/Tokyo' })).status).to.equal(200);
    // … is past in Tokyo (09:00 JST was 00:00 UTC): not sent, the next Sunday's is planned.
    // The brunch's 08:00 JST has passed too, and it fired once already: nothing for it.
    expect(jobs('notify.reminder')).to.deep.equal([['2026-04-05T00:00:00.000Z', '2026-04-05']]);
    await api.patch('', { timezone: 'America/Los_Angeles' });
    // In Los Angeles the brunch's 08:00 is later today (15:00 UTC): it already fired, so only the choir's.
    expect(jobs('notify.reminder')).to.deep.equal([['2026-03-29T16:00:00.000Z', '2026-03-29']]);
    await runAt('2026-03-29T15:00:00.000Z');
    await runAt('2026-03-29T16:00:00.000Z');
    expect((await reminders(api)).map((n: any) => n.title)).to.deep.equal(['Choir', 'Brunch']);
  });

  it('moves routines made without a zone with the family, never repeating the cron time that fired, and leaves those with a zone', async () => {
    clock.set('2026-03-07T05:00:00.000Z');
    const { api } = await family('routines', 'Europe/Berlin');
    const follows = (
      await api.post('/notification-routines', { cron: '0 7 * * *', message: 'Morning' })
    ).body.routine;
    expect(follows).to.include({
      timezone: 'Europe/Berlin',
      followsFamilyZone: true,
      nextRunAt: '2026-03-07T06:00:00.000Z',
    });
    const own = (
      await api.post('/notification-routines', { cron: '0 7 * * *', timezone: 'Asia/Tokyo' })
    ).body.routine;
    expect(own).to.include({
      timezone: 'Asia/Tokyo',
      followsFamilyZone: false,
      nextRunAt: '2026-03-07T22:00:00.000Z',
    });
    await runAt('2026-03-07T06:00:00.000Z');
    clock.set('2026-03-07T06:30:00.000Z');
    await api.patch('', { timezone: 'America/New_York' });
    const listed = new Map(
      (await api.get('/notification-routines')).body.routines.map((r: any) => [r.id, r]),
    );
    // 07:00 of the 7th in New York (12:00 UTC) is the time that fired: the next is the 8th, in EDT.
    expect(listed.get(follows.id)).to.include({
      timezone: 'America/New_York',
      followsFamilyZone: true,
      nextRunAt: '2026-03-08T11:00:00.000Z',
    });
    expect(listed.get(own.id)).to.include({
      timezone: 'Asia/Tokyo',
      followsFamilyZone: false,
      nextRunAt: '2026-03-07T22:00:00.000Z',
    });
    // null on a change makes a routine follow the family again.
    const back = await api.patch(`/notification-routines/${own.id}`, { timezone: null });
    expect(back.body.routine).to.include({
      timezone: 'America/New_York',
      followsFamilyZone: true,
      nextRunAt: '2026-03-07T12:00:00.000Z',
    });
  });

  it('makes excludeEnded and the event times of external feeds follow at once; feed events keep their instants', async () => {
    clock.set('2026-03-09T15:30:00.000Z');
    const { api } = await family('feeds', 'UTC');
    await api.post('/calendar/events', {
      title: 'Lunch',
      date: '2026-03-09',
      time: '12:00',
      endTime: '13:00',
      ...covered,
    });
    feeds.set('/school.ics', {
      body: calendar([
        {
          uid: 'trip@school',
          summary: 'Trip',
          lines: ['DTSTART:20260310T233000Z', 'DTEND:20260311T003000Z'],
        },
        {
          uid: 'choir@school',
          summary: 'Choir',
          lines: [
            'DTSTART;TZID=Europe/Berlin:20260302T160000',
            'DTEND;TZID=Europe/Berlin:20260302T170000',
            'RRULE:FREQ=WEEKLY;BYDAY=MO',
            'EXDATE;TZID=Europe/Berlin:20260316T160000',
          ],
        },
        {
          uid: 'choir@school',
          summary: 'Choir (late)',
          lines: [
            'RECURRENCE-ID;TZID=Europe/Berlin:20260323T160000',
            'DTSTART;TZID=Europe/Berlin:20260323T180000',
            'DTEND;TZID=Europe/Berlin:20260323T190000',
          ],
        },
      ]),
    });
    expect(
      (await api.post('/calendar/external', { name: 'School', url: feeds.url('/school.ics') }))
        .status,
    ).to.equal(201);
    const choirs = async () =>
      (await api.get('/calendar/events?from=2026-03-12&to=2026-04-01&limit=50')).body.events
        .filter((e: any) => e.title.startsWith('Choir'))
        .map((e: any) => [e.title, e.data.date, e.data.time]);
    // In UTC: the 16th is cancelled, the 23rd moved to 18:00 Berlin (17:00 UTC), the 30th in summer time.
    expect(await choirs()).to.deep.equal([
      ['Choir (late)', '2026-03-23', '17:00'],
      ['Choir', '2026-03-30', '14:00'],
    ]);
    const list = async () =>
      (
        await api.get('/calendar/events?from=2026-03-09&to=2026-03-12&excludeEnded=true&limit=50')
      ).body.events.map((e: any) => [e.title, e.data.date, e.data.time]);
    expect(await list()).to.deep.equal([
      ['Choir', '2026-03-09', '15:00'],
      ['Trip', '2026-03-10', '23:30'],
    ]);
    // The feed fails from now on: what follows comes from the zone change itself, not a new read.
    feeds.set('/school.ics', { status: 500, body: 'down' });
    await api.patch('', { timezone: 'Pacific/Kiritimati' }); // UTC+14: it is 05:30 on the 10th there
    // The choir (15:00–16:00 UTC) is still on: 05:00 on the 10th there.
    expect(await list()).to.deep.equal([
      ['Choir', '2026-03-10', '05:00'],
      ['Trip', '2026-03-11', '13:30'],
    ]);
    // The cancelled and the moved occurrence stay so on their new dates (the 17th and 24th there).
    expect(await choirs()).to.deep.equal([
      ['Choir (late)', '2026-03-24', '07:00'],
      ['Choir', '2026-03-31', '04:00'],
    ]);
    const share = new URL((await api.post('/calendar/shares', { name: 'Everything' })).body.url)
      .pathname;
    const lunchLine = async () =>
      (await server.http.get(share)).text
        .split('\r\n')
        .find((l) => l.startsWith('DTSTART') && l.endsWith('T120000'));
    expect(await lunchLine()).to.equal('DTSTART;TZID=Pacific/Kiritimati:20260309T120000');
    await api.patch('', { timezone: 'America/New_York' }); // 11:30 EDT on the 9th
    expect(await lunchLine(), 'the share feed follows at once').to.equal(
      'DTSTART;TZID=America/New_York:20260309T120000',
    );
    // The family's own lunch stays 12:00 and has not ended in New York; the feed's keep their instants.
    expect(await list()).to.deep.equal([
      ['Choir', '2026-03-09', '11:00'],
      ['Lunch', '2026-03-09', '12:00'],
      ['Trip', '2026-03-10', '19:30'],
    ]);
  });
});

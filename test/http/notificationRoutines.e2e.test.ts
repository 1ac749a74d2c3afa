/**
 * Notification routines through the real server, fired by the agenda on a fake clock:
 * defaults, validation, each cron time in the routine's zone across DST changes, plain and
 * contextual texts, preferences, and a routine missed while the daemon was down.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';
import { startNtfy, type NtfyRecorder } from '../helpers/fakes/ntfy.js';
import { startWeather, type WeatherFake } from '../helpers/fakes/weather.js';

const ROUTINES = '/api/v1/families/{familySlug}/notification-routines';

describe('notification routines', () => {
  let server: TestServer;
  let ntfy: NtfyRecorder;
  let weather: WeatherFake;
  const clock = new FakeClock('2026-03-28T12:00:00.000Z');
  before(async () => {
    [ntfy, weather] = await Promise.all([startNtfy(), startWeather()]);
    server = await startTestServer({
      now: clock.now,
      timezone: 'Europe/Berlin',
      overrides: {
        push: { ntfyUrl: ntfy.url },
        weather: { geocodingUrl: weather.geocodingUrl, forecastUrl: weather.forecastUrl },
      },
    });
  });
  after(async () => {
    await server.close();
    await ntfy.close();
    await weather.close();
  });

  /** Moves the clock to `at` and runs what is due. */
  async function runAt(at: string | number): Promise<void> {
    clock.set(new Date(at));
    await server.daemon.scheduler.runDue();
  }

  it('creates a routine with the documented defaults and lists it with nextRunAt and lastRunAt', async () => {
    clock.set('2026-03-28T12:00:00.000Z');
    const seq = await changes.lastSeq(server.api);
    const r = await server.api.post('/notification-routines', {});
    expect(r.status).to.equal(201);
    await conforms(server, r, 'post', ROUTINES);
    expect(r.body.routine).to.include({
      cron: '0 7 * * *',
      intent: 'briefing',
      mode: 'plain',
      isEnabled: true,
      timezone: 'Europe/Berlin',
      lastRunAt: null,
      title: null,
      message: null,
      nextRunAt: '2026-03-29T05:00:00.000Z', // 07:00 CEST, the day summer time starts
    });
    expect(r.body.routine.channels).to.deep.equal(['in_app']);
    expect(r.body.routine.id).to.match(/^trg_/);
    const list = await server.api.get('/notification-routines');
    await conforms(server, list, 'get', ROUTINES);
    expect(list.body.routines.map((x: any) => x.id)).to.include(r.body.routine.id);
    const logged = await changes.changesAfter(server.api, seq);
    expect(logged.map((c) => c.type)).to.deep.equal(['notification_routine.created']);
    expect(logged[0].object.nextRunAt).to.equal('2026-03-29T05:00:00.000Z');
    await server.api.delete(`/notification-routines/${r.body.routine.id}`);
  });

  it('refuses an invalid cron, time zone, intent or channel with 400 naming the field, and an empty change', async () => {
    const cases: [unknown, (string | number)[]][] = [
      [{ cron: 'every morning' }, ['cron']],
      [{ cron: '61 * * * *' }, ['cron']],
      [{ timezone: 'Mars/Olympus' }, ['timezone']],
      [{ timezone: '+01:00' }, ['timezone']],
      [{ intent: 'gossip' }, ['intent']],
      [{ channels: ['fax'] }, ['channels', 0]],
      [{ mode: 'loud' }, ['mode']],
      [{ cron: '' }, ['cron']],
    ];
    for (const [body, path] of cases) {
      const r = await server.api.post('/notification-routines', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.issues[0].path, JSON.stringify(body)).to.deep.equal(path);
    }
    const id = (await server.api.post('/notification-routines', { timezone: 'america/new_york' }))
      .body.routine.id;
    expect(
      (await server.api.get('/notification-routines')).body.routines.find((x: any) => x.id === id)
        .timezone,
    ).to.equal('America/New_York');
    expect((await server.api.patch(`/notification-routines/${id}`, {})).status).to.equal(400);
    expect(
      (await server.api.patch(`/notification-routines/${id}`, { cron: 'nope' })).body.issues[0]
        .path,
    ).to.deep.equal(['cron']);
    expect(
      (
        await server.api.patch('/notification-routines/trg_0000000000000000000a', {
          isEnabled: false,
        })
      ).status,
    ).to.equal(404);
    await server.api.delete(`/notification-routines/${id}`);
  });

  it('needs the admin scope', async () => {
    const write = await server.key({ scopes: ['write'] });
    expect((await server.api.get('/notification-routines', { key: write })).status).to.equal(403);
    expect((await server.api.post('/notification-routines', {}, { key: write })).status).to.equal(
      403,
    );
  });

  it('fires a plain routine at its cron time with its title and message, then schedules the next one', async () => {
    clock.set('2026-04-01T10:00:00.000Z');
    const routine = (
      await server.api.post('/notification-routines', {
        cron: '0 18 * * *',
        intent: 'reminder',
        title: 'Homework',
        message: 'Bags packed?',
        channels: ['in_app', 'push'],
      })
    ).body.routine;
    expect(routine.nextRunAt).to.equal('2026-04-01T16:00:00.000Z');
    await runAt('2026-04-01T15:59:59.999Z');
    expect(
      (await server.api.get(`/notifications?triggerId=${routine.id}`)).body.notifications,
    ).to.have.length(0);
    ntfy.published.length = 0;
    await runAt('2026-04-01T16:00:00.000Z');
    const sent = (await server.api.get(`/notifications?triggerId=${routine.id}`)).body
      .notifications;
    expect(sent.map((n: any) => [n.kind, n.title, n.body, n.delivered])).to.deep.equal([
      ['routine', 'Homework', 'Bags packed?', 2],
    ]);
    expect(ntfy.published.map((p) => p.title)).to.deep.equal(['Homework']);
    const after = (await server.api.get('/notification-routines')).body.routines.find(
      (x: any) => x.id === routine.id,
    );
    expect(after).to.include({
      lastRunAt: '2026-04-01T16:00:00.000Z',
      nextRunAt: '2026-04-02T16:00:00.000Z',
    });
    // Running the agenda again at the same time sends nothing more.
    await server.daemon.scheduler.runDue();
    expect(
      (await server.api.get(`/notifications?triggerId=${routine.id}`)).body.notifications,
    ).to.have.length(1);
    await server.api.delete(`/notification-routines/${routine.id}`);
  });

  it('fires 30 2 * * * once on the spring-forward night, at 03:00 (the next valid minute), and once on the fall-back night', async () => {
    clock.set('2026-03-28T12:00:00.000Z');
    const routine = (
      await server.api.post('/notification-routines', {
        cron: '30 2 * * *',
        timezone: 'Europe/Berlin',
      })
    ).body.routine;
    // 2026-03-29: clocks go from 02:00 to 03:00 CEST; 02:30 does not exist.
    expect(routine.nextRunAt).to.equal('2026-03-29T01:00:00.000Z');
    await runAt('2026-03-29T01:00:00.000Z');
    let listed = (await server.api.get('/notification-routines')).body.routines.find(
      (x: any) => x.id === routine.id,
    );
    expect(listed).to.include({
      lastRunAt: '2026-03-29T01:00:00.000Z',
      nextRunAt: '2026-03-30T00:30:00.000Z',
    });
    await runAt('2026-03-30T00:30:00.000Z');
    expect(
      (await server.api.get(`/notifications?triggerId=${routine.id}`)).body.notifications.map(
        (n: any) => n.createdAt,
      ),
    ).to.deep.equal(['2026-03-30T00:30:00.000Z', '2026-03-29T01:00:00.000Z']);
    // 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice and fires once (the first).
    await server.api.patch(`/notification-routines/${routine.id}`, { isEnabled: false });
    clock.set('2026-10-24T12:00:00.000Z');
    listed = (await server.api.patch(`/notification-routines/${routine.id}`, { isEnabled: true }))
      .body.routine;
    expect(listed.nextRunAt).to.equal('2026-10-25T00:30:00.000Z');
    await runAt('2026-10-25T00:30:00.000Z');
    await runAt('2026-10-25T01:30:00.000Z');
    listed = (await server.api.get('/notification-routines')).body.routines.find(
      (x: any) => x.id === routine.id,
    );
    expect(listed.nextRunAt).to.equal('2026-10-26T01:30:00.000Z');
    expect(
      (
        await server.api.get(`/notifications?triggerId=${routine.id}&sinceMinutes=43200`)
      ).body.notifications.map((n: any) => n.createdAt),
    ).to.deep.equal(['2026-10-25T00:30:00.000Z']);
    await server.api.delete(`/notification-routines/${routine.id}`);
  });

  it('takes a disabled routine off the agenda and a deleted one with it', async () => {
    clock.set('2026-05-01T10:00:00.000Z');
    const family = server.daemon.store.getFamilyBySlug('home')!;
    const id = (await server.api.post('/notification-routines', { cron: '0 14 * * *' })).body
      .routine.id; // 12:00 UTC in summer
    const job = () =>
      server.daemon.store.familyJobs(family.id).find((j) => j.id === `routine:${id}`);
    expect(job()?.dueAt).to.equal(Date.parse('2026-05-01T12:00:00.000Z'));
    const off = await server.api.patch(`/notification-routines/${id}`, { isEnabled: false });
    expect(off.body.routine.nextRunAt).to.equal(null);
    expect(job()).to.equal(undefined);
    await server.api.patch(`/notification-routines/${id}`, {
      isEnabled: true,
      cron: '15 14 * * *',
    });
    expect(job()?.dueAt).to.equal(Date.parse('2026-05-01T12:15:00.000Z'));
    const seq = await changes.lastSeq(server.api);
    const del = await server.api.delete(`/notification-routines/${id}`);
    expect(del.body).to.deep.equal({ ok: true, routineId: id });
    expect(job()).to.equal(undefined);
    expect((await changes.changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
      'notification_routine.deleted',
    ]);
    expect((await server.api.delete(`/notification-routines/${id}`)).status).to.equal(404);
  });

  it("writes a contextual briefing from live data: events with attendance and leave-by, chores due, the weather at the family's location", async () => {
    clock.set('2026-06-10T04:00:00.000Z');
    expect((await server.api.patch('', { location: 'Berlin' })).body.family.location).to.equal(
      'Berlin',
    );
    const ana = (await server.api.post('/people', { name: 'Ana' })).body.person.id;
    await server.api.post('/calendar/events', {
      title: 'Swimming',
      date: '2026-06-10',
      time: '17:00',
      where: 'Pool',
      attendance: { [ana]: 'going' },
      travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
    });
    await server.api.post('/calendar/events', { title: 'Grandma visits', date: '2026-06-11' });
    await server.api.post('/trackers/chores/entries', {
      title: 'Take out the bins',
      data: { due: '2026-06-10', assignee: ana },
    });
    await server.api.post('/trackers/chores/entries', {
      title: 'Water plants',
      data: { due: '2026-06-08' },
    });
    await server.api.post('/trackers/chores/entries', {
      title: 'Clean the car',
      data: { due: '2026-06-20' },
    });
    const routine = (
      await server.api.post('/notification-routines', { cron: '30 6 * * *', mode: 'contextual' })
    ).body.routine;
    await runAt(routine.nextRunAt);
    const n = (await server.api.get(`/notifications?triggerId=${routine.id}`)).body
      .notifications[0];
    expect(n.title).to.equal('Morning briefing');
    expect(n.body.split('\n')).to.deep.equal([
      'Today (Wed, Jun 10):',
      '- 5:00 PM Swimming (Pool; going: Ana; leave by 4:30 PM)',
      'Tomorrow (Thu, Jun 11):',
      '- all day Grandma visits',
      'Chores due: Water plants (overdue since Mon, Jun 8); Take out the bins (Ana, today)',
      'Weather in Berlin: light rain, 37°F to 47°F, 70% chance of rain',
    ]);
    // The forecast was asked for the family's date and zone.
    const asked = weather.service.requests
      .map((r) => new URL(r.url, 'http://x'))
      .find((u) => u.pathname === '/v1/forecast')!;
    expect(asked.searchParams.get('start_date')).to.equal('2026-06-10');
    expect(asked.searchParams.get('timezone')).to.equal('Europe/Berlin');
    await server.api.patch('', { location: null });
    await server.api.delete(`/notification-routines/${routine.id}`);
  });

  it('records a routine found later than scheduler.catchUpMinutes as skipped, sends nothing, and moves on', async () => {
    clock.set('2026-07-01T10:00:00.000Z');
    ntfy.published.length = 0;
    const routine = (
      await server.api.post('/notification-routines', {
        cron: '0 13 * * *',
        channels: ['in_app', 'push'],
      })
    ).body.routine;
    expect(routine.nextRunAt).to.equal('2026-07-01T11:00:00.000Z');
    // The daemon "was down" for seven hours: more than the default 360 minutes late.
    await runAt('2026-07-01T18:00:01.000Z');
    const n = (await server.api.get(`/notifications?triggerId=${routine.id}`)).body.notifications;
    expect(n).to.have.length(1);
    expect(n[0].skipped).to.equal(true);
    expect(n[0].deliveries.map((d: any) => [d.channel, d.status, d.reason])).to.deep.equal([
      ['in_app', 'suppressed', 'missed: the daemon was down past scheduler.catchUpMinutes'],
      ['push', 'suppressed', 'missed: the daemon was down past scheduler.catchUpMinutes'],
    ]);
    expect(ntfy.published).to.have.length(0);
    expect(
      (await server.api.get('/notification-routines')).body.routines.find(
        (x: any) => x.id === routine.id,
      ).nextRunAt,
    ).to.equal('2026-07-02T11:00:00.000Z');
    await server.api.delete(`/notification-routines/${routine.id}`);
  });
});

describe('notification preferences', () => {
  let server: TestServer;
  let ntfy: NtfyRecorder;
  const clock = new FakeClock('2026-04-01T10:00:00.000Z');
  before(async () => {
    ntfy = await startNtfy();
    server = await startTestServer({ now: clock.now, overrides: { push: { ntfyUrl: ntfy.url } } });
  });
  after(async () => {
    await server.close();
    await ntfy.close();
  });

  it('answers every channel × kind, all on by default, and changes one switch at a time', async () => {
    const r = await server.api.get('/notification-preferences');
    expect(r.status).to.equal(200);
    await conforms(server, r, 'get', '/api/v1/families/{familySlug}/notification-preferences');
    const all = {
      reminder: true,
      coverage_alert: true,
      follow_up_nudge: true,
      digest: true,
      intake_update: true,
    };
    expect(r.body).to.deep.equal({ ok: true, preferences: { email: all, push: all } });
    const seq = await changes.lastSeq(server.api);
    const set = await server.api.post('/notification-preferences', {
      channel: 'push',
      eventKind: 'digest',
      isEnabled: false,
    });
    expect(set.status).to.equal(200);
    expect(set.body.preferences).to.deep.equal({ email: all, push: { ...all, digest: false } });
    await conforms(server, set, 'post', '/api/v1/families/{familySlug}/notification-preferences');
    // Setting it again changes nothing and logs nothing.
    await server.api.post('/notification-preferences', {
      channel: 'push',
      eventKind: 'digest',
      isEnabled: false,
    });
    const logged = await changes.changesAfter(server.api, seq);
    expect(logged.map((c) => c.type)).to.deep.equal(['notification_preference.updated']);
    expect(logged[0].object).to.include({ channel: 'push', eventKind: 'digest', isEnabled: false });
  });

  it('refuses a channel other than email and push, an unknown kind and a missing switch, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ channel: 'sms', eventKind: 'digest', isEnabled: false }, 'channel'],
      [{ channel: 'email', eventKind: 'gossip', isEnabled: false }, 'eventKind'],
      [{ channel: 'email', eventKind: 'digest' }, 'isEnabled'],
      [{ channel: 'email', eventKind: 'digest', isEnabled: 'no' }, 'isEnabled'],
    ];
    for (const [body, field] of cases) {
      const r = await server.api.post('/notification-preferences', body);
      expect(r.status).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal([field]);
    }
  });

  it("suppresses the service's own notification on a channel switched off, with the reason, and leaves API sends alone", async () => {
    await server.api.post('/notification-preferences', {
      channel: 'push',
      eventKind: 'digest',
      isEnabled: false,
    });
    ntfy.published.length = 0;
    const digest = (
      await server.api.post('/notification-routines', {
        cron: '0 12 * * *',
        intent: 'digest',
        channels: ['in_app', 'push'],
      })
    ).body.routine;
    const reminder = (
      await server.api.post('/notification-routines', {
        cron: '0 12 * * *',
        intent: 'reminder',
        channels: ['in_app', 'push'],
      })
    ).body.routine;
    clock.set('2026-04-01T12:00:00.000Z');
    await server.daemon.scheduler.runDue();
    const one = async (id: string) =>
      (await server.api.get(`/notifications?triggerId=${id}`)).body.notifications[0];
    expect((await one(digest.id)).deliveries).to.deep.equal([
      { channel: 'in_app', status: 'delivered' },
      { channel: 'push', status: 'suppressed', reason: 'preference off' },
    ]);
    expect((await one(reminder.id)).deliveries).to.deep.equal([
      { channel: 'in_app', status: 'delivered' },
      { channel: 'push', status: 'delivered' },
    ]);
    expect(ntfy.published.map((p) => p.title)).to.deep.equal(['Reminder']);
    const manual = await server.api.post('/notifications', {
      title: 'By hand',
      channels: ['push'],
    });
    expect(manual.body).to.include({ delivered: 1, suppressed: 0 });
  });
});

/**
 * What the agenda fires from calendar events, through the real server on a fake clock:
 * reminders (across the Berlin and New York DST changes, all-day at 09:00 local, every
 * occurrence of a series with only the next one on the agenda), leave-by, coverage alerts once
 * per occurrence, audiences resolved at firing time, and rescheduling in the event's own write.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer, type Client } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { startSmtp, type SmtpFake } from '../helpers/fakes/smtp.js';

describe('reminders, leave-by and coverage alerts', () => {
  let server: TestServer;
  let smtp: SmtpFake;
  const clock = new FakeClock('2026-03-20T12:00:00.000Z');
  before(async () => {
    smtp = await startSmtp();
    server = await startTestServer({
      now: clock.now,
      timezone: 'Europe/Berlin',
      overrides: { email: { smtpUrl: smtp.url } },
    });
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  /** A family of its own per test, so agendas and listings do not mix. */
  async function family(
    slug: string,
    timezone = 'Europe/Berlin',
  ): Promise<{
    api: Client;
    jobs: () => { id: string; kind: string; dueAt: number; data?: any }[];
  }> {
    const { client } = await server.family(slug, { timezone });
    const id = server.daemon.store.getFamilyBySlug(slug)!.id;
    return {
      api: client,
      jobs: () => server.daemon.store.familyJobs(id).filter((j) => j.kind !== 'notify.prune'),
    };
  }
  async function runAt(at: string | number): Promise<void> {
    clock.set(new Date(at));
    await server.daemon.scheduler.runDue();
  }
  const fired = async (api: Client, kind?: string) =>
    (await api.get('/notifications?limit=50')).body.notifications
      .filter((n: any) => !kind || n.kind === kind)
      .reverse();
  /** Events nobody needs to be responsible for, so coverage alerts stay out of reminder tests. */
  const covered = { responsibilityRequired: false };

  it('fires a reminder offsetMinutes before the start across the Berlin spring-forward night, with the start, place and leave-by in the body', async () => {
    clock.set('2026-03-28T08:00:00.000Z');
    const { api, jobs } = await family('berlin');
    const ev = (
      await api.post('/calendar/events', {
        title: 'Brunch',
        date: '2026-03-29',
        time: '10:00',
        where: 'Café Blume',
        ...covered,
        reminders: [{ offsetMinutes: 720 }],
        travelPlan: { origin: 'Home', baseTravelMinutes: 25, arriveEarlyMinutes: 5 },
      })
    ).body.entryId;
    // 10:00 CEST on the 29th is 08:00 UTC; twelve hours earlier is 20:00 UTC on the 28th (21:00 CET).
    expect(jobs().find((j) => j.id === `rem:${ev}:0`)?.dueAt).to.equal(
      Date.parse('2026-03-28T20:00:00.000Z'),
    );
    await runAt('2026-03-28T19:59:00.000Z');
    expect(await fired(api, 'reminder')).to.have.length(0);
    await runAt('2026-03-28T20:00:00.000Z');
    const [n] = await fired(api, 'reminder');
    expect(n).to.include({
      title: 'Brunch',
      body: 'Tomorrow 10:00 AM · Café Blume · leave by 9:30 AM',
      eventId: ev,
      occurrenceDate: '2026-03-29',
    });
    expect(n.deliveries).to.deep.equal([{ channel: 'in_app', status: 'delivered' }]);
    expect(jobs().find((j) => j.id === `rem:${ev}:0`)).to.equal(undefined);
    // The leave-by fires at 09:30 CEST = 07:30 UTC.
    await runAt('2026-03-29T07:30:00.000Z');
    const [leave] = await fired(api, 'leave_by');
    expect(leave).to.include({
      title: 'Leave now for Brunch',
      body: 'From Home · arrive by 9:55 AM',
    });
  });

  it('keeps only the next occurrence of a weekly series on the agenda and moves it on across the DST change', async () => {
    clock.set('2026-03-20T12:00:00.000Z');
    const { api, jobs } = await family('weekly');
    const ev = (
      await api.post('/calendar/events', {
        title: 'Choir',
        date: '2026-03-22',
        time: '09:30',
        repeatFrequency: 'weekly',
        ...covered,
        reminders: [{ offsetMinutes: 30 }],
      })
    ).body.entryId;
    const due = () =>
      jobs()
        .filter((j) => j.kind === 'notify.reminder')
        .map((j) => [new Date(j.dueAt).toISOString(), j.data.occurrenceDate]);
    expect(due()).to.deep.equal([['2026-03-22T08:00:00.000Z', '2026-03-22']]); // 09:00 CET
    await runAt('2026-03-22T08:00:00.000Z');
    expect(due()).to.deep.equal([['2026-03-29T07:00:00.000Z', '2026-03-29']]); // 09:00 CEST
    await runAt('2026-03-29T07:00:00.000Z');
    expect(due()).to.deep.equal([['2026-04-05T07:00:00.000Z', '2026-04-05']]);
    expect(
      (await fired(api, 'reminder')).map((n: any) => [n.occurrenceDate, n.createdAt]),
    ).to.deep.equal([
      ['2026-03-22', '2026-03-22T08:00:00.000Z'],
      ['2026-03-29', '2026-03-29T07:00:00.000Z'],
    ]);
    // Removing the next occurrence moves the reminder to the one after, in the same write.
    await api.delete(`/calendar/events/${ev}?editScope=occurrence&occurrenceDate=2026-04-05`);
    expect(due()).to.deep.equal([['2026-04-12T07:00:00.000Z', '2026-04-12']]);
  });

  it('fires across the New York fall-back at the same local time each day', async () => {
    clock.set('2026-10-30T12:00:00.000Z');
    const { api, jobs } = await family('newyork', 'America/New_York');
    await api.post('/calendar/events', {
      title: 'School run',
      date: '2026-10-31',
      time: '08:00',
      repeatFrequency: 'daily',
      ...covered,
      reminders: [{ offsetMinutes: 60 }],
    });
    const next = () =>
      new Date(jobs().find((j) => j.kind === 'notify.reminder')!.dueAt).toISOString();
    expect(next()).to.equal('2026-10-31T11:00:00.000Z'); // 07:00 EDT
    await runAt(next());
    expect(next()).to.equal('2026-11-01T12:00:00.000Z'); // 07:00 EST, the day clocks fall back
    await runAt(next());
    expect(next()).to.equal('2026-11-02T12:00:00.000Z');
    expect((await fired(api, 'reminder')).map((n: any) => n.body)).to.deep.equal([
      'Today 8:00 AM',
      'Today 8:00 AM',
    ]);
  });

  it('treats an all-day event as starting at 09:00 local for its reminders', async () => {
    clock.set('2026-12-01T12:00:00.000Z');
    const { api, jobs } = await family('allday');
    const ev = (
      await api.post('/calendar/events', {
        title: 'Bake sale',
        date: '2026-12-05',
        ...covered,
        reminders: [{ offsetMinutes: 0 }, { offsetMinutes: 1440 }],
      })
    ).body.entryId;
    expect(
      jobs()
        .filter((j) => j.kind === 'notify.reminder')
        .map((j) => [j.id, new Date(j.dueAt).toISOString()])
        .sort(),
    ).to.deep.equal([
      [`rem:${ev}:0`, '2026-12-05T08:00:00.000Z'],
      [`rem:${ev}:1`, '2026-12-04T08:00:00.000Z'],
    ]);
    await runAt('2026-12-04T08:00:00.000Z');
    await runAt('2026-12-05T08:00:00.000Z');
    expect((await fired(api, 'reminder')).map((n: any) => n.body)).to.deep.equal([
      'Tomorrow, all day',
      'Today, all day',
    ]);
  });

  it("does not send a reminder whose time is already past when the event is saved, and reschedules in the edit's own write", async () => {
    clock.set('2026-06-01T10:00:00.000Z'); // 12:00 in Berlin
    const { api, jobs } = await family('edits');
    const ev = (
      await api.post('/calendar/events', {
        title: 'Dentist',
        date: '2026-06-01',
        time: '12:30',
        ...covered,
        reminders: [{ offsetMinutes: 60 }],
      })
    ).body.entryId;
    expect(jobs()).to.deep.equal([]);
    await api.patch(`/calendar/events/${ev}`, { time: '14:00' });
    expect(jobs().map((j) => [j.id, new Date(j.dueAt).toISOString()])).to.deep.equal([
      [`rem:${ev}:0`, '2026-06-01T11:00:00.000Z'],
    ]);
    await api.patch(`/calendar/events/${ev}`, { reminders: [] });
    expect(jobs()).to.deep.equal([]);
    await api.patch(`/calendar/events/${ev}`, { reminders: [{ offsetMinutes: 30 }] });
    expect(jobs().map((j) => j.id)).to.deep.equal([`rem:${ev}:0`]);
    await api.patch(`/calendar/events/${ev}`, { status: 'archived' });
    expect(jobs()).to.deep.equal([]);
    await api.patch(`/calendar/events/${ev}`, { status: 'active' });
    await api.delete(`/calendar/events/${ev}`);
    expect(jobs()).to.deep.equal([]);
    await runAt('2026-06-01T13:00:00.000Z');
    expect(await fired(api)).to.deep.equal([]);
  });

  it('resolves audiences at firing time: household, responsible and owner, going, chosen people', async () => {
    clock.set('2026-06-01T08:00:00.000Z');
    const { api } = await family('audiences');
    const person = async (name: string) =>
      (await api.post('/people', { name, email: `${name.toLowerCase()}@example.test` })).body.person
        .id;
    const [ana, ben, cleo, dev] = [
      await person('Ana'),
      await person('Ben'),
      await person('Cleo'),
      await person('Dev'),
    ];
    await api.post('/calendar/events', {
      title: 'Match',
      date: '2026-06-02',
      time: '10:00',
      responsiblePersonIds: [ana],
      ownerPersonId: ben,
      attendance: { [cleo]: 'going', [ana]: 'out' },
      reminders: [
        { offsetMinutes: 60, audience: 'household', channels: ['email'] },
        { offsetMinutes: 60, audience: 'responsible', channels: ['email'] },
        { offsetMinutes: 60, audience: 'going', channels: ['email'] },
        { offsetMinutes: 60, audience: 'people', recipientPersonIds: [dev], channels: ['email'] },
      ],
    });
    // Dev's address changes after the event was saved: the reminder uses the one at firing time.
    await api.patch(`/people/${dev}`, { email: 'dev.new@example.test' });
    smtp.messages.length = 0;
    await runAt('2026-06-02T07:00:00.000Z');
    const reminders = await fired(api, 'reminder');
    expect(reminders).to.have.length(4);
    const sorted = (n: any) => n.deliveries.map((d: any) => d.recipient).sort();
    expect(reminders.map(sorted)).to.have.deep.members([
      ['ana@example.test', 'ben@example.test', 'cleo@example.test', 'dev.new@example.test'],
      ['ana@example.test', 'ben@example.test'],
      ['cleo@example.test'],
      ['dev.new@example.test'],
    ]);
    expect(smtp.messages).to.have.length(8);
    expect(smtp.messages.every((m) => m.subject === 'Match')).to.equal(true);
  });

  it('alerts once per occurrence when nobody is responsible: at once inside 48 h, else 48 h before', async () => {
    clock.set('2026-09-01T10:00:00.000Z');
    const { api, jobs } = await family('coverage');
    const soon = (
      await api.post('/calendar/events', { title: 'Vet', date: '2026-09-02', time: '09:00' })
    ).body.entryId;
    expect(jobs().find((j) => j.id === `cov:${soon}`)?.dueAt).to.equal(
      Date.parse('2026-09-01T10:00:00.000Z'),
    );
    await server.daemon.scheduler.runDue();
    let alerts = await fired(api, 'coverage_alert');
    expect(alerts.map((n: any) => [n.title, n.body, n.occurrenceDate])).to.deep.equal([
      ['Nobody is responsible for Vet', 'Tomorrow 9:00 AM', '2026-09-02'],
    ]);
    // Changing the event inside the window does not alert again for the same occurrence.
    await api.patch(`/calendar/events/${soon}`, { time: '09:30', where: 'Clinic' });
    expect(jobs().find((j) => j.id === `cov:${soon}`)).to.equal(undefined);
    await server.daemon.scheduler.runDue();
    expect(await fired(api, 'coverage_alert')).to.have.length(1);

    // A daily series: each occurrence's alert 48 h before it, one after the other.
    const series = (
      await api.post('/calendar/events', {
        title: 'Feed the cat',
        date: '2026-09-05',
        time: '18:00',
        repeatFrequency: 'daily',
      })
    ).body.entryId;
    const due = () => new Date(jobs().find((j) => j.id === `cov:${series}`)!.dueAt).toISOString();
    expect(due()).to.equal('2026-09-03T16:00:00.000Z');
    await runAt('2026-09-03T16:00:00.000Z');
    expect(due()).to.equal('2026-09-04T16:00:00.000Z');
    await runAt('2026-09-04T16:00:00.000Z');
    alerts = (await fired(api, 'coverage_alert')).filter((n: any) => n.eventId === series);
    expect(alerts.map((n: any) => n.occurrenceDate)).to.deep.equal(['2026-09-05', '2026-09-06']);
    // Someone takes it on: no more alerts are scheduled.
    const pat = (await api.post('/people', { name: 'Pat' })).body.person.id;
    await api.patch(`/calendar/events/${series}`, { responsiblePersonIds: [pat] });
    expect(jobs().find((j) => j.id === `cov:${series}`)).to.equal(undefined);
  });

  it('sends no coverage alert when the household said nobody is needed, or an owner is set but the rule still applies', async () => {
    clock.set('2026-09-10T10:00:00.000Z');
    const { api, jobs } = await family('nocover');
    const owner = (await api.post('/people', { name: 'Olga' })).body.person.id;
    const no = (
      await api.post('/calendar/events', {
        title: 'Nap',
        date: '2026-09-11',
        time: '13:00',
        responsibilityRequired: false,
      })
    ).body.entryId;
    const owned = (
      await api.post('/calendar/events', {
        title: 'Owned',
        date: '2026-09-11',
        time: '13:00',
        ownerPersonId: owner,
      })
    ).body.entryId;
    expect(jobs().find((j) => j.id === `cov:${no}`)).to.equal(undefined);
    expect(jobs().find((j) => j.id === `cov:${owned}`)).to.not.equal(undefined); // an owner alone is not coverage
  });

  it('schedules the coverage alert of an event created by settling a poll, in the settling write', async () => {
    clock.set('2026-10-01T10:00:00.000Z');
    const { api, jobs } = await family('polls');
    const plan = (await api.post('/plans', { title: 'Picnic' })).body.planId;
    const poll = (
      await api.post(`/plans/${plan}/polls`, {
        question: 'When?',
        options: [{ date: '2026-10-10', time: '12:00' }, { label: 'Later' }],
      })
    ).body.pollId;
    const detail = (await api.get(`/plans/${plan}`)).body;
    const optionId = detail.polls[0].options[0].optionId;
    const settled = (await api.post(`/plans/${plan}/polls/${poll}/settle`, { optionId })).body;
    expect(jobs().find((j) => j.id === `cov:${settled.eventId}`)?.dueAt).to.equal(
      Date.parse('2026-10-08T10:00:00.000Z'),
    );
    await api.post(`/plans/${plan}/polls/${poll}/reopen`, {});
    expect(jobs().find((j) => j.id === `cov:${settled.eventId}`)).to.equal(undefined);
  });

  it('records a reminder found later than scheduler.catchUpMinutes as skipped and schedules the next occurrence', async () => {
    clock.set('2026-08-01T06:00:00.000Z');
    const { api, jobs } = await family('missed');
    await api.post('/calendar/events', {
      title: 'Pills',
      date: '2026-08-01',
      time: '09:00',
      repeatFrequency: 'daily',
      ...covered,
      reminders: [{ offsetMinutes: 0 }],
    });
    await runAt('2026-08-01T14:00:00.000Z'); // seven hours after 09:00 CEST
    const [n] = await fired(api, 'reminder');
    expect(n).to.include({ skipped: true, occurrenceDate: '2026-08-01' });
    expect(n.deliveries[0].reason).to.match(/^missed/);
    expect(
      new Date(jobs().find((j) => j.kind === 'notify.reminder')!.dueAt).toISOString(),
    ).to.equal('2026-08-02T07:00:00.000Z');
  });
});

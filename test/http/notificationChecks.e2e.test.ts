/**
 * POST /checks through the real server, fired by the agenda on a fake clock: the run time,
 * the limits of leadHours, firing once, following the event when it moves, gone with it.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';

describe('POST /checks', () => {
  let server: TestServer;
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());
  beforeEach(() => clock.set('2026-11-22T08:30:00.000Z'));

  const event = async (body: Record<string, unknown>) =>
    (await server.api.post('/calendar/events', { title: 'Swimming', ...body })).body
      .entryId as string;
  const jobs = () =>
    server.daemon.store.familyJobs(server.daemon.store.getFamilyBySlug('home')!.id);
  const sent = async (triggerId: string) =>
    (await server.api.get(`/notifications?triggerId=${triggerId}`)).body.notifications;
  async function runAt(at: string): Promise<void> {
    clock.set(at);
    await server.daemon.scheduler.runDue();
  }

  it("schedules a check leadHours before the event's next start and answers {ok, eventId, triggerId, leadHours, runAt}", async () => {
    const eventId = await event({ date: '2026-11-28', time: '15:00' }); // 14:00 UTC
    const seq = await changes.lastSeq(server.api);
    const r = await server.api.post('/checks', {
      eventId,
      leadHours: 24,
      task: 'Pack the swimming bag',
    });
    expect(r.status).to.equal(201);
    await conforms(server, r, 'post', '/api/v1/families/{familySlug}/checks');
    expect(r.body).to.include({
      ok: true,
      eventId,
      leadHours: 24,
      runAt: '2026-11-27T14:00:00.000Z',
      occurrenceDate: '2026-11-28',
    });
    expect(r.body.triggerId).to.match(/^trg_/);
    const logged = await changes.changesAfter(server.api, seq);
    expect(logged.map((c) => c.type)).to.deep.equal(['calendar.check.created']);
    expect(logged[0].object).to.include({
      triggerId: r.body.triggerId,
      eventId,
      runAt: '2026-11-27T14:00:00.000Z',
    });
    expect(jobs().find((j) => j.id === `check:${r.body.triggerId}`)?.dueAt).to.equal(
      Date.parse('2026-11-27T14:00:00.000Z'),
    );
  });

  it('takes leadHours from 0 to 720, fractions too, and refuses -0.5, 720.5 and text naming leadHours', async () => {
    const eventId = await event({ date: '2027-01-30', time: '12:00' });
    for (const bad of [-0.5, 720.5, 'soon', null]) {
      const r = await server.api.post('/checks', { eventId, leadHours: bad, task: 't' });
      expect(r.status, String(bad)).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['leadHours']);
    }
    for (const [good, runAt] of [
      [0, '2027-01-30T11:00:00.000Z'],
      [720, '2026-12-31T11:00:00.000Z'],
      [1.5, '2027-01-30T09:30:00.000Z'],
    ] as const) {
      const r = await server.api.post('/checks', { eventId, leadHours: good, task: 't' });
      expect(r.status, String(good)).to.equal(201);
      expect(r.body.runAt).to.equal(runAt);
    }
  });

  it('refuses a missing task or eventId (400), an unknown event (404) and an event with nothing to come (409)', async () => {
    expect(
      (await server.api.post('/checks', { leadHours: 1, task: 't' })).body.issues[0].path,
    ).to.deep.equal(['eventId']);
    expect(
      (await server.api.post('/checks', { eventId: 'ent_x', leadHours: 1 })).body.issues[0].path,
    ).to.deep.equal(['task']);
    expect(
      (await server.api.post('/checks', { eventId: 'ent_x', leadHours: 1, task: '  ' })).body
        .issues[0].path,
    ).to.deep.equal(['task']);
    const unknown = await server.api.post('/checks', {
      eventId: 'ent_00000000000000000000',
      leadHours: 1,
      task: 't',
    });
    expect(unknown.status).to.equal(404);
    const past = await event({ date: '2026-11-01', time: '10:00' });
    const r = await server.api.post('/checks', { eventId: past, leadHours: 1, task: 't' });
    expect(r.status).to.equal(409);
    expect(r.body.code).to.equal('conflict');
  });

  it('fires once at its run time with the task as title and the check as trigger', async () => {
    const eventId = await event({ date: '2026-11-25', time: '18:30', where: 'Pool' });
    const check = (
      await server.api.post('/checks', { eventId, leadHours: 2, task: 'Pack the bag' })
    ).body;
    await runAt('2026-11-25T15:29:59.000Z');
    expect(await sent(check.triggerId)).to.have.length(0);
    await runAt('2026-11-25T15:30:00.000Z');
    await server.daemon.scheduler.runDue();
    const n = await sent(check.triggerId);
    expect(n.map((x: any) => [x.kind, x.title, x.body, x.eventId, x.occurrenceDate])).to.deep.equal(
      [['check', 'Pack the bag', 'Swimming · Today 6:30 PM', eventId, '2026-11-25']],
    );
    expect(jobs().find((j) => j.id === `check:${check.triggerId}`)).to.equal(undefined);
    await runAt('2026-11-25T18:00:00.000Z');
    expect(await sent(check.triggerId)).to.have.length(1);
  });

  it('follows its event when it moves and is gone when it is deleted', async () => {
    const eventId = await event({ date: '2026-11-26', time: '10:00' });
    const check = (
      await server.api.post('/checks', { eventId, leadHours: 3, task: 'Call the coach' })
    ).body;
    expect(check.runAt).to.equal('2026-11-26T06:00:00.000Z');
    // The event moves a day later: the check moves with it in the same write.
    await server.api.patch(`/calendar/events/${eventId}`, { date: '2026-11-27', time: '11:00' });
    expect(jobs().find((j) => j.id === `check:${check.triggerId}`)?.dueAt).to.equal(
      Date.parse('2026-11-27T07:00:00.000Z'),
    );
    await runAt('2026-11-26T06:00:00.000Z');
    expect(await sent(check.triggerId)).to.have.length(0);
    await runAt('2026-11-27T07:00:00.000Z');
    expect((await sent(check.triggerId)).map((n: any) => n.title)).to.deep.equal([
      'Call the coach',
    ]);

    clock.set('2026-11-22T08:30:00.000Z');
    const other = await event({ date: '2026-11-29', time: '10:00' });
    const gone = (await server.api.post('/checks', { eventId: other, leadHours: 1, task: 'Never' }))
      .body;
    await server.api.delete(`/calendar/events/${other}`);
    expect(jobs().find((j) => j.id === `check:${gone.triggerId}`)).to.equal(undefined);
    await runAt('2026-11-29T09:00:00.000Z');
    expect(await sent(gone.triggerId)).to.have.length(0);
  });

  it('runs at once when the event starts sooner than leadHours, and looks at the next occurrence of a series', async () => {
    const soon = await event({ date: '2026-11-22', time: '12:00' });
    const now = (await server.api.post('/checks', { eventId: soon, leadHours: 24, task: 'Now' }))
      .body;
    expect(now.runAt).to.equal('2026-11-22T08:30:00.000Z');
    await server.daemon.scheduler.runDue();
    expect((await sent(now.triggerId)).map((n: any) => n.title)).to.deep.equal(['Now']);
    // A weekly series that began last week: the check is ahead of its next occurrence.
    const series = await event({ date: '2026-11-16', time: '18:00', repeatFrequency: 'weekly' });
    const next = (
      await server.api.post('/checks', { eventId: series, leadHours: 1, task: 'Weekly' })
    ).body;
    expect(next).to.include({ runAt: '2026-11-23T16:00:00.000Z', occurrenceDate: '2026-11-23' });
  });
});

/**
 * Events in a zone of their own (`timeZone`), through the real server on a fake clock, for a
 * family in Berlin and events in New York — two zones whose clocks change on different dates
 * (2026: the US on 8 March and 1 November, the EU on 29 March and 25 October): the field on the
 * wire (IANA, Windows names, case, null), `startsAt` of every listed occurrence across both
 * changes, the family's days in windows, excludeEnded, an all-day event, an edit of one
 * occurrence, reminders at the true instants with the family's time in their text, the display,
 * plans and context on the family's clock, a family zone change, the share feed and exports.
 */
import { expect } from 'chai';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { exportFamily, importFamily } from '../../src/store/portable.js';

const NY = 'America/New_York';

describe('calendar events with their own timeZone', function () {
  this.timeout(30_000);
  const clock = new FakeClock('2026-02-20T12:00:00.000Z');
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());

  let families = 0;
  /** A family of its own per test (Berlin unless told), so listings and agendas do not mix. */
  async function family(timezone = 'Europe/Berlin') {
    const slug = `zones-${++families}`;
    const { client } = await server.family(slug, { timezone });
    const id = server.daemon.store.getFamilyBySlug(slug)!.id;
    return {
      api: client,
      slug,
      jobs: () => server.daemon.store.familyJobs(id).filter((j) => j.kind !== 'notify.prune'),
    };
  }
  async function create(api: Client, body: Record<string, unknown>): Promise<string> {
    const r = await api.post('/calendar/events', { responsibilityRequired: false, ...body });
    expect(r.status, r.text).to.equal(201);
    return r.body.entryId;
  }
  async function list(api: Client, query: string): Promise<any[]> {
    const r = await api.get(`/calendar/events?limit=50&${query}`);
    expect(r.status, r.text).to.equal(200);
    return r.body.events;
  }
  async function runAt(at: string): Promise<void> {
    clock.set(at);
    await server.daemon.scheduler.runDue();
  }

  describe('the timeZone field', () => {
    it('is kept as an IANA name (Windows names mapped, case fixed), shown beside date and time, and PATCH null gives the event back to the family', async () => {
      const { api } = await family();
      const id = await create(api, {
        title: 'Call',
        date: '2026-03-10',
        time: '09:00',
        timeZone: 'Eastern Standard Time',
      });
      const made = (await list(api, 'from=2026-03-10&to=2026-03-10'))[0];
      expect(made.data).to.include({ date: '2026-03-10', time: '09:00', timeZone: NY });
      expect(made.startsAt).to.equal('2026-03-10T13:00:00.000Z'); // 09:00 EDT
      const berlin = await api.patch(`/calendar/events/${id}`, {
        timeZone: 'W. Europe Standard Time',
      });
      expect(berlin.body.event.data.timeZone).to.equal('Europe/Berlin');
      const cased = await api.patch(`/calendar/events/${id}`, { timeZone: 'asia/tokyo' });
      expect(cased.body.event.data.timeZone).to.equal('Asia/Tokyo');
      expect(cased.body.event.startsAt).to.equal('2026-03-10T00:00:00.000Z'); // 09:00 JST
      const back = await api.patch(`/calendar/events/${id}`, { timeZone: null });
      expect(back.status, back.text).to.equal(200);
      expect(back.body.event.data).to.not.have.property('timeZone');
      expect(back.body.event.startsAt).to.equal('2026-03-10T08:00:00.000Z'); // 09:00 CET
    });

    it('refuses a name that is no zone, or an offset, with 400 naming timeZone, and writes nothing', async () => {
      const { api } = await family();
      for (const timeZone of ['Mars/Olympus_Mons', '+01:00', 'Eastern Time']) {
        const r = await api.post('/calendar/events', {
          title: 'Nowhere',
          date: '2026-03-10',
          time: '09:00',
          timeZone,
        });
        expect(r.status, timeZone).to.equal(400);
        expect(r.body.code).to.equal('invalid_request');
        expect(r.body.issues.map((i: { path: unknown[] }) => i.path)).to.deep.equal([['timeZone']]);
      }
      const wrongType = await api.post('/calendar/events', {
        title: 'Nowhere',
        date: '2026-03-10',
        timeZone: 5,
      });
      expect(wrongType.status).to.equal(400);
      expect(wrongType.body.issues[0].path).to.deep.equal(['timeZone']);
      expect(await list(api, 'from=2026-03-01&to=2026-03-31')).to.deep.equal([]);
    });
  });

  describe('a weekly series in New York on a Berlin family', () => {
    const weekly = {
      title: 'Standup',
      date: '2026-03-02',
      time: '09:00',
      endTime: '09:30',
      timeZone: NY,
      repeatFrequency: 'weekly',
    };

    it('lists each week at 09:00 as written with the right startsAt across the March changes of both zones', async () => {
      const { api } = await family();
      await create(api, weekly);
      const march = await list(api, 'from=2026-03-01&to=2026-04-07');
      expect(
        march.map((e) => [e.occurrenceDate, e.data.time, e.data.timeZone, e.startsAt]),
      ).to.deep.equal([
        ['2026-03-02', '09:00', NY, '2026-03-02T14:00:00.000Z'], // EST, CET: 15:00 in Berlin
        ['2026-03-09', '09:00', NY, '2026-03-09T13:00:00.000Z'], // EDT, CET: 14:00
        ['2026-03-16', '09:00', NY, '2026-03-16T13:00:00.000Z'],
        ['2026-03-23', '09:00', NY, '2026-03-23T13:00:00.000Z'],
        ['2026-03-30', '09:00', NY, '2026-03-30T13:00:00.000Z'], // EDT, CEST: 15:00 again
        ['2026-04-06', '09:00', NY, '2026-04-06T13:00:00.000Z'],
      ]);
    });

    it('lists the October and November weeks right across the EU change (25 Oct) and the US one (1 Nov)', async () => {
      const { api } = await family();
      await create(api, weekly);
      const autumn = await list(api, 'from=2026-10-12&to=2026-11-10');
      expect(autumn.map((e) => [e.occurrenceDate, e.startsAt])).to.deep.equal([
        ['2026-10-12', '2026-10-12T13:00:00.000Z'], // EDT, CEST: 15:00 in Berlin
        ['2026-10-19', '2026-10-19T13:00:00.000Z'],
        ['2026-10-26', '2026-10-26T13:00:00.000Z'], // EDT, CET: 14:00
        ['2026-11-02', '2026-11-02T14:00:00.000Z'], // EST, CET: 15:00
        ['2026-11-09', '2026-11-09T14:00:00.000Z'],
      ]);
    });

    it('fires its reminders at the true instants, showing the family its own time, and moves on week by week', async () => {
      clock.set('2026-03-01T12:00:00.000Z');
      const { api, jobs } = await family();
      const id = await create(api, { ...weekly, reminders: [{ offsetMinutes: 30 }] });
      const due = () =>
        jobs()
          .filter((j) => j.kind === 'notify.reminder')
          .map((j) => [new Date(j.dueAt).toISOString(), j.data.occurrenceDate]);
      const expected = [
        ['2026-03-02T13:30:00.000Z', '2026-03-02'],
        ['2026-03-09T12:30:00.000Z', '2026-03-09'],
        ['2026-03-16T12:30:00.000Z', '2026-03-16'],
        ['2026-03-23T12:30:00.000Z', '2026-03-23'],
        ['2026-03-30T12:30:00.000Z', '2026-03-30'],
      ];
      for (const [at, date] of expected) {
        expect(due()).to.deep.equal([[at, date]]);
        await runAt(new Date(Date.parse(at) - 60_000).toISOString());
        expect(due(), 'not a minute early').to.deep.equal([[at, date]]);
        await runAt(at);
      }
      const sent = (await api.get('/notifications?limit=50')).body.notifications
        .filter((n: any) => n.kind === 'reminder')
        .reverse();
      expect(sent.map((n: any) => [n.occurrenceDate, n.createdAt, n.body])).to.deep.equal([
        ['2026-03-02', '2026-03-02T13:30:00.000Z', 'Today 3:00 PM'],
        ['2026-03-09', '2026-03-09T12:30:00.000Z', 'Today 2:00 PM'],
        ['2026-03-16', '2026-03-16T12:30:00.000Z', 'Today 2:00 PM'],
        ['2026-03-23', '2026-03-23T12:30:00.000Z', 'Today 2:00 PM'],
        ['2026-03-30', '2026-03-30T12:30:00.000Z', 'Today 3:00 PM'],
      ]);
      expect(sent.every((n: any) => n.eventId === id)).to.equal(true);
    });

    it('fires reminders, leave-by and a check at the true instants around the autumn changes', async () => {
      clock.set('2026-10-20T12:00:00.000Z');
      const { api, jobs } = await family();
      const id = await create(api, {
        ...weekly,
        reminders: [{ offsetMinutes: 60 }],
        travelPlan: { origin: 'Hotel', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
      });
      const check = await api.post('/checks', { eventId: id, leadHours: 2, task: 'Print notes' });
      expect(check.status, check.text).to.equal(201);
      expect(check.body.runAt).to.equal('2026-10-26T11:00:00.000Z'); // 09:00 EDT − 2 h
      const kinds = () =>
        Object.fromEntries(
          jobs()
            .filter((j) => j.kind !== 'notify.coverage')
            .map((j) => [j.kind, new Date(j.dueAt).toISOString()]),
        );
      expect(kinds()).to.deep.equal({
        'notify.reminder': '2026-10-26T12:00:00.000Z',
        'notify.leaveBy': '2026-10-26T12:30:00.000Z',
        'notify.check': '2026-10-26T11:00:00.000Z',
      });
      await runAt('2026-10-26T11:00:00.000Z');
      await runAt('2026-10-26T12:00:00.000Z');
      await runAt('2026-10-26T12:30:00.000Z');
      // The next week is after the US change: 09:00 EST is 14:00 UTC.
      expect(kinds()).to.deep.include({
        'notify.reminder': '2026-11-02T13:00:00.000Z',
        'notify.leaveBy': '2026-11-02T13:30:00.000Z',
      });
      const sent = (await api.get('/notifications?limit=50')).body.notifications.reverse();
      expect(sent.map((n: any) => [n.kind, n.title, n.body])).to.deep.equal([
        ['check', 'Print notes', 'Standup · Today 2:00 PM'],
        ['reminder', 'Standup', 'Today 2:00 PM · leave by 1:30 PM'],
        ['leave_by', 'Leave now for Standup', 'From Hotel · arrive by 1:50 PM'],
      ]);
    });

    it("plans the coverage alert 48 hours before the true start, and says the family's time", async () => {
      clock.set('2026-03-01T12:00:00.000Z');
      const { api, jobs } = await family();
      const r = await api.post('/calendar/events', {
        title: 'NY pickup',
        date: '2026-03-10',
        time: '09:00',
        timeZone: NY,
      });
      expect(r.status, r.text).to.equal(201);
      const coverage = jobs().find((j) => j.kind === 'notify.coverage')!;
      expect(new Date(coverage.dueAt).toISOString()).to.equal('2026-03-08T13:00:00.000Z');
      await runAt('2026-03-08T13:00:00.000Z');
      const [alert] = (await api.get('/notifications?limit=5')).body.notifications;
      expect(alert).to.include({
        kind: 'coverage_alert',
        title: 'Nobody is responsible for NY pickup',
        body: 'Tue, Mar 10 2:00 PM',
      });
    });

    it('changes one occurrence (editScope=occurrence) in the series zone: listed, timed and reminded at its own instant', async () => {
      clock.set('2026-03-01T12:00:00.000Z');
      const { api, jobs } = await family();
      const id = await create(api, { ...weekly, reminders: [{ offsetMinutes: 15 }] });
      const moved = await api.patch(`/calendar/events/${id}`, {
        editScope: 'occurrence',
        occurrenceDate: '2026-03-02',
        time: '11:00',
        endTime: '11:30',
      });
      expect(moved.status, moved.text).to.equal(200);
      expect(moved.body.event).to.include({
        occurrenceDate: '2026-03-02',
        startsAt: '2026-03-02T16:00:00.000Z',
      });
      expect(moved.body.event.data).to.include({ time: '11:00', timeZone: NY });
      const listed = await list(api, 'from=2026-03-01&to=2026-03-10');
      expect(listed.map((e) => [e.occurrenceDate, e.data.time, e.startsAt])).to.deep.equal([
        ['2026-03-02', '11:00', '2026-03-02T16:00:00.000Z'],
        ['2026-03-09', '09:00', '2026-03-09T13:00:00.000Z'],
      ]);
      expect(
        jobs()
          .filter((j) => j.kind === 'notify.reminder')
          .map((j) => new Date(j.dueAt).toISOString()),
      ).to.deep.equal(['2026-03-02T15:45:00.000Z']);
      // The zone is the series': one occurrence cannot take another.
      const other = await api.patch(`/calendar/events/${id}`, {
        editScope: 'occurrence',
        occurrenceDate: '2026-03-09',
        timeZone: 'Europe/Berlin',
      });
      expect(other.status).to.equal(400);
      expect(other.body.issues[0].path).to.deep.equal(['timeZone']);
    });
  });

  describe("windows, order and excludeEnded on the family's days", () => {
    it("places an evening in New York on the next day of the Berlin family's calendar, in the order of the family's clock", async () => {
      const { api } = await family();
      await create(api, { title: 'NY dinner', date: '2026-03-09', time: '20:00', timeZone: NY });
      await create(api, { title: 'Night owl', date: '2026-03-10', time: '00:30' });
      await create(api, { title: 'Breakfast', date: '2026-03-10', time: '08:00' });
      await create(api, { title: 'Birthday', date: '2026-03-10', allDay: true });
      const tenth = await list(api, 'from=2026-03-10&to=2026-03-10');
      // 20:00 EDT on the 9th is 00:00 UTC, 01:00 in Berlin on the 10th.
      expect(tenth.map((e) => [e.title, e.data.date, e.data.time, e.startsAt])).to.deep.equal([
        ['Birthday', '2026-03-10', null, '2026-03-09T23:00:00.000Z'],
        ['Night owl', '2026-03-10', '00:30', '2026-03-09T23:30:00.000Z'],
        ['NY dinner', '2026-03-09', '20:00', '2026-03-10T00:00:00.000Z'],
        ['Breakfast', '2026-03-10', '08:00', '2026-03-10T07:00:00.000Z'],
      ]);
      expect((await list(api, 'from=2026-03-09&to=2026-03-09')).map((e) => e.title)).to.deep.equal(
        [],
      );
      // Unexpanded listings with one bound read the same days.
      expect((await list(api, 'from=2026-03-10')).map((e) => e.title)).to.include('NY dinner');
      expect((await list(api, 'to=2026-03-09')).map((e) => e.title)).to.deep.equal([]);
      // Pages continue in the same order.
      const first = await api.get('/calendar/events?from=2026-03-10&to=2026-03-10&limit=2');
      const rest = await api.get(
        `/calendar/events?from=2026-03-10&to=2026-03-10&limit=2&cursor=${first.body.nextCursor}`,
      );
      expect([...first.body.events, ...rest.body.events].map((e: any) => e.title)).to.deep.equal(
        tenth.map((e) => e.title),
      );
    });

    it('leaves out with excludeEnded what is over at its true instant, whatever the two clocks say', async () => {
      const { api } = await family();
      await create(api, {
        title: 'NY meeting',
        date: '2026-03-10',
        time: '09:00',
        endTime: '10:00',
        timeZone: NY,
      }); // 13:00–14:00 UTC
      await create(api, { title: 'Berlin lunch', date: '2026-03-10', time: '13:30' }); // 12:30–13:30 UTC
      const open = async () =>
        (await list(api, 'from=2026-03-10&to=2026-03-10&excludeEnded=true')).map((e) => e.title);
      clock.set('2026-03-10T13:15:00.000Z');
      expect(await open()).to.deep.equal(['Berlin lunch', 'NY meeting']);
      clock.set('2026-03-10T13:45:00.000Z');
      expect(await open()).to.deep.equal(['NY meeting']);
      clock.set('2026-03-10T14:00:00.000Z');
      expect(await open()).to.deep.equal([]);
    });

    it('lists an all-day event of another zone on its own date, starting and ending at midnight of that zone', async () => {
      const { api } = await family();
      await create(api, {
        title: 'Tokyo holiday',
        date: '2026-03-20',
        allDay: true,
        timeZone: 'Asia/Tokyo',
      });
      await create(api, { title: 'Berlin holiday', date: '2026-03-20', allDay: true });
      const day = await list(api, 'from=2026-03-20&to=2026-03-20');
      expect(day.map((e) => [e.title, e.data.date, e.data.allDay, e.startsAt])).to.deep.equal([
        ['Berlin holiday', '2026-03-20', true, '2026-03-19T23:00:00.000Z'],
        ['Tokyo holiday', '2026-03-20', true, '2026-03-19T15:00:00.000Z'],
      ]);
      expect(await list(api, 'from=2026-03-19&to=2026-03-19')).to.deep.equal([]);
      // Midnight in Tokyo after the 20th is 15:00 UTC on the 20th: over, the Berlin one is not.
      clock.set('2026-03-20T15:30:00.000Z');
      expect(
        (await list(api, 'from=2026-03-20&to=2026-03-20&excludeEnded=true')).map((e) => e.title),
      ).to.deep.equal(['Berlin holiday']);
    });
  });

  it("a family zone change leaves a New York event at the same instant and moves the family's own events with it", async () => {
    clock.set('2026-03-01T12:00:00.000Z');
    const { api, jobs } = await family();
    const ny = await create(api, {
      title: 'NY call',
      date: '2026-03-10',
      time: '09:00',
      timeZone: NY,
      reminders: [{ offsetMinutes: 10 }],
    });
    await create(api, { title: 'Home call', date: '2026-03-10', time: '09:00' });
    const reminderOf = () =>
      jobs().find((j) => j.kind === 'notify.reminder' && j.data.eventId === ny)?.dueAt;
    const before = reminderOf();
    expect(new Date(before!).toISOString()).to.equal('2026-03-10T12:50:00.000Z');
    expect((await api.patch('', { timezone: 'Asia/Tokyo' })).status).to.equal(200);
    const after = await list(api, 'from=2026-03-10&to=2026-03-11');
    expect(after.map((e) => [e.title, e.data.time, e.startsAt])).to.deep.equal([
      ['Home call', '09:00', '2026-03-10T00:00:00.000Z'], // now 09:00 in Tokyo
      ['NY call', '09:00', '2026-03-10T13:00:00.000Z'], // 22:00 in Tokyo, where it was
    ]);
    expect(reminderOf()).to.equal(before);
  });

  it("the display, plans, context and routine texts show an event of another zone at the family's time", async () => {
    clock.set('2026-03-09T06:00:00.000Z'); // 07:00 in Berlin, Monday
    const { api } = await family();
    const call = await create(api, {
      title: 'NY call',
      date: '2026-03-09',
      time: '09:00',
      endTime: '10:00',
      timeZone: NY,
      travelPlan: { origin: 'Office', baseTravelMinutes: 15 },
    });
    await create(api, { title: 'NY dinner', date: '2026-03-09', time: '20:00', timeZone: NY });
    const display = await api.post('/displays', { name: 'Hall' });
    expect(display.status, display.text).to.equal(201);
    const content = (
      await server.http.get(`/display/${display.body.token}`, {
        headers: { accept: 'application/json' },
      })
    ).body;
    const shown = content.days
      .slice(0, 2)
      .map((d: any) => [d.date, d.events.map((e: any) => [e.title, e.time, e.endTime, e.leaveBy])]);
    expect(shown).to.deep.equal([
      ['2026-03-09', [['NY call', '14:00', '15:00', '13:45']]],
      ['2026-03-10', [['NY dinner', '01:00', null, null]]],
    ]);

    const plan = (await api.post('/plans', { title: 'Pitch' })).body.planId;
    await api.post(`/plans/${plan}/events`, { eventId: call });
    const detail = (await api.get(`/plans/${plan}`)).body;
    expect(detail.events[0].timing).to.deep.equal({
      date: '2026-03-09',
      endDate: '2026-03-09',
      kind: 'timed',
      time: '14:00',
      endTime: '15:00',
    });

    const overview = (await api.get('/context')).body.results.filter(
      (r: any) => r.type === 'event',
    );
    expect(overview.map((r: any) => [r.title, r.date, r.time])).to.deep.equal([
      ['NY call', '2026-03-09', '14:00'],
      ['NY dinner', '2026-03-10', '01:00'],
    ]);
    const found = (await api.get('/context?query=dinner')).body.results[0];
    expect(found).to.include({ title: 'NY dinner', date: '2026-03-10', time: '01:00' });

    const routine = await api.post('/notification-routines', {
      cron: '0 8 * * *',
      mode: 'contextual',
    });
    expect(routine.status, routine.text).to.equal(201);
    await runAt('2026-03-09T07:00:00.000Z'); // 08:00 in Berlin
    const briefing = (await api.get('/notifications?limit=5')).body.notifications[0];
    expect(briefing.body).to.include('- 2:00 PM NY call (leave by 1:45 PM)');
    expect(briefing.body).to.include('Tomorrow (Tue, Mar 10):\n- 1:00 AM NY dinner');
  });

  it('the share feed writes each event in its own zone with a VTIMEZONE for it', async () => {
    const { api } = await family();
    await create(api, {
      title: 'Standup',
      date: '2026-03-02',
      time: '09:00',
      timeZone: NY,
      repeatFrequency: 'weekly',
    });
    await create(api, { title: 'Swim', date: '2026-03-03', time: '17:00' });
    const share = await api.post('/calendar/shares', { name: 'All' });
    expect(share.status, share.text).to.equal(201);
    const feed = (await server.http.get(new URL(share.body.url).pathname)).text;
    const lines = feed.replace(/\r\n /g, '').split('\r\n');
    expect(lines).to.include.members([
      'X-WR-TIMEZONE:Europe/Berlin',
      'TZID:Europe/Berlin',
      'TZID:America/New_York',
      'DTSTART;TZID=America/New_York:20260302T090000',
      'RRULE:FREQ=WEEKLY;BYDAY=MO',
      'DTSTART;TZID=Europe/Berlin:20260303T170000',
    ]);
    expect(lines.filter((l) => l === 'BEGIN:VTIMEZONE')).to.have.length(2);
  });

  it('MCP tools take timeZone from the REST struct and answer startsAt', async () => {
    const { slug } = await family();
    const key = await server.key({ slug, scopes: ['write'] });
    const mcp = new McpClient({ name: 'zones-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      const create = tools.find((t) => t.name === 'create_event')!;
      expect(create.inputSchema.properties).to.have.property('timeZone');
      expect(create.description).to.include('timeZone');
      const made = (await mcp.callTool({
        name: 'create_event',
        arguments: { title: 'NY call', date: '2026-03-10', time: '09:00', timeZone: NY },
      })) as { isError?: boolean; structuredContent?: any };
      expect(made.isError).to.not.equal(true);
      const listed = (await mcp.callTool({
        name: 'list_events',
        arguments: { from: '2026-03-10', to: '2026-03-10' },
      })) as { structuredContent?: any };
      expect(listed.structuredContent.events[0]).to.include({
        title: 'NY call',
        startsAt: '2026-03-10T13:00:00.000Z',
      });
    } finally {
      await mcp.close();
    }
  });

  it('reads an imported event whose timeZone names no zone in the family zone instead of failing', async () => {
    const { api, slug } = await family();
    await create(api, { title: 'Odd', date: '2026-03-10', time: '09:00', timeZone: NY });
    const exported = JSON.parse(
      JSON.stringify(exportFamily(server.daemon.store, slug, clock.now())),
    ) as ReturnType<typeof exportFamily>;
    for (const r of exported.records as { value: any }[])
      if (r.value?.title === 'Odd' && r.value?.data) r.value.data.timeZone = 'Not/A_Zone';
    const other = await startTestServer({ now: clock.now, timezone: 'UTC' });
    try {
      await importFamily(other.daemon.store, exported);
      const key = await other.key({ slug, scopes: ['read'] });
      const r = await other.http.get(
        `/api/v1/families/${slug}/calendar/events?from=2026-03-10&to=2026-03-10`,
        { key },
      );
      expect(r.status, r.text).to.equal(200);
      expect(r.body.events[0].startsAt).to.equal('2026-03-10T08:00:00.000Z'); // Berlin's 09:00
      const feed = await other.http.post(
        `/api/v1/families/${slug}/calendar/shares`,
        { name: 'x' },
        { key: await other.key({ slug, scopes: ['admin'] }) },
      );
      expect(feed.status, feed.text).to.equal(201);
      const text = (await other.http.get(new URL(feed.body.url).pathname)).text;
      expect(text).to.include('DTSTART;TZID=Europe/Berlin:20260310T090000');
    } finally {
      await other.close();
    }
  });

  it('an export carries the zone and an import restores it', async () => {
    const { api, slug } = await family();
    await create(api, { title: 'NY call', date: '2026-03-10', time: '09:00', timeZone: NY });
    const exported = exportFamily(server.daemon.store, slug, clock.now());
    const record = exported.records.find(
      (r: any) => r.value?.title === 'NY call' && r.value?.data,
    ) as any;
    expect(record.value.data.timeZone).to.equal(NY);
    const other = await startTestServer({ now: clock.now, timezone: 'UTC' });
    try {
      await importFamily(other.daemon.store, JSON.parse(JSON.stringify(exported)));
      const key = await other.key({ slug, scopes: ['read'] });
      const r = await other.http.get(
        `/api/v1/families/${slug}/calendar/events?from=2026-03-10&to=2026-03-10`,
        { key },
      );
      expect(r.body.events.map((e: any) => [e.data.timeZone, e.startsAt])).to.deep.equal([
        [NY, '2026-03-10T13:00:00.000Z'],
      ]);
    } finally {
      await other.close();
    }
  });
});

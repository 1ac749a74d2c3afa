import { expect } from 'chai';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { FakeClock } from '../helpers/clock.js';

const EVENTS = '/api/v1/families/{familySlug}/calendar/events';
const EVENT = '/api/v1/families/{familySlug}/calendar/events/{eventId}';

describe('calendar events over HTTP', () => {
  let server: TestServer;
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());
  afterEach(() => clock.set('2026-11-22T08:30:00.000Z'));

  /** A family of its own, so a test sees only its own events. */
  let n = 0;
  async function fresh(timezone = 'Europe/Berlin'): Promise<Client> {
    return (await server.family(`cal-${++n}`, { timezone })).client;
  }

  async function create(api: Client, body: Record<string, unknown>): Promise<string> {
    const r = await api.post('/calendar/events', { title: 'Event', date: '2026-12-01', ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.entryId;
  }

  /** Every listed item (following nextCursor) as "occurrenceDate|date|time|title". */
  async function listAll(api: Client, qs: string): Promise<any[]> {
    const out: any[] = [];
    let cursor = '';
    for (let i = 0; i < 100; i++) {
      const r = await api.get(
        `/calendar/events?limit=50&${qs}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      out.push(...r.body.events);
      if (!r.body.nextCursor) return out;
      cursor = r.body.nextCursor;
    }
    throw new Error('the list did not end');
  }
  const dates = (events: any[]) => events.map((e) => e.data.date);

  async function changes(api: Client, after = 0): Promise<any[]> {
    return (await api.get(`/changes?after=${after}&limit=500`)).body.changes;
  }

  describe('POST /calendar/events', () => {
    it('creates an event stored as an entry of the calendar, normalizing times and filling defaults', async () => {
      const api = await fresh();
      const r = await api.post('/calendar/events', {
        title: 'Swimming',
        date: '2026-11-24',
        time: '4:30 PM',
        durationMinutes: 45,
        where: 'City pool',
        repeatFrequency: 'weekly',
        reminders: [
          { offsetMinutes: 60 },
          { offsetMinutes: 0, channels: ['push', 'email'], mode: 'contextual' },
        ],
        travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
        data: { kit: 'goggles' },
      });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({ ok: true, title: 'Swimming' });
      expect(r.body.entryId).to.match(/^ent_[0-9a-z]{20}$/);
      await conforms(server, r, 'post', EVENTS);
      expect(r.body.event.data).to.deep.include({
        date: '2026-11-24',
        time: '16:30',
        endDate: null,
        endTime: null,
        allDay: false,
        kit: 'goggles',
        travelPlan: {
          origin: 'Home',
          baseTravelMinutes: 20,
          arriveEarlyMinutes: 10,
          leaveAt: '2026-11-24T16:00',
        },
      });
      expect(r.body.event.data.reminders).to.deep.equal([
        {
          offsetMinutes: 60,
          audience: 'household',
          channels: ['in_app'],
          mode: 'plain',
          recipientPersonIds: [],
        },
        {
          offsetMinutes: 0,
          audience: 'household',
          channels: ['push', 'email'],
          mode: 'contextual',
          recipientPersonIds: [],
        },
      ]);
      // Persisted: the calendar's entries show it, and the change log has it.
      const entries = await api.get('/trackers/calendar/entries');
      expect(entries.body.entries.map((e: any) => e.id)).to.deep.equal([r.body.entryId]);
      expect(entries.body.entries[0].data).to.include({
        date: '2026-11-24',
        time: '16:30',
        repeatFrequency: 'weekly',
      });
      const log = await changes(api);
      expect(log.map((c) => c.type)).to.deep.equal(['calendar.event.created']);
      expect(log[0].object).to.include({
        id: r.body.entryId,
        title: 'Swimming',
        calendarKey: 'calendar',
      });
    });

    it('refuses unknown fields, unknown calendars, unknown people and inconsistent timing', async () => {
      const api = await fresh();
      const cases: [Record<string, unknown>, (string | number)[]][] = [
        [{ colour: 'red' }, ['colour']],
        [{ calendarKey: 'nope' }, ['calendarKey']],
        [{ calendarKey: 'meals' }, ['calendarKey']],
        [{ ownerPersonId: 'person_nobody' }, ['ownerPersonId']],
        [{ responsiblePersonIds: ['person_nobody'] }, ['responsiblePersonIds', 0]],
        [{ responsiblePersonIds: [''] }, ['responsiblePersonIds', 0]],
        [{ endDate: '2026-11-30' }, ['endDate']],
        [{ time: '10:00', endTime: '09:59' }, ['endTime']],
        [{ allDay: true, time: '10:00' }, ['time']],
        [{ repeatDays: [1] }, ['repeatDays']],
        [{ repeatFrequency: 'custom' }, ['repeatDays']],
        [{ time: '25:00' }, ['time']],
        [{ title: '' }, ['title']],
        [{ everyoneAttendance: 'sometimes' }, ['everyoneAttendance']],
      ];
      for (const [body, path] of cases) {
        const r = await api.post('/calendar/events', { title: 'E', date: '2026-12-01', ...body });
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.code).to.equal('invalid_request');
        expect(
          r.body.issues.map((i: any) => i.path),
          JSON.stringify(body),
        ).to.deep.include(path);
      }
      expect(await changes(api)).to.have.length(0);
      expect((await api.get('/calendar/events')).body.events).to.have.length(0);
    });

    it('holds every limit at its boundary', async () => {
      const api = await fresh();
      const timed = { time: '10:00' };
      const cases: [string, Record<string, unknown>, boolean][] = [
        ['durationMinutes 14', { ...timed, durationMinutes: 14 }, false],
        ['durationMinutes 15', { ...timed, durationMinutes: 15 }, true],
        ['durationMinutes 1440', { ...timed, durationMinutes: 1440 }, true],
        ['durationMinutes 1441', { ...timed, durationMinutes: 1441 }, false],
        ['offsetMinutes -1', { reminders: [{ offsetMinutes: -1 }] }, false],
        ['offsetMinutes 0', { reminders: [{ offsetMinutes: 0 }] }, true],
        ['offsetMinutes 20160', { reminders: [{ offsetMinutes: 20160 }] }, true],
        ['offsetMinutes 20161', { reminders: [{ offsetMinutes: 20161 }] }, false],
        ['repeatInterval 0', { repeatFrequency: 'daily', repeatInterval: 0 }, false],
        ['repeatInterval 1', { repeatFrequency: 'daily', repeatInterval: 1 }, true],
        ['repeatInterval 52', { repeatFrequency: 'daily', repeatInterval: 52 }, true],
        ['repeatInterval 53', { repeatFrequency: 'daily', repeatInterval: 53 }, false],
        ['repeatDays -1', { repeatFrequency: 'weekly', repeatDays: [-1] }, false],
        ['repeatDays 0 and 6', { repeatFrequency: 'weekly', repeatDays: [0, 6] }, true],
        ['repeatDays 7', { repeatFrequency: 'weekly', repeatDays: [7] }, false],
        ['origin 0 chars', { travelPlan: { origin: '', baseTravelMinutes: 10 } }, false],
        ['origin 1 char', { travelPlan: { origin: 'x', baseTravelMinutes: 10 } }, true],
        [
          'origin 240 chars',
          { travelPlan: { origin: 'x'.repeat(240), baseTravelMinutes: 10 } },
          true,
        ],
        [
          'origin 241 chars',
          { travelPlan: { origin: 'x'.repeat(241), baseTravelMinutes: 10 } },
          false,
        ],
        ['baseTravelMinutes 0', { travelPlan: { origin: 'x', baseTravelMinutes: 0 } }, false],
        ['baseTravelMinutes 1440', { travelPlan: { origin: 'x', baseTravelMinutes: 1440 } }, true],
        ['baseTravelMinutes 1441', { travelPlan: { origin: 'x', baseTravelMinutes: 1441 } }, false],
        [
          'arriveEarlyMinutes 0',
          { travelPlan: { origin: 'x', baseTravelMinutes: 1, arriveEarlyMinutes: 0 } },
          true,
        ],
        [
          'arriveEarlyMinutes 720',
          { travelPlan: { origin: 'x', baseTravelMinutes: 1, arriveEarlyMinutes: 720 } },
          true,
        ],
        [
          'arriveEarlyMinutes 721',
          { travelPlan: { origin: 'x', baseTravelMinutes: 1, arriveEarlyMinutes: 721 } },
          false,
        ],
        ['date 2026-02-29', { date: '2026-02-29' }, false],
        ['date 2028-02-29', { date: '2028-02-29' }, true],
        ['date 2100-02-29', { date: '2100-02-29' }, false],
        ['endDate 2026-02-29', { date: '2026-02-01', endDate: '2026-02-29' }, false],
      ];
      let made = 0;
      for (const [name, body, ok] of cases) {
        const r = await api.post('/calendar/events', { title: name, date: '2026-12-01', ...body });
        expect(r.status, `${name}: ${JSON.stringify(r.body)}`).to.equal(ok ? 201 : 400);
        if (ok) {
          made++;
          // What was accepted is what is stored.
          for (const [k, v] of Object.entries(body)) {
            if (k === 'reminders')
              expect(r.body.event.data.reminders[0].offsetMinutes, name).to.equal(
                (v as any)[0].offsetMinutes,
              );
            else if (k === 'travelPlan')
              expect(r.body.event.data.travelPlan, name).to.deep.include(v);
            else expect(r.body.event.data[k], name).to.deep.equal(v);
          }
        } else {
          expect(r.body.issues.length, name).to.be.greaterThan(0);
        }
      }
      const listed = await listAll(api, '');
      expect(listed.map((e) => e.title).sort()).to.deep.equal(
        cases
          .filter((c) => c[2])
          .map((c) => c[0])
          .sort(),
      );
      expect(listed).to.have.length(made);
    });

    it('answers 403 to a read-only key and writes nothing', async () => {
      const key = await server.key({ scopes: ['read'] });
      const r = await server.api.post(
        '/calendar/events',
        { title: 'E', date: '2026-12-01' },
        { key },
      );
      expect(r.status).to.equal(403);
      const list = await server.api.get('/calendar/events', { key });
      expect(list.status).to.equal(200);
      expect(list.body.events.map((e: any) => e.title)).to.not.include('E');
    });
  });

  describe('GET /calendar/events', () => {
    it('validates its query: dates, limit 1..50, from after to, unknown parameters', async () => {
      const api = await fresh();
      await create(api, {});
      for (const [qs, path] of [
        ['limit=0', ['query', 'limit']],
        ['limit=51', ['query', 'limit']],
        ['from=2026-02-29', ['query', 'from']],
        ['from=2026-12-02&to=2026-12-01', ['query', 'from']],
        ['excludeEnded=maybe', ['query', 'excludeEnded']],
        ['sort=asc', ['query', 'sort']],
      ] as const) {
        const r = await api.get(`/calendar/events?${qs}`);
        expect(r.status, qs).to.equal(400);
        expect(
          r.body.issues.map((i: any) => i.path),
          qs,
        ).to.deep.include([...path]);
      }
      for (const qs of [
        'limit=1',
        'limit=50',
        'from=2028-02-29',
        'from=2026-12-01&to=2026-12-01',
      ]) {
        const r = await api.get(`/calendar/events?${qs}`);
        expect(r.status, qs).to.equal(200);
        await conforms(server, r, 'get', EVENTS);
      }
    });

    it('expands series with both bounds, sorts all-day first then time, and pages with nextCursor', async () => {
      const api = await fresh();
      const piano = await create(api, {
        title: 'Piano',
        date: '2026-12-01',
        time: '15:00',
        repeatFrequency: 'daily',
      });
      await create(api, { title: 'Breakfast', date: '2026-12-02', time: '07:30' });
      await create(api, { title: 'Holiday', date: '2026-12-02', endDate: '2026-12-03' });
      const r = await api.get('/calendar/events?from=2026-12-02&to=2026-12-03&limit=3');
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', EVENTS);
      expect(
        r.body.events.map((e: any) => [e.title, e.occurrenceDate, e.data.date, e.data.time]),
      ).to.deep.equal([
        ['Holiday', '2026-12-02', '2026-12-02', null],
        ['Breakfast', '2026-12-02', '2026-12-02', '07:30'],
        ['Piano', '2026-12-02', '2026-12-02', '15:00'],
      ]);
      expect(r.body.events[2].id).to.equal(piano);
      expect(r.body.nextCursor).to.be.a('string');
      const next = await api.get(
        `/calendar/events?from=2026-12-02&to=2026-12-03&limit=3&cursor=${encodeURIComponent(r.body.nextCursor)}`,
      );
      expect(next.body.events.map((e: any) => [e.title, e.occurrenceDate])).to.deep.equal([
        ['Piano', '2026-12-03'],
      ]);
      expect(next.body).to.not.have.property('nextCursor');
      // One bound: series unexpanded, in date order.
      const open = await api.get('/calendar/events?from=2026-12-03');
      expect(
        open.body.events.map((e: any) => [e.title, e.data.date, e.occurrenceDate]),
      ).to.deep.equal([
        ['Piano', '2026-12-01', undefined],
        ['Holiday', '2026-12-02', undefined],
      ]);
    });

    describe('recurrence reference cases', () => {
      it('monthly on the 31st across a year skips the short months', async () => {
        const api = await fresh();
        await create(api, { title: 'Pay rent', date: '2026-01-31', repeatFrequency: 'monthly' });
        expect(dates(await listAll(api, 'from=2026-01-01&to=2026-12-31'))).to.deep.equal([
          '2026-01-31',
          '2026-03-31',
          '2026-05-31',
          '2026-07-31',
          '2026-08-31',
          '2026-10-31',
          '2026-12-31',
        ]);
      });

      it('yearly on 29 February across eight years falls in leap years only', async () => {
        const api = await fresh();
        await create(api, {
          title: 'Leap birthday',
          date: '2028-02-29',
          repeatFrequency: 'yearly',
        });
        expect(dates(await listAll(api, 'from=2028-01-01&to=2035-12-31'))).to.deep.equal([
          '2028-02-29',
          '2032-02-29',
        ]);
        expect(dates(await listAll(api, 'from=2026-01-01&to=2040-03-01'))).to.deep.equal([
          '2028-02-29',
          '2032-02-29',
          '2036-02-29',
          '2040-02-29',
        ]);
      });

      it('weekdays and weekends over a month', async () => {
        const api = await fresh();
        await create(api, {
          title: 'School run',
          date: '2026-06-01',
          time: '07:45',
          repeatFrequency: 'weekdays',
        });
        await create(api, { title: 'Lie in', date: '2026-06-06', repeatFrequency: 'weekends' });
        const all = await listAll(api, 'from=2026-06-01&to=2026-06-30');
        const school = all.filter((e) => e.title === 'School run').map((e) => e.data.date);
        const weekend = all.filter((e) => e.title === 'Lie in').map((e) => e.data.date);
        expect(school).to.have.length(22);
        expect(
          school.every((d: string) => ![0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay())),
        ).to.equal(true);
        expect(weekend).to.deep.equal([
          '2026-06-06',
          '2026-06-07',
          '2026-06-13',
          '2026-06-14',
          '2026-06-20',
          '2026-06-21',
          '2026-06-27',
          '2026-06-28',
        ]);
        // Sorted by date, then all-day first: a Saturday has only the all-day event.
        expect(all.length).to.equal(30);
      });

      it('custom every 2 weeks on Monday and Wednesday', async () => {
        const api = await fresh();
        await create(api, {
          title: 'Choir',
          date: '2026-06-01',
          time: '19:00',
          repeatFrequency: 'custom',
          repeatInterval: 2,
          repeatDays: [1, 3],
        });
        expect(dates(await listAll(api, 'from=2026-06-01&to=2026-07-12'))).to.deep.equal([
          '2026-06-01',
          '2026-06-03',
          '2026-06-15',
          '2026-06-17',
          '2026-06-29',
          '2026-07-01',
        ]);
      });

      it('repeatUntil is inclusive', async () => {
        const api = await fresh();
        await create(api, {
          title: 'Camp',
          date: '2026-07-06',
          repeatFrequency: 'daily',
          repeatUntil: '2026-07-10',
        });
        expect(dates(await listAll(api, 'from=2026-07-01&to=2026-07-31'))).to.deep.equal([
          '2026-07-06',
          '2026-07-07',
          '2026-07-08',
          '2026-07-09',
          '2026-07-10',
        ]);
      });

      for (const [tz, day, before, after] of [
        // Europe/Berlin goes to summer time on 29 March 2026: 09:00 CEST is 07:00 UTC.
        ['Europe/Berlin', '2026-03-29', '2026-03-29T07:59:59Z', '2026-03-29T08:00:00Z'],
        // America/New_York on 8 March 2026: 09:00 EDT is 13:00 UTC.
        ['America/New_York', '2026-03-08', '2026-03-08T13:59:59Z', '2026-03-08T14:00:00Z'],
        // and back: New York on 1 November 2026, 09:00 EST is 14:00 UTC.
        ['America/New_York', '2026-11-01', '2026-11-01T14:59:59Z', '2026-11-01T15:00:00Z'],
      ] as const) {
        it(`keeps 09:00 local through the DST change week in ${tz} (${day}), and excludeEnded follows it`, async () => {
          const api = await fresh(tz);
          const start = new Date(`${day}T12:00:00Z`);
          const from = new Date(start.getTime() - 3 * 86_400_000).toISOString().slice(0, 10);
          const to = new Date(start.getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
          await create(api, { title: 'Run', date: from, time: '09:00', repeatFrequency: 'daily' });
          const week = await listAll(api, `from=${from}&to=${to}`);
          expect(week.map((e) => e.data.time)).to.deep.equal(Array(7).fill('09:00'));
          // The occurrence on the change day ends at 10:00 local, in the new offset.
          clock.set(before);
          expect(
            dates(await listAll(api, `from=${day}&to=${day}&excludeEnded=true`)),
          ).to.deep.equal([day]);
          clock.set(after);
          expect(
            dates(await listAll(api, `from=${day}&to=${to}&excludeEnded=true`))[0],
          ).to.not.equal(day);
        });
      }
    });

    it('excludeEnded leaves out what is over around "now", in the family zone', async () => {
      const api = await fresh();
      // Berlin is UTC+1 in November: 10:00–11:00 local is 09:00–10:00 UTC.
      await create(api, { title: 'Meeting', date: '2026-11-22', time: '10:00', endTime: '11:00' });
      await create(api, { title: 'All day', date: '2026-11-22' });
      await create(api, { title: 'Weekend', date: '2026-11-21', endDate: '2026-11-22' });
      await create(api, { title: 'Late', date: '2026-11-22', time: '23:30', durationMinutes: 60 });
      const titles = async (qs: string) => (await listAll(api, qs)).map((e) => e.title);
      clock.set('2026-11-22T09:59:59Z');
      expect(await titles('from=2026-11-21&to=2026-11-23&excludeEnded=true')).to.deep.equal([
        'Weekend',
        'All day',
        'Meeting',
        'Late',
      ]);
      clock.set('2026-11-22T10:00:00Z');
      expect(await titles('from=2026-11-21&to=2026-11-23&excludeEnded=true')).to.deep.equal([
        'Weekend',
        'All day',
        'Late',
      ]);
      expect(await titles('from=2026-11-21&to=2026-11-23')).to.deep.equal([
        'Weekend',
        'All day',
        'Meeting',
        'Late',
      ]);
      clock.set('2026-11-22T23:00:00Z'); // midnight in Berlin: the days are over, "Late" runs to 00:30
      expect(await titles('excludeEnded=true')).to.deep.equal(['Late']);
      clock.set('2026-11-22T23:30:00Z');
      expect(await titles('excludeEnded=true')).to.deep.equal([]);
    });
  });

  describe('PATCH /calendar/events/:eventId', () => {
    it('merges attendance, clears it and the travel plan, and logs calendar.event.updated with the previous version', async () => {
      const api = await fresh();
      const ann = (await api.post('/people', { name: 'Ann' })).body.person.id;
      const ben = (await api.post('/people', { name: 'Ben' })).body.person.id;
      const id = await create(api, {
        time: '10:00',
        attendance: { [ann]: 'going' },
        travelPlan: { origin: 'Home', baseTravelMinutes: 30 },
      });
      const seq = (await changes(api)).length;
      let r = await api.patch(`/calendar/events/${id}`, {
        attendance: { [ben]: 'maybe' },
        everyoneAttendance: 'going',
        responsiblePersonIds: [ann],
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', EVENT);
      expect(r.body.event.data).to.deep.include({
        attendance: { [ann]: 'going', [ben]: 'maybe' },
        everyoneAttendance: 'going',
        responsiblePersonIds: [ann],
      });
      r = await api.patch(`/calendar/events/${id}`, {
        clearAttendance: true,
        attendance: { [ben]: 'out' },
        clearTravelPlan: true,
      });
      expect(r.body.event.data.attendance).to.deep.equal({ [ben]: 'out' });
      expect(r.body.event.data).to.not.have.property('travelPlan');
      r = await api.patch(`/calendar/events/${id}`, { attendance: { person_nobody: 'going' } });
      expect(r.status).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['attendance', 'person_nobody']);
      const log = (await changes(api)).slice(seq);
      expect(log.map((c) => c.type)).to.deep.equal([
        'calendar.event.updated',
        'calendar.event.updated',
      ]);
      expect(log[1].previous.data.attendance).to.deep.equal({ [ann]: 'going', [ben]: 'maybe' });
      expect(log[1].object.data.attendance).to.deep.equal({ [ben]: 'out' });
      const listed = await listAll(api, '');
      expect(listed[0].data.attendance).to.deep.equal({ [ben]: 'out' });
    });

    it('holds the limits on update too, and sets status', async () => {
      const api = await fresh();
      const id = await create(api, { time: '10:00' });
      for (const [body, status] of [
        [{ durationMinutes: 14 }, 400],
        [{ durationMinutes: 1441 }, 400],
        [{ durationMinutes: 1440 }, 200],
        [{ status: 'finished' }, 400],
        [{ status: 'done' }, 200],
        [{ editScope: 'sometimes' }, 400],
      ] as const) {
        const r = await api.patch(`/calendar/events/${id}`, body);
        expect(r.status, JSON.stringify(body)).to.equal(status);
      }
      const [ev] = await listAll(api, 'status=done');
      expect(ev.data.durationMinutes).to.equal(1440);
      expect(ev.status).to.equal('done');
      expect(
        (await api.patch('/calendar/events/ent_00000000000000000000', { title: 'x' })).status,
      ).to.equal(404);
    });

    it('edits one occurrence, which survives a later series edit that does not touch it', async () => {
      const api = await fresh();
      const id = await create(api, {
        title: 'Swim',
        date: '2026-12-01',
        time: '16:00',
        durationMinutes: 45,
        repeatFrequency: 'weekly',
        where: 'Pool',
      });
      const r = await api.patch(`/calendar/events/${id}`, {
        editScope: 'occurrence',
        occurrenceDate: '2026-12-08',
        time: '17:30',
        title: 'Swim (late)',
        status: 'done',
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', EVENT);
      expect(r.body.event).to.include({
        id,
        occurrenceDate: '2026-12-08',
        title: 'Swim (late)',
        status: 'done',
      });
      expect(r.body.event.data).to.include({ date: '2026-12-08', time: '17:30', where: 'Pool' });
      await api.patch(`/calendar/events/${id}`, { where: 'Lake', note: 'bring towels' });
      const list = await listAll(api, 'from=2026-12-01&to=2026-12-15&status=active');
      expect(list.map((e) => [e.occurrenceDate, e.data.time, e.data.where])).to.deep.equal([
        ['2026-12-01', '16:00', 'Lake'],
        ['2026-12-15', '16:00', 'Lake'],
      ]);
      const done = await listAll(api, 'from=2026-12-01&to=2026-12-15&status=done');
      expect(
        done.map((e) => [e.occurrenceDate, e.title, e.data.time, e.data.where, e.data.note]),
      ).to.deep.equal([['2026-12-08', 'Swim (late)', '17:30', 'Lake', 'bring towels']]);
      // Not an occurrence → 404; scope occurrence without a date → 400.
      let bad = await api.patch(`/calendar/events/${id}`, {
        editScope: 'occurrence',
        occurrenceDate: '2026-12-09',
        title: 'x',
      });
      expect(bad.status).to.equal(404);
      bad = await api.patch(`/calendar/events/${id}`, { editScope: 'occurrence', title: 'x' });
      expect(bad.status).to.equal(400);
      expect(bad.body.issues[0].path).to.deep.equal(['occurrenceDate']);
      // The series shows its exception.
      const series = (await listAll(api, ''))[0];
      expect(series.exceptions).to.deep.equal([
        {
          occurrenceDate: '2026-12-08',
          title: 'Swim (late)',
          status: 'done',
          data: { time: '17:30' },
        },
      ]);
    });
  });

  describe('DELETE /calendar/events/:eventId', () => {
    it('deletes one occurrence, then the series, each reflected in the list and the change log', async () => {
      const api = await fresh();
      const id = await create(api, {
        title: 'Yoga',
        date: '2026-12-01',
        time: '07:00',
        repeatFrequency: 'daily',
        repeatUntil: '2026-12-04',
      });
      let r = await api.delete(
        `/calendar/events/${id}?editScope=occurrence&occurrenceDate=2026-12-02`,
      );
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', EVENT);
      expect(r.body.event).to.include({ id, title: 'Yoga', occurrenceDate: '2026-12-02' });
      expect(dates(await listAll(api, 'from=2026-12-01&to=2026-12-31'))).to.deep.equal([
        '2026-12-01',
        '2026-12-03',
        '2026-12-04',
      ]);
      expect(
        (await api.delete(`/calendar/events/${id}?editScope=occurrence&occurrenceDate=2026-12-02`))
          .status,
      ).to.equal(404);
      expect(
        (await api.delete(`/calendar/events/${id}?editScope=occurrence&occurrenceDate=2026-12-05`))
          .status,
      ).to.equal(404);
      const missing = await api.delete(`/calendar/events/${id}?editScope=occurrence`);
      expect(missing.status).to.equal(400);
      expect(missing.body.issues[0].path).to.deep.equal(['query', 'occurrenceDate']);
      r = await api.delete(`/calendar/events/${id}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', EVENT);
      expect(r.body.event).to.include({ id, title: 'Yoga' });
      expect(await listAll(api, 'from=2026-12-01&to=2026-12-31')).to.have.length(0);
      expect((await api.delete(`/calendar/events/${id}`)).status).to.equal(404);
      const log = await changes(api);
      expect(log.map((c) => c.type)).to.deep.equal([
        'calendar.event.created',
        'calendar.event.updated',
        'calendar.event.deleted',
      ]);
      expect(log[1].object.occurrenceDate).to.equal('2026-12-02');
      expect(log[2].object.id).to.equal(id);
    });

    it('keeps events of a custom calendar until the calendar is deleted', async () => {
      const api = await fresh();
      const cal = await api.post('/trackers', {
        name: 'Sports',
        category: 'calendar',
        color: 'blue',
      });
      expect(cal.status).to.equal(201);
      const id = await create(api, { title: 'Match', calendarKey: cal.body.tracker.key });
      const listed = await listAll(api, '');
      expect(listed.map((e) => [e.id, e.calendarKey])).to.deep.equal([[id, cal.body.tracker.key]]);
      expect(
        (await api.post(`/trackers/${cal.body.tracker.key}/entries`, { title: 'sneaky' })).status,
      ).to.equal(409);
      expect((await api.delete(`/trackers/${cal.body.tracker.key}`)).status).to.equal(200);
      expect(await listAll(api, '')).to.have.length(0);
    });
  });
  describe('more of the contract, over HTTP', () => {
    it('lists 20 events when no limit is given, and the cursor gives the rest', async () => {
      const api = await fresh();
      for (let i = 1; i <= 25; i++)
        await create(api, {
          title: `E${String(i).padStart(2, '0')}`,
          date: `2026-12-${String(i).padStart(2, '0')}`,
        });
      const first = await api.get('/calendar/events?from=2026-12-01&to=2026-12-31');
      expect(first.body.events.map((e: any) => e.title)).to.deep.equal(
        Array.from({ length: 20 }, (_, i) => `E${String(i + 1).padStart(2, '0')}`),
      );
      const rest = await api.get(
        `/calendar/events?from=2026-12-01&to=2026-12-31&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      );
      expect(rest.body.events.map((e: any) => e.title)).to.deep.equal([
        'E21',
        'E22',
        'E23',
        'E24',
        'E25',
      ]);
      expect(rest.body).to.not.have.property('nextCursor');
      const unbounded = await api.get('/calendar/events');
      expect(unbounded.body.events).to.have.length(20);
    });

    it('travel plan: arriveEarlyMinutes -1 refused, default 0 shown, leaveAt across the spring DST change', async () => {
      const api = await fresh();
      const bad = await api.post('/calendar/events', {
        title: 'T',
        date: '2026-12-01',
        time: '10:00',
        travelPlan: { origin: 'Home', baseTravelMinutes: 10, arriveEarlyMinutes: -1 },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.issues.map((i: any) => i.path)).to.deep.include([
        'travelPlan',
        'arriveEarlyMinutes',
      ]);
      const plain = await api.post('/calendar/events', {
        title: 'Dentist',
        date: '2026-12-01',
        time: '10:00',
        travelPlan: { origin: 'Home', baseTravelMinutes: 25 },
      });
      expect(plain.body.event.data.travelPlan).to.deep.equal({
        origin: 'Home',
        baseTravelMinutes: 25,
        arriveEarlyMinutes: 0,
        leaveAt: '2026-12-01T09:35',
      });
      // 03:30 on 29 March 2026 in Berlin is 01:30Z; 35 minutes earlier is 00:55Z = 01:55 CET.
      const dst = await api.post('/calendar/events', {
        title: 'Early train',
        date: '2026-03-29',
        time: '03:30',
        travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 15 },
      });
      expect(dst.body.event.data.travelPlan.leaveAt).to.equal('2026-03-29T01:55');
      // An all-day event has no time to leave by.
      const allDay = await api.post('/calendar/events', {
        title: 'Trip',
        date: '2026-12-02',
        travelPlan: { origin: 'Home', baseTravelMinutes: 60 },
      });
      expect(allDay.body.event.data.travelPlan).to.deep.equal({
        origin: 'Home',
        baseTravelMinutes: 60,
        arriveEarlyMinutes: 0,
      });
      expect((await listAll(api, '')).map((e) => e.title).sort()).to.deep.equal([
        'Dentist',
        'Early train',
        'Trip',
      ]);
    });

    it('reminders for chosen people: known recipients kept, unknown ones and empty channels refused', async () => {
      const api = await fresh();
      const ann = (await api.post('/people', { name: 'Ann' })).body.person.id;
      const bo = (await api.post('/people', { name: 'Bo' })).body.person.id;
      const ok = await api.post('/calendar/events', {
        title: 'Vet',
        date: '2026-12-01',
        time: '10:00',
        reminders: [
          {
            offsetMinutes: 30,
            audience: 'people',
            recipientPersonIds: [ann, bo],
            channels: ['push'],
          },
        ],
      });
      expect(ok.status).to.equal(201);
      expect(ok.body.event.data.reminders).to.deep.equal([
        {
          offsetMinutes: 30,
          audience: 'people',
          channels: ['push'],
          mode: 'plain',
          recipientPersonIds: [ann, bo],
        },
      ]);
      const seqBefore = (await changes(api)).length;
      const cases: [Record<string, unknown>, (string | number)[]][] = [
        [
          { offsetMinutes: 30, audience: 'people', recipientPersonIds: [ann, 'person_nobody'] },
          ['reminders', 0, 'recipientPersonIds', 1],
        ],
        [
          { offsetMinutes: 30, audience: 'people', recipientPersonIds: [] },
          ['reminders', 0, 'recipientPersonIds'],
        ],
        [
          { offsetMinutes: 30, audience: 'household', recipientPersonIds: [ann] },
          ['reminders', 0, 'recipientPersonIds'],
        ],
        [{ offsetMinutes: 30, channels: [] }, ['reminders', 0, 'channels']],
        [{ offsetMinutes: 30, channels: ['pigeon'] }, ['reminders', 0, 'channels', 0]],
      ];
      for (const [reminder, path] of cases) {
        const r = await api.post('/calendar/events', {
          title: 'Bad',
          date: '2026-12-01',
          time: '10:00',
          reminders: [reminder],
        });
        expect(r.status, JSON.stringify(reminder)).to.equal(400);
        expect(r.body.code).to.equal('invalid_request');
        expect(
          r.body.issues.map((i: any) => i.path),
          JSON.stringify(r.body.issues),
        ).to.deep.include(path);
      }
      // A deleted person cannot become a new recipient.
      await api.delete(`/people/${bo}`);
      const gone = await api.post('/calendar/events', {
        title: 'Bad',
        date: '2026-12-01',
        reminders: [{ offsetMinutes: 0, audience: 'people', recipientPersonIds: [bo] }],
      });
      expect(gone.status).to.equal(400);
      expect((await changes(api)).length).to.equal(seqBefore + 1); // only the person.deleted
    });

    it('query matches titles case- and accent-insensitively, with and without expansion', async () => {
      const api = await fresh();
      await create(api, { title: 'Crème brûlée class', date: '2026-12-03', time: '18:00' });
      await create(api, {
        title: 'Piano',
        date: '2026-12-01',
        time: '15:00',
        repeatFrequency: 'weekly',
        where: 'Music school',
      });
      await create(api, { title: 'Dentist', date: '2026-12-10' });
      const titles = async (qs: string) =>
        (await listAll(api, qs)).map((e) => [e.title, e.occurrenceDate ?? null]);
      expect(await titles('query=CREME')).to.deep.equal([['Crème brûlée class', null]]);
      expect(await titles('query=piano')).to.deep.equal([['Piano', null]]);
      expect(await titles('query=piano&from=2026-12-01&to=2026-12-20')).to.deep.equal([
        ['Piano', '2026-12-01'],
        ['Piano', '2026-12-08'],
        ['Piano', '2026-12-15'],
      ]);
      expect(await titles('query=zumba')).to.deep.equal([]);
      expect(await titles('query=zumba&from=2026-12-01&to=2026-12-20')).to.deep.equal([]);
    });

    it('a removed date and an override survive a later series edit', async () => {
      const api = await fresh();
      const id = await create(api, {
        title: 'Swim',
        date: '2026-12-01',
        time: '16:00',
        repeatFrequency: 'weekly',
      });
      expect(
        (await api.delete(`/calendar/events/${id}?editScope=occurrence&occurrenceDate=2026-12-08`))
          .status,
      ).to.equal(200);
      expect(
        (
          await api.patch(`/calendar/events/${id}`, {
            editScope: 'occurrence',
            occurrenceDate: '2026-12-15',
            title: 'Swim gala',
          })
        ).status,
      ).to.equal(200);
      const edit = await api.patch(`/calendar/events/${id}`, { title: 'Swimming', time: '16:30' });
      expect(edit.status).to.equal(200);
      const list = await listAll(api, 'from=2026-12-01&to=2026-12-29');
      expect(list.map((e) => [e.occurrenceDate, e.title, e.data.time])).to.deep.equal([
        ['2026-12-01', 'Swimming', '16:30'],
        ['2026-12-15', 'Swim gala', '16:30'],
        ['2026-12-22', 'Swimming', '16:30'],
        ['2026-12-29', 'Swimming', '16:30'],
      ]);
      // The series keeps both exceptions.
      const series = (await listAll(api, '')).find((e) => e.id === id);
      expect(series.exceptions).to.deep.equal([
        { occurrenceDate: '2026-12-08', removed: true },
        { occurrenceDate: '2026-12-15', title: 'Swim gala' },
      ]);
    });
  });
});

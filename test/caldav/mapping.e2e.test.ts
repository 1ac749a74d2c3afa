/**
 * Every row of the mapping (docs/caldav.md) on both sides — what a client PUTs is what REST
 * shows, what REST writes is what the client GETs — with bodies shaped as iOS, Thunderbird,
 * DAVx⁵ and Outlook send them.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, ics, lines } from './dav.js';

const CAL = '/dav/home/calendar/';

describe('CalDAV mapping (events and to-dos, both ways)', () => {
  let server: TestServer;
  let dav: Dav;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
  });
  after(() => server?.close());

  /** The REST listing of one day's occurrences. */
  async function day(date: string, to = date): Promise<any[]> {
    const r = await server.api.get(`/calendar/events?from=${date}&to=${to}&limit=50`);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.events;
  }
  async function put(name: string, body: string, status = 201): Promise<void> {
    const r = await dav.put(CAL + name, body);
    expect(r.status, r.text).to.equal(status);
  }
  async function get(name: string): Promise<string[]> {
    const r = await dav.request('GET', CAL + name);
    expect(r.status, r.text).to.equal(200);
    return lines(r.text);
  }

  describe('iOS', () => {
    const body = ics(
      'PRODID:-//Apple Inc.//iOS 17.4//EN',
      'CALSCALE:GREGORIAN',
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:DAYLIGHT',
      'TZOFFSETFROM:+0100',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'DTSTART:19810329T020000',
      'TZNAME:CEST',
      'TZOFFSETTO:+0200',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'TZOFFSETFROM:+0200',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
      'DTSTART:19961027T030000',
      'TZNAME:CET',
      'TZOFFSETTO:+0100',
      'END:STANDARD',
      'END:VTIMEZONE',
      'BEGIN:VEVENT',
      'CREATED:20261101T100000Z',
      'UID:7D1A9B6C-1111-4F00-9C2E-IOS',
      'DTEND;TZID=Europe/Berlin:20261103T171500',
      'TRANSP:OPAQUE',
      'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC',
      'SUMMARY:Swimming',
      'LAST-MODIFIED:20261101T100000Z',
      'DTSTAMP:20261101T100000Z',
      'DTSTART;TZID=Europe/Berlin:20261103T163000',
      'SEQUENCE:0',
      'RRULE:FREQ=WEEKLY;UNTIL=20261201T225959Z;BYDAY=TU,TH',
      'EXDATE;TZID=Europe/Berlin:20261110T163000',
      'LOCATION:Pool',
      'DESCRIPTION:Bring towels',
      'BEGIN:VALARM',
      'X-WR-ALARMUID:AAA-1',
      'UID:AAA-1',
      'TRIGGER:-PT30M',
      'ACTION:DISPLAY',
      'DESCRIPTION:Reminder',
      'END:VALARM',
      'BEGIN:VALARM',
      'TRIGGER;VALUE=DATE-TIME:20261103T120000Z',
      'ACTION:AUDIO',
      'END:VALARM',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:7D1A9B6C-1111-4F00-9C2E-IOS',
      'RECURRENCE-ID;TZID=Europe/Berlin:20261112T163000',
      'DTSTART;TZID=Europe/Berlin:20261112T180000',
      'DTEND;TZID=Europe/Berlin:20261112T184500',
      'SUMMARY:Swimming (late)',
      'DTSTAMP:20261101T100000Z',
      'SEQUENCE:1',
      'END:VEVENT',
    );

    it('a weekly series with UNTIL, EXDATE, a moved occurrence and alarms becomes one REST series', async () => {
      await put('swim.ics', body);
      const nov = await day('2026-11-01', '2026-11-30');
      const swims = nov.filter((e) => e.title.startsWith('Swimming'));
      expect(
        swims.map((e) => `${e.occurrenceDate} ${e.data.time}-${e.data.endTime} ${e.title}`),
      ).to.deep.equal([
        '2026-11-03 16:30-17:15 Swimming',
        '2026-11-05 16:30-17:15 Swimming',
        '2026-11-12 18:00-18:45 Swimming (late)',
        '2026-11-17 16:30-17:15 Swimming',
        '2026-11-19 16:30-17:15 Swimming',
        '2026-11-24 16:30-17:15 Swimming',
        '2026-11-26 16:30-17:15 Swimming',
      ]);
      const s = swims[0];
      expect(s.data).to.include({
        repeatFrequency: 'weekly',
        repeatUntil: '2026-12-01',
        where: 'Pool',
        note: 'Bring towels',
      });
      expect(s.data.repeatDays).to.deep.equal([2, 4]);
      expect(s.data.reminders.map((r: { offsetMinutes: number }) => r.offsetMinutes)).to.deep.equal(
        [30],
      );
      const dec = await day('2026-12-01', '2026-12-31');
      expect(
        dec.filter((e) => e.title.startsWith('Swimming')).map((e) => e.occurrenceDate),
      ).to.deep.equal(['2026-12-01']);
    });

    it("serves back the rule, the removed date, the moved occurrence, the alarms and Apple's own properties", async () => {
      const out = await get('swim.ics');
      expect(out).to.include.members([
        'UID:7D1A9B6C-1111-4F00-9C2E-IOS',
        'DTSTART;TZID=Europe/Berlin:20261103T163000',
        'DTEND;TZID=Europe/Berlin:20261103T171500',
        'EXDATE;TZID=Europe/Berlin:20261110T163000',
        'RECURRENCE-ID;TZID=Europe/Berlin:20261112T163000',
        'DTSTART;TZID=Europe/Berlin:20261112T180000',
        'SUMMARY:Swimming (late)',
        'LOCATION:Pool',
        'DESCRIPTION:Bring towels',
        'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC',
        'TRANSP:OPAQUE',
        'TRIGGER;RELATED=START:-PT30M',
        'TRIGGER;VALUE=DATE-TIME:20261103T120000Z',
        'ACTION:AUDIO',
      ]);
      expect(out.find((l) => l.startsWith('RRULE:FREQ=WEEKLY'))).to.match(
        /^RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20261201T\d{6}Z$/,
      );
    });

    it('a REST edit of one occurrence and a REST delete of another reach the client as RECURRENCE-ID and EXDATE', async () => {
      const id = (await day('2026-11-17'))[0].id;
      expect(
        (
          await server.api.patch(`/calendar/events/${id}`, {
            editScope: 'occurrence',
            occurrenceDate: '2026-11-17',
            title: 'Swim gala',
          })
        ).status,
      ).to.equal(200);
      expect(
        (
          await server.api.delete(
            `/calendar/events/${id}?editScope=occurrence&occurrenceDate=2026-11-19`,
          )
        ).status,
      ).to.equal(200);
      const out = await get('swim.ics');
      expect(out).to.include.members([
        'RECURRENCE-ID;TZID=Europe/Berlin:20261117T163000',
        'SUMMARY:Swim gala',
        'EXDATE;TZID=Europe/Berlin:20261119T163000',
      ]);
    });
  });

  describe('Outlook', () => {
    it('a one-off event in a Windows zone keeps that zone (as its IANA name) and is served back in it', async () => {
      await put(
        'outlook-1.ics',
        ics(
          'PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN',
          'METHOD:PUBLISH',
          'BEGIN:VTIMEZONE',
          'TZID:Pacific Standard Time',
          'BEGIN:STANDARD',
          'DTSTART:16011104T020000',
          'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11',
          'TZOFFSETFROM:-0700',
          'TZOFFSETTO:-0800',
          'END:STANDARD',
          'BEGIN:DAYLIGHT',
          'DTSTART:16010311T020000',
          'RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3',
          'TZOFFSETFROM:-0800',
          'TZOFFSETTO:-0700',
          'END:DAYLIGHT',
          'END:VTIMEZONE',
          'BEGIN:VEVENT',
          'CLASS:PUBLIC',
          'DTSTART;TZID="Pacific Standard Time":20261204T090000',
          'DTEND;TZID="Pacific Standard Time":20261204T093000',
          'UID:040000008200E00074C5B7101A82E0080000000',
          'SUMMARY;LANGUAGE=en-us:Vendor call',
          'X-MICROSOFT-CDO-BUSYSTATUS:BUSY',
          'DTSTAMP:20261101T000000Z',
          'END:VEVENT',
        ),
      );
      const ev = (await day('2026-12-04')).find((e) => e.title === 'Vendor call');
      expect(ev.data).to.include({
        time: '09:00',
        endTime: '09:30',
        timeZone: 'America/Los_Angeles',
      });
      expect(ev.startsAt).to.equal('2026-12-04T17:00:00.000Z'); // 09:00 PST
      const out = await get('outlook-1.ics');
      expect(out).to.include.members([
        'TZID:America/Los_Angeles',
        'DTSTART;TZID=America/Los_Angeles:20261204T090000',
        'DTEND;TZID=America/Los_Angeles:20261204T093000',
        'X-MICROSOFT-CDO-BUSYSTATUS:BUSY',
        'CLASS:PUBLIC',
      ]);
    });

    it("keeps a repeating event in a zone that changes clocks on other dates than the family's, instead of refusing it", async () => {
      const ny = await dav.put(
        CAL + 'ny.ics',
        ics(
          'BEGIN:VEVENT',
          'UID:ny-1',
          'DTSTAMP:20261101T000000Z',
          'DTSTART;TZID=America/New_York:20261201T090000',
          'DURATION:PT1H',
          'RRULE:FREQ=DAILY;COUNT=3',
          'SUMMARY:NY standup',
          'END:VEVENT',
        ),
      );
      expect(ny.status, ny.text).to.equal(201);
      const standups = (await day('2026-12-01', '2026-12-31')).filter(
        (e) => e.title === 'NY standup',
      );
      expect(standups.map((e) => [e.data.time, e.data.timeZone, e.startsAt])).to.deep.equal([
        ['09:00', 'America/New_York', '2026-12-01T14:00:00.000Z'],
        ['09:00', 'America/New_York', '2026-12-02T14:00:00.000Z'],
        ['09:00', 'America/New_York', '2026-12-03T14:00:00.000Z'],
      ]);
      const paris = await dav.put(
        CAL + 'paris.ics',
        ics(
          'BEGIN:VEVENT',
          'UID:paris-1',
          'DTSTAMP:20261101T000000Z',
          'DTSTART;TZID=Europe/Paris:20261201T090000',
          'DURATION:PT1H',
          'RRULE:FREQ=DAILY;COUNT=3',
          'SUMMARY:Paris',
          'END:VEVENT',
        ),
      );
      expect(paris.status).to.equal(201);
      expect(await get('paris.ics')).to.include('DTSTART;TZID=Europe/Paris:20261201T090000');
    });
  });

  describe('Thunderbird', () => {
    it("keeps X-MOZ properties, reads a floating time as the family's, and names an untitled event", async () => {
      await put(
        'tb-1.ics',
        ics(
          'PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN',
          'BEGIN:VEVENT',
          'CREATED:20261101T120000Z',
          'LAST-MODIFIED:20261101T120000Z',
          'DTSTAMP:20261101T120000Z',
          'UID:tb-uid-1',
          'DTSTART:20261205T083000',
          'DTEND:20261205T083500',
          'X-MOZ-GENERATION:3',
          'CATEGORIES:Family',
          'END:VEVENT',
        ),
      );
      const ev = (await day('2026-12-05')).find((e) => e.title === 'Untitled');
      expect(ev.data).to.include({ time: '08:30', endTime: '08:35' }); // a 5-minute end is kept exactly
      const out = await get('tb-1.ics');
      expect(out).to.include.members([
        'X-MOZ-GENERATION:3',
        'CATEGORIES:Family',
        'DTEND;TZID=Europe/Berlin:20261205T083500',
      ]);
    });

    it('an all-day multi-day event ↔ date and inclusive endDate (DTEND exclusive)', async () => {
      await put(
        'tb-2.ics',
        ics(
          'BEGIN:VEVENT',
          'UID:tb-uid-2',
          'DTSTAMP:20261101T120000Z',
          'SUMMARY:Ski trip',
          'DTSTART;VALUE=DATE:20261228',
          'DTEND;VALUE=DATE:20261231',
          'END:VEVENT',
        ),
      );
      const ev = (await day('2026-12-29')).find((e) => e.title === 'Ski trip');
      expect(ev.data).to.include({ date: '2026-12-28', endDate: '2026-12-30', allDay: true });
      const made = await server.api.post('/calendar/events', {
        title: 'Fair',
        date: '2026-12-10',
        endDate: '2026-12-11',
        allDay: true,
      });
      const out = await get(`${made.body.entryId}.ics`);
      expect(out).to.include.members(['DTSTART;VALUE=DATE:20261210', 'DTEND;VALUE=DATE:20261212']);
    });
  });

  describe('rules, statuses, people and household fields', () => {
    const ev = (
      uid: string,
      extra: string[],
      start = 'DTSTART;TZID=Europe/Berlin:20270104T100000',
    ) =>
      ics(
        'BEGIN:VEVENT',
        `UID:${uid}`,
        'DTSTAMP:20261101T000000Z',
        start,
        'DURATION:PT30M',
        `SUMMARY:${uid}`,
        ...extra,
        'END:VEVENT',
      );

    it('maps RRULEs the API holds (COUNT becomes UNTIL) and refuses the ones it cannot hold', async () => {
      const cases: [string, Record<string, unknown>][] = [
        [
          'FREQ=DAILY;INTERVAL=2;COUNT=3',
          { repeatFrequency: 'daily', repeatInterval: 2, repeatUntil: '2027-01-08' },
        ],
        ['FREQ=MONTHLY;UNTIL=20270601', { repeatFrequency: 'monthly', repeatUntil: '2027-06-01' }],
        ['FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=4', { repeatFrequency: 'yearly' }],
        [
          'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;WKST=MO',
          { repeatFrequency: 'weekly', repeatInterval: 2 },
        ],
        ['FREQ=MONTHLY;BYDAY=1MO', { repeatFrequency: 'monthly', repeatNthWeekday: 1 }],
      ];
      for (const [i, [rule, want]] of cases.entries()) {
        await put(`rule-${i}.ics`, ev(`rule-${i}`, [`RRULE:${rule}`]));
        const got = (await day('2027-01-04')).find((e) => e.title === `rule-${i}`);
        expect(got.data, rule).to.include(want);
      }
      for (const [rule, word] of [
        ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1', 'BYSETPOS'],
        ['FREQ=MONTHLY;BYDAY=1MO,3MO', 'positioned'],
        ['FREQ=MONTHLY;BYDAY=2MO', 'repeatNthWeekday'],
        ['FREQ=HOURLY', 'HOURLY'],
      ]) {
        const r = await dav.put(CAL + 'refused.ics', ev('refused', [`RRULE:${rule}`]));
        expect(r.status, rule).to.equal(403);
        expect(r.text, rule).to.contain(word);
      }
      const rdate = await dav.put(
        CAL + 'refused.ics',
        ev('refused', ['RRULE:FREQ=DAILY', 'RDATE;TZID=Europe/Berlin:20270110T100000']),
      );
      expect(rdate.status).to.equal(403);
      expect(rdate.text).to.contain('RDATE');
      const made = await server.api.post('/calendar/events', {
        title: 'School run',
        date: '2027-01-04',
        time: '07:30',
        repeatFrequency: 'weekdays',
      });
      expect(await get(`${made.body.entryId}.ics`)).to.include(
        'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      );
      // The n-th weekday extension through REST: the last Friday of each month.
      const last = await server.api.post('/calendar/events', {
        title: 'Book club',
        date: '2027-01-29',
        repeatFrequency: 'monthly',
        repeatNthWeekday: -1,
      });
      expect(last.status, JSON.stringify(last.body)).to.equal(201);
      expect((await get(`${last.body.entryId}.ics`)).find((l) => l.startsWith('RRULE:'))).to.equal(
        'RRULE:FREQ=MONTHLY;BYDAY=-1FR',
      );
      const apr = await day('2027-04-01', '2027-04-30');
      expect(apr.filter((e) => e.title === 'Book club').map((e) => e.occurrenceDate)).to.deep.equal(
        ['2027-04-30'],
      );
      const wrong = await server.api.post('/calendar/events', {
        title: 'x',
        date: '2027-01-29',
        repeatFrequency: 'monthly',
        repeatNthWeekday: 2,
      });
      expect(wrong.status).to.equal(400);
      expect(wrong.body.issues[0].path).to.deep.equal(['repeatNthWeekday']);
    });

    it('STATUS:CANCELLED ↔ archived, LOCATION ↔ where, DESCRIPTION ↔ note', async () => {
      await put(
        'status.ics',
        ev('status-1', ['STATUS:CANCELLED', 'LOCATION:Town hall', 'DESCRIPTION:Line 1\\nLine 2']),
      );
      const listed = await server.api.get('/trackers/calendar/entries?limit=50&status=archived');
      const e = listed.body.entries.find((x: { title: string }) => x.title === 'status-1');
      expect(e).to.include({ status: 'archived' });
      expect(e.data).to.include({ where: 'Town hall', note: 'Line 1\nLine 2' });
      await server.api.patch(`/calendar/events/${e.id}`, { status: 'active', where: 'Library' });
      const out = await get('status.ics');
      expect(out).to.include.members([
        'STATUS:CONFIRMED',
        'LOCATION:Library',
        'DESCRIPTION:Line 1\\nLine 2',
      ]);
    });

    it("ATTENDEEs with a person's email ↔ attendance; others are kept as sent", async () => {
      const bob = (await server.api.post('/people', { name: 'Bob', email: 'Bob@Example.org' })).body
        .person;
      await put(
        'att.ics',
        ev('att-1', [
          'ATTENDEE;CN=Bob;PARTSTAT=TENTATIVE:mailto:bob@example.org',
          'ATTENDEE;CN=Guest;PARTSTAT=ACCEPTED:mailto:guest@example.com',
        ]),
      );
      const e = (await day('2027-01-04')).find((x) => x.title === 'att-1');
      expect(e.data.attendance).to.deep.equal({ [bob.id]: 'maybe' });
      await server.api.patch(`/calendar/events/${e.id}`, { attendance: { [bob.id]: 'out' } });
      const out = await get('att.ics');
      expect(out).to.include.members([
        'ATTENDEE;CN="Bob";PARTSTAT=DECLINED:mailto:Bob@Example.org',
        'ATTENDEE;CN=Guest;PARTSTAT=ACCEPTED:mailto:guest@example.com',
      ]);
    });

    it('REST-only fields travel as X-HOUSEHOLD-*; a PUT without them keeps them, one with them sets them', async () => {
      const ann = (await server.api.post('/people', { name: 'Ann' })).body.person;
      const made = await server.api.post('/calendar/events', {
        title: 'Football',
        date: '2027-01-06',
        time: '15:00',
        responsiblePersonIds: [ann.id],
        ownerPersonId: ann.id,
        travelPlan: { origin: 'Home', baseTravelMinutes: 20 },
        reminders: [{ offsetMinutes: 60, channels: ['email'] }],
        data: { kit: 'blue' },
      });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const id = made.body.entryId;
      const out = await get(`${id}.ics`);
      expect(out).to.include.members([
        `X-HOUSEHOLD-OWNER:${ann.id}`,
        `X-HOUSEHOLD-RESPONSIBLE:${ann.id}`,
        'X-HOUSEHOLD-DATA:{"kit":"blue"}',
        'TRIGGER;RELATED=START:-PT60M',
      ]);
      // A client that drops every X- property it does not know, and moves the event.
      const stripped =
        out
          .filter((l) => !l.startsWith('X-HOUSEHOLD'))
          .join('\r\n')
          .replace('T150000', 'T160000') + '\r\n';
      expect((await dav.put(`${CAL}${id}.ics`, stripped)).status).to.equal(204);
      let e = (await day('2027-01-06')).find((x) => x.id === id);
      expect(e.data).to.include({ time: '16:00', ownerPersonId: ann.id, kit: 'blue' });
      expect(e.data.travelPlan).to.include({ origin: 'Home', baseTravelMinutes: 20 });
      expect(e.data.reminders[0]).to.include({ offsetMinutes: 60 });
      expect(e.data.reminders[0].channels).to.deep.equal(['email']);
      const set =
        out
          .map((l) => (l.startsWith('X-HOUSEHOLD-OWNER') ? 'X-HOUSEHOLD-OWNER:' : l))
          .join('\r\n') + '\r\n';
      expect((await dav.put(`${CAL}${id}.ics`, set)).status).to.equal(204);
      e = (await day('2027-01-06')).find((x) => x.id === id);
      expect(e.data.ownerPersonId).to.equal(undefined);
    });
  });

  describe('to-do lists (DAVx⁵ / tasks.org, Thunderbird)', () => {
    const CH = '/dav/home/chores/';
    it('a VTODO with an all-day DUE, a repeat rule and X- properties becomes a chore and comes back as sent', async () => {
      const r = await dav.put(
        CH + 'task-1.ics',
        ics(
          'PRODID:+//IDN bitfire.at//ical4android (org.tasks)',
          'BEGIN:VTODO',
          'DTSTAMP:20261101T000000Z',
          'UID:task-uid-1',
          'CREATED:20261101T000000Z',
          'SUMMARY:Water plants',
          'PRIORITY:5',
          'DUE;VALUE=DATE:20261204',
          'RRULE:FREQ=WEEKLY',
          'DESCRIPTION:Balcony too',
          'X-APPLE-SORT-ORDER:12',
          'STATUS:NEEDS-ACTION',
          'END:VTODO',
        ),
      );
      expect(r.status, r.text).to.equal(201);
      const chores = (await server.api.get('/trackers/chores/entries')).body.entries;
      const c = chores.find((x: { title: string }) => x.title === 'Water plants');
      expect(c).to.include({ status: 'active' });
      expect(c.data).to.include({ due: '2026-12-04', notes: 'Balcony too' });
      const out = lines((await dav.request('GET', CH + 'task-1.ics')).text);
      expect(out).to.include.members([
        'UID:task-uid-1',
        'SUMMARY:Water plants',
        'DUE;VALUE=DATE:20261204',
        'RRULE:FREQ=WEEKLY',
        'PRIORITY:5',
        'X-APPLE-SORT-ORDER:12',
        'STATUS:NEEDS-ACTION',
      ]);
    });

    it('COMPLETED ↔ done, archived to-dos are hidden, REST entries are served with DUE and X-HOUSEHOLD fields', async () => {
      const done = await dav.put(
        CH + 'task-2.ics',
        ics(
          'BEGIN:VTODO',
          'UID:task-uid-2',
          'DTSTAMP:20261101T000000Z',
          'SUMMARY:Fix bike',
          'DUE;TZID=Europe/Berlin:20261206T170000',
          'STATUS:COMPLETED',
          'COMPLETED:20261101T100000Z',
          'END:VTODO',
        ),
      );
      expect(done.status).to.equal(201);
      const chores = (await server.api.get('/trackers/chores/entries')).body.entries;
      expect(chores.find((x: { title: string }) => x.title === 'Fix bike')).to.deep.include({
        status: 'done',
        data: { due: '2026-12-06' },
      });
      const made = await server.api.post('/trackers/chores/entries', {
        title: 'Vacuum',
        data: { due: '2026-12-07', repeats: 'weekly' },
      });
      const id = made.body.entry.id;
      const out = lines((await dav.request('GET', `${CH}${id}.ics`)).text);
      expect(out).to.include.members([
        'SUMMARY:Vacuum',
        'DUE;VALUE=DATE:20261207',
        'X-HOUSEHOLD-REPEATS:weekly',
        'STATUS:NEEDS-ACTION',
      ]);
      await server.api.patch(`/trackers/chores/entries/${id}`, { status: 'done' });
      expect(lines((await dav.request('GET', `${CH}${id}.ics`)).text)).to.include(
        'STATUS:COMPLETED',
      );
      await server.api.patch(`/trackers/chores/entries/${id}`, { status: 'archived' });
      expect((await dav.request('GET', `${CH}${id}.ics`)).status).to.equal(404);
      const meal = await server.api.post('/trackers/meals/entries', {
        title: 'Lasagne',
        data: { date: '2026-12-08', meal: 'dinner' },
      });
      expect(
        lines((await dav.request('GET', `/dav/home/meals/${meal.body.entry.id}.ics`)).text),
      ).to.include.members(['DUE;VALUE=DATE:20261208', 'X-HOUSEHOLD-MEAL:dinner']);
    });

    it('refuses a VTODO in a calendar and a VEVENT in a list (403) and writes nothing', async () => {
      const todo = await dav.put(
        CAL + 'todo.ics',
        ics('BEGIN:VTODO', 'UID:wrong-1', 'DTSTAMP:20261101T000000Z', 'SUMMARY:x', 'END:VTODO'),
      );
      expect(todo.status).to.equal(403);
      expect(todo.text).to.contain('VTODO');
      const event = await dav.put(
        CH + 'ev.ics',
        ics(
          'BEGIN:VEVENT',
          'UID:wrong-2',
          'DTSTAMP:20261101T000000Z',
          'DTSTART:20261201T100000',
          'SUMMARY:x',
          'END:VEVENT',
        ),
      );
      expect(event.status).to.equal(403);
      expect((await dav.request('GET', CAL + 'todo.ics')).status).to.equal(404);
    });
  });
});

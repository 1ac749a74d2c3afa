/**
 * CalDAV keeps the zone an event is written in (docs/caldav.md, "Zones"), for a family in
 * Berlin: a weekly series in New York is accepted (no refusal for its zone) and served back with
 * the same TZID and its VTIMEZONE; a Windows TZID and a custom VTIMEZONE are mapped to their
 * IANA zone; UTC times round-trip (a repeating event stays in UTC); a changed occurrence written
 * in another zone lands in the series' zone; time ranges and `expand` find occurrences at their
 * true instants; the ETag changes when the zone does.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, calendarData, ics, lines } from './dav.js';

const CAL = '/dav/home/calendar/';
const NY = 'America/New_York';

describe('CalDAV events in their own zone', () => {
  let server: TestServer;
  let dav: Dav;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
  });
  after(() => server?.close());

  async function put(name: string, body: string, status = 201): Promise<void> {
    const r = await dav.put(CAL + name, body);
    expect(r.status, r.text).to.equal(status);
  }
  async function get(name: string): Promise<{ lines: string[]; etag: string }> {
    const r = await dav.request('GET', CAL + name);
    expect(r.status, r.text).to.equal(200);
    return { lines: lines(r.text), etag: r.headers.get('etag')! };
  }
  async function rest(from: string, to: string, title: string): Promise<any[]> {
    const r = await server.api.get(`/calendar/events?from=${from}&to=${to}&limit=50`);
    expect(r.status, r.text).to.equal(200);
    return r.body.events.filter((e: any) => e.title === title);
  }
  /** The VTIMEZONE blocks of an object, by TZID. */
  function vtimezones(ls: string[]): string[] {
    return ls.filter((l, i) => l.startsWith('TZID:') && ls[i - 1] === 'BEGIN:VTIMEZONE');
  }

  it('accepts a weekly series in America/New_York and serves back the same TZID with its VTIMEZONE', async () => {
    await put(
      'ny-weekly.ics',
      ics(
        'PRODID:-//Apple Inc.//iOS 17.4//EN',
        'BEGIN:VEVENT',
        'UID:ny-weekly@phone',
        'DTSTAMP:20260201T000000Z',
        'DTSTART;TZID=America/New_York:20260302T090000',
        'DTEND;TZID=America/New_York:20260302T093000',
        'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260406T130000Z',
        'EXDATE;TZID=America/New_York:20260316T090000',
        'SUMMARY:NY standup',
        'BEGIN:VALARM',
        'TRIGGER:-PT15M',
        'ACTION:DISPLAY',
        'DESCRIPTION:Reminder',
        'END:VALARM',
        'END:VEVENT',
      ),
    );
    const weeks = await rest('2026-03-01', '2026-04-30', 'NY standup');
    expect(
      weeks.map((e) => [
        e.occurrenceDate,
        e.data.time,
        e.data.endTime,
        e.data.timeZone,
        e.startsAt,
      ]),
    ).to.deep.equal([
      ['2026-03-02', '09:00', '09:30', NY, '2026-03-02T14:00:00.000Z'],
      ['2026-03-09', '09:00', '09:30', NY, '2026-03-09T13:00:00.000Z'],
      ['2026-03-23', '09:00', '09:30', NY, '2026-03-23T13:00:00.000Z'],
      ['2026-03-30', '09:00', '09:30', NY, '2026-03-30T13:00:00.000Z'],
      ['2026-04-06', '09:00', '09:30', NY, '2026-04-06T13:00:00.000Z'],
    ]);
    expect(weeks[0].data).to.include({ repeatFrequency: 'weekly', repeatUntil: '2026-04-06' });
    const out = (await get('ny-weekly.ics')).lines;
    expect(out).to.include.members([
      'BEGIN:VTIMEZONE',
      'TZID:America/New_York',
      'DTSTART;TZID=America/New_York:20260302T090000',
      'DTEND;TZID=America/New_York:20260302T093000',
      'EXDATE;TZID=America/New_York:20260316T090000',
    ]);
    expect(vtimezones(out)).to.deep.equal(['TZID:America/New_York']);
    // UNTIL is the end of the last day in the series' own zone, in UTC.
    expect(out.find((l) => l.startsWith('RRULE:FREQ=WEEKLY'))).to.equal(
      'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260407T035959Z',
    );
  });

  it("maps a Windows TZID and a custom VTIMEZONE to their IANA zone and keeps it as the event's", async () => {
    await put(
      'outlook-ny.ics',
      ics(
        'PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN',
        'BEGIN:VTIMEZONE',
        'TZID:Eastern Standard Time',
        'BEGIN:STANDARD',
        'DTSTART:16011104T020000',
        'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11',
        'TZOFFSETFROM:-0400',
        'TZOFFSETTO:-0500',
        'END:STANDARD',
        'BEGIN:DAYLIGHT',
        'DTSTART:16010311T020000',
        'RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3',
        'TZOFFSETFROM:-0500',
        'TZOFFSETTO:-0400',
        'END:DAYLIGHT',
        'END:VTIMEZONE',
        'BEGIN:VEVENT',
        'UID:outlook-ny',
        'DTSTAMP:20260201T000000Z',
        'DTSTART;TZID="Eastern Standard Time":20260303T083000',
        'DTEND;TZID="Eastern Standard Time":20260303T090000',
        'RRULE:FREQ=DAILY;COUNT=2',
        'SUMMARY:Outlook daily',
        'END:VEVENT',
      ),
    );
    const days = await rest('2026-03-03', '2026-03-05', 'Outlook daily');
    expect(days.map((e) => [e.data.time, e.data.timeZone, e.startsAt])).to.deep.equal([
      ['08:30', NY, '2026-03-03T13:30:00.000Z'],
      ['08:30', NY, '2026-03-04T13:30:00.000Z'],
    ]);
    expect((await get('outlook-ny.ics')).lines).to.include(
      'DTSTART;TZID=America/New_York:20260303T083000',
    );
    await put(
      'custom.ics',
      ics(
        'BEGIN:VTIMEZONE',
        'TZID:Customized Time Zone',
        'BEGIN:STANDARD',
        'DTSTART:16010101T000000',
        'TZOFFSETFROM:+0900',
        'TZOFFSETTO:+0900',
        'END:STANDARD',
        'END:VTIMEZONE',
        'BEGIN:VEVENT',
        'UID:custom-tokyo',
        'DTSTAMP:20260201T000000Z',
        'DTSTART;TZID=Customized Time Zone:20260305T100000',
        'DURATION:PT1H',
        'RRULE:FREQ=WEEKLY',
        'SUMMARY:Tokyo weekly',
        'END:VEVENT',
      ),
    );
    const [tokyo] = await rest('2026-03-05', '2026-03-05', 'Tokyo weekly');
    expect(tokyo.startsAt).to.equal('2026-03-05T01:00:00.000Z');
    expect(tokyo.data.time).to.equal('10:00');
    expect(tokyo.data.timeZone).to.be.a('string').and.not.equal('Europe/Berlin');
  });

  it('keeps a repeating event written in UTC in UTC, and reads a one-off in UTC at its instant in the family zone', async () => {
    await put(
      'utc-weekly.ics',
      ics(
        'BEGIN:VEVENT',
        'UID:utc-weekly',
        'DTSTAMP:20260201T000000Z',
        'DTSTART:20260302T080000Z',
        'DTEND:20260302T090000Z',
        'RRULE:FREQ=WEEKLY;COUNT=6',
        'SUMMARY:UTC weekly',
        'END:VEVENT',
      ),
    );
    const weeks = await rest('2026-03-01', '2026-04-10', 'UTC weekly');
    // 08:00 UTC every week, also after Berlin moves to summer time on 29 March.
    expect(weeks.map((e) => e.startsAt)).to.deep.equal([
      '2026-03-02T08:00:00.000Z',
      '2026-03-09T08:00:00.000Z',
      '2026-03-16T08:00:00.000Z',
      '2026-03-23T08:00:00.000Z',
      '2026-03-30T08:00:00.000Z',
      '2026-04-06T08:00:00.000Z',
    ]);
    expect(weeks[0].data).to.include({ time: '08:00', timeZone: 'UTC' });
    const out = (await get('utc-weekly.ics')).lines;
    expect(out).to.include.members(['DTSTART:20260302T080000Z', 'DTEND:20260302T090000Z']);
    expect(vtimezones(out)).to.deep.equal([]);

    await put(
      'utc-once.ics',
      ics(
        'BEGIN:VEVENT',
        'UID:utc-once',
        'DTSTAMP:20260201T000000Z',
        'DTSTART:20260310T080000Z',
        'DTEND:20260310T083000Z',
        'SUMMARY:UTC once',
        'END:VEVENT',
      ),
    );
    const [once] = await rest('2026-03-10', '2026-03-10', 'UTC once');
    expect(once.data).to.include({ time: '09:00', endTime: '09:30' });
    expect(once.data).to.not.have.property('timeZone');
    expect(once.startsAt).to.equal('2026-03-10T08:00:00.000Z');
    expect((await get('utc-once.ics')).lines).to.include(
      'DTSTART;TZID=Europe/Berlin:20260310T090000',
    );
  });

  it('reads a changed occurrence written in another zone into the series zone', async () => {
    await put(
      'ny-moved.ics',
      ics(
        'BEGIN:VEVENT',
        'UID:ny-moved',
        'DTSTAMP:20260201T000000Z',
        'DTSTART;TZID=America/New_York:20260302T090000',
        'DURATION:PT1H',
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'SUMMARY:NY moved',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:ny-moved',
        'DTSTAMP:20260201T000000Z',
        'RECURRENCE-ID:20260309T130000Z',
        'DTSTART;TZID=Europe/Berlin:20260309T170000',
        'DTEND;TZID=Europe/Berlin:20260309T180000',
        'SUMMARY:NY moved (later)',
        'END:VEVENT',
      ),
    );
    const all = (await server.api.get('/calendar/events?from=2026-03-01&to=2026-03-20&limit=50'))
      .body.events;
    const mine = all.filter((e: any) => e.title.startsWith('NY moved'));
    expect(mine.map((e: any) => [e.occurrenceDate, e.data.time, e.startsAt])).to.deep.equal([
      ['2026-03-02', '09:00', '2026-03-02T14:00:00.000Z'],
      ['2026-03-09', '12:00', '2026-03-09T16:00:00.000Z'], // 17:00 CET is 12:00 EDT
      ['2026-03-16', '09:00', '2026-03-16T13:00:00.000Z'],
    ]);
    expect((await get('ny-moved.ics')).lines).to.include.members([
      'RECURRENCE-ID;TZID=America/New_York:20260309T090000',
      'DTSTART;TZID=America/New_York:20260309T120000',
    ]);
  });

  it('finds occurrences by their true instants in time-range queries and expands them in UTC', async () => {
    await put(
      'ny-evening.ics',
      ics(
        'BEGIN:VEVENT',
        'UID:ny-evening',
        'DTSTAMP:20260201T000000Z',
        'DTSTART;TZID=America/New_York:20260309T200000',
        'DURATION:PT1H',
        'RRULE:FREQ=DAILY;COUNT=2',
        'SUMMARY:NY evening',
        'END:VEVENT',
      ),
    );
    // 20:00 EDT on the 9th is 00:00–01:00 UTC on the 10th.
    const hit = await dav.query(CAL, 'VEVENT', ['20260310T000000Z', '20260310T003000Z']);
    expect(hit.text).to.include('ny-evening.ics');
    const miss = await dav.query(CAL, 'VEVENT', ['20260309T190000Z', '20260309T235959Z']);
    expect(miss.text).to.not.include('ny-evening.ics');
    const expanded = await dav.query(
      CAL,
      'VEVENT',
      ['20260310T000000Z', '20260312T000000Z'],
      ['20260310T000000Z', '20260312T000000Z'],
    );
    const body = calendarData(expanded.text).find((t) => t.includes('UID:ny-evening'))!;
    expect(lines(body)).to.include.members([
      'RECURRENCE-ID:20260310T000000Z',
      'DTSTART:20260310T000000Z',
      'DTEND:20260310T010000Z',
      'RECURRENCE-ID:20260311T000000Z',
      'DTSTART:20260311T000000Z',
    ]);
  });

  it("serves a REST event's zone with its TZID, and changes the ETag when the zone changes", async () => {
    const made = await server.api.post('/calendar/events', {
      title: 'Tokyo call',
      date: '2026-03-12',
      time: '10:00',
      timeZone: 'Asia/Tokyo',
    });
    const id = made.body.entryId;
    const first = await get(`${id}.ics`);
    expect(first.lines).to.include.members([
      'TZID:Asia/Tokyo',
      'DTSTART;TZID=Asia/Tokyo:20260312T100000',
    ]);
    await server.api.patch(`/calendar/events/${id}`, { timeZone: NY });
    const second = await get(`${id}.ics`);
    expect(second.lines).to.include('DTSTART;TZID=America/New_York:20260312T100000');
    expect(second.etag).to.not.equal(first.etag);
    // A client that saves it back unchanged keeps the zone.
    const r = await dav.put(`${CAL}${id}.ics`, second.lines.join('\r\n') + '\r\n', {
      'if-match': second.etag,
    });
    expect(r.status, r.text).to.equal(204);
    const after = (await server.api.get('/calendar/events?from=2026-03-12&to=2026-03-12')).body
      .events;
    expect(after.find((e: any) => e.id === id).data.timeZone).to.equal(NY);
  });
});

/**
 * What a REPORT asks, honoured through the real server: calendar-query filters at every depth
 * (VALARM inside VEVENT, VTODO time ranges, prop-filter with is-not-defined, param-filter,
 * text-match by RFC 4791 §9.7.5), calendar-data's selection (comp/prop, expand of to-dos,
 * limit-recurrence-set) and free-busy-query (RFC 4791 §7.10). Each rule on both sides.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, calendarData, hrefs, ics, lines } from './dav.js';

const Q = (filter: string, data = '<c:calendar-data/>') =>
  `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>${data}</d:prop><c:filter><c:comp-filter name="VCALENDAR">${filter}</c:comp-filter></c:filter></c:calendar-query>`;
const vevent = (inner: string) => `<c:comp-filter name="VEVENT">${inner}</c:comp-filter>`;
const vtodo = (inner: string) => `<c:comp-filter name="VTODO">${inner}</c:comp-filter>`;
const textProp = (prop: string, text: string, attrs = '') =>
  `<c:prop-filter name="${prop}"><c:text-match${attrs}>${text}</c:text-match></c:prop-filter>`;

describe('CalDAV REPORT: filters, calendar-data and free-busy', () => {
  let server: TestServer;
  let dav: Dav;
  const CAL = '/dav/home/calendar/';
  const LIST = '/dav/home/chores/';

  const event = (uid: string, lines: string[]) =>
    ics(
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20261101T000000Z',
      ...lines,
      'END:VEVENT',
    );
  const todo = (uid: string, lines: string[], extra: string[] = []) =>
    ics(
      'PRODID:-//test//EN',
      'BEGIN:VTODO',
      `UID:${uid}`,
      'DTSTAMP:20261101T000000Z',
      ...lines,
      'END:VTODO',
      ...extra,
    );

  async function query(path: string, filter: string, data?: string): Promise<string[]> {
    const r = await dav.report(path, Q(filter, data));
    expect(r.status, r.text).to.equal(207);
    return hrefs(r.text).map((h) => h.slice(path.length));
  }

  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
    const put = async (path: string, body: string) => {
      const r = await dav.put(path, body);
      expect(r.status, `${path}: ${r.text}`).to.equal(201);
    };
    // A weekly lesson with a 30-minute alarm, one occurrence moved, one attendee.
    await put(
      `${CAL}piano.ics`,
      event('piano-1', [
        'DTSTART;TZID=Europe/Berlin:20261102T160000',
        'DTEND;TZID=Europe/Berlin:20261102T170000',
        'RRULE:FREQ=WEEKLY;COUNT=6',
        'SUMMARY:Piano lesson',
        'CATEGORIES:MUSIC,KIDS',
        'ATTENDEE;CN=Teacher;PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT:mailto:teacher@example.org',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'DESCRIPTION:Piano',
        'TRIGGER:-PT30M',
        'END:VALARM',
      ]),
    );
    // No alarm, transparent, in New York time.
    await put(
      `${CAL}holiday.ics`,
      event('holiday-1', [
        'DTSTART;TZID=America/New_York:20261105T090000',
        'DTEND;TZID=America/New_York:20261105T100000',
        'SUMMARY:Ørsted Day (Holiday)',
        'TRANSP:TRANSPARENT',
      ]),
    );
    // Cancelled.
    await put(
      `${CAL}cancelled.ics`,
      event('cancelled-1', [
        'DTSTART:20261104T100000Z',
        'DTEND:20261104T110000Z',
        'SUMMARY:Dentist',
        'STATUS:CANCELLED',
      ]),
    );
    // Busy, overlapping the second lesson.
    await put(
      `${CAL}meeting.ics`,
      event('meeting-1', [
        'DTSTART:20261109T143000Z',
        'DTEND:20261109T153000Z',
        'SUMMARY:School meeting',
        'DESCRIPTION:Room 4',
      ]),
    );
    await put(`${LIST}due.ics`, todo('due-1', ['DUE;VALUE=DATE:20261110', 'SUMMARY:Due only']));
    await put(
      `${LIST}start-due.ics`,
      todo('start-due-1', [
        'DTSTART:20261120T080000Z',
        'DUE:20261121T080000Z',
        'SUMMARY:Start and due',
      ]),
    );
    await put(`${LIST}undated.ics`, todo('undated-1', ['SUMMARY:Whenever']));
    await put(
      `${LIST}yearly.ics`,
      todo('yearly-1', [
        'DTSTART:20200415T133000Z',
        'DUE:20200415T143000Z',
        'RRULE:FREQ=YEARLY',
        'SUMMARY:Tax return',
      ]),
    );
    await put(
      `${LIST}alarmed.ics`,
      todo('alarmed-1', [
        'DUE:20261215T180000Z',
        'SUMMARY:Order gifts',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'DESCRIPTION:Gifts',
        'TRIGGER;RELATED=END:-P1D',
        'END:VALARM',
      ]),
    );
  });
  after(() => server?.close());

  describe('comp-filter inside VEVENT and VTODO', () => {
    it('finds events with an alarm (VALARM comp-filter), and those without one (is-not-defined)', async () => {
      expect(await query(CAL, vevent('<c:comp-filter name="VALARM"/>'))).to.deep.equal([
        'piano.ics',
      ]);
      expect(
        await query(
          CAL,
          vevent('<c:comp-filter name="VALARM"><c:is-not-defined/></c:comp-filter>'),
        ),
      ).to.have.members(['holiday.ics', 'cancelled.ics', 'meeting.ics']);
    });

    it("matches an alarm's time range at the trigger of every occurrence, not at the event's start", async () => {
      const alarmIn = (s: string, e: string) =>
        vevent(
          `<c:comp-filter name="VALARM"><c:time-range start="${s}" end="${e}"/></c:comp-filter>`,
        );
      // Third lesson: 16 Nov 16:00 Berlin = 15:00Z; its alarm at 14:30Z.
      expect(await query(CAL, alarmIn('20261116T142500Z', '20261116T143500Z'))).to.deep.equal([
        'piano.ics',
      ]);
      expect(await query(CAL, alarmIn('20261116T145000Z', '20261116T155000Z'))).to.deep.equal([]);
      // After the sixth lesson there are no more triggers.
      expect(await query(CAL, alarmIn('20261214T142500Z', '20261214T143500Z'))).to.deep.equal([]);
    });

    it('matches a to-do alarm relative to its DUE (RELATED=END)', async () => {
      const alarmIn = (s: string, e: string) =>
        vtodo(
          `<c:comp-filter name="VALARM"><c:time-range start="${s}" end="${e}"/></c:comp-filter>`,
        );
      expect(await query(LIST, alarmIn('20261214T170000Z', '20261214T190000Z'))).to.deep.equal([
        'alarmed.ics',
      ]);
      expect(await query(LIST, alarmIn('20261215T170000Z', '20261215T190000Z'))).to.deep.equal([]);
    });

    it("matches to-dos by RFC 4791's VTODO table: DUE alone, DTSTART with DUE, undated, and a yearly rule", async () => {
      const range = (s: string, e: string) => vtodo(`<c:time-range start="${s}" end="${e}"/>`);
      // 10 Nov (all of it, Berlin): the to-do due that day, the undated one.
      const nov10 = await query(LIST, range('20261109T230000Z', '20261110T230000Z'));
      expect(nov10)
        .to.include('due.ics')
        .and.include('undated.ics')
        .and.not.include('start-due.ics');
      const nov20 = await query(LIST, range('20261120T000000Z', '20261120T120000Z'));
      expect(nov20).to.include('start-due.ics').and.not.include('due.ics');
      // The yearly one in 2031, not in the summer before it.
      expect(await query(LIST, range('20310415T000000Z', '20310416T000000Z'))).to.include(
        'yearly.ics',
      );
      expect(await query(LIST, range('20310601T000000Z', '20310701T000000Z'))).not.to.include(
        'yearly.ics',
      );
    });
  });

  describe('prop-filter, param-filter and text-match', () => {
    it('matches a substring, ASCII case folded by default, exact with i;octet', async () => {
      expect(await query(CAL, vevent(textProp('SUMMARY', 'piano LESS')))).to.deep.equal([
        'piano.ics',
      ]);
      expect(
        await query(CAL, vevent(textProp('SUMMARY', 'piano', ' collation="i;octet"'))),
      ).to.deep.equal([]);
      expect(
        await query(CAL, vevent(textProp('SUMMARY', 'Piano', ' collation="i;octet"'))),
      ).to.deep.equal(['piano.ics']);
    });

    it('folds only ASCII letters under i;ascii-casemap, and other letters too under i;unicode-casemap', async () => {
      expect(await query(CAL, vevent(textProp('SUMMARY', 'ørsted')))).to.deep.equal([]);
      expect(await query(CAL, vevent(textProp('SUMMARY', 'Ørsted day')))).to.deep.equal([
        'holiday.ics',
      ]);
      expect(
        await query(CAL, vevent(textProp('SUMMARY', 'ørsted', ' collation="i;unicode-casemap"'))),
      ).to.deep.equal(['holiday.ics']);
    });

    it('inverts with negate-condition, which still needs the property to be there', async () => {
      const negated = await query(
        CAL,
        vevent(textProp('DESCRIPTION', 'Room', ' negate-condition="yes"')),
      );
      expect(negated).to.deep.equal([]);
      const notPiano = await query(
        CAL,
        vevent(textProp('SUMMARY', 'piano', ' negate-condition="yes"')),
      );
      expect(notPiano).to.have.members(['holiday.ics', 'cancelled.ics', 'meeting.ics']);
    });

    it('matches one value of a multi-valued property (CATEGORIES) as text, and is-not-defined when absent', async () => {
      expect(await query(CAL, vevent(textProp('CATEGORIES', 'KIDS')))).to.deep.equal(['piano.ics']);
      expect(
        await query(
          CAL,
          vevent('<c:prop-filter name="CATEGORIES"><c:is-not-defined/></c:prop-filter>'),
        ),
      ).to.have.members(['holiday.ics', 'cancelled.ics', 'meeting.ics']);
    });

    it('matches a parameter of a property (param-filter), and its absence', async () => {
      const param = (inner: string) =>
        vevent(
          `<c:prop-filter name="ATTENDEE"><c:param-filter name="ROLE">${inner}</c:param-filter></c:prop-filter>`,
        );
      expect(await query(CAL, param('<c:text-match>req-participant</c:text-match>'))).to.deep.equal(
        ['piano.ics'],
      );
      expect(await query(CAL, param('<c:text-match>CHAIR</c:text-match>'))).to.deep.equal([]);
      expect(
        await query(
          CAL,
          vevent(
            '<c:prop-filter name="ATTENDEE"><c:param-filter name="RSVP"><c:is-not-defined/></c:param-filter></c:prop-filter>',
          ),
        ),
      ).to.deep.equal(['piano.ics']);
    });

    it('matches a date-time property by a time range (prop-filter time-range)', async () => {
      const dtstart = (s: string, e: string) =>
        vevent(
          `<c:prop-filter name="DTSTART"><c:time-range start="${s}" end="${e}"/></c:prop-filter>`,
        );
      expect(await query(CAL, dtstart('20261109T140000Z', '20261109T150000Z'))).to.deep.equal([
        'meeting.ics',
      ]);
      expect(await query(CAL, dtstart('20261109T150000Z', '20261109T160000Z'))).to.deep.equal([]);
    });

    it('refuses a collation it does not know with 403 supported-collation, even on an empty calendar', async () => {
      await dav.request('MKCALENDAR', '/dav/home/empty/', '');
      const r = await dav.report(
        '/dav/home/empty/',
        Q(vevent(textProp('SUMMARY', 'x', ' collation="i;basic"'))),
      );
      expect(r.status).to.equal(403);
      expect(r.text).to.contain('<c:supported-collation/>').and.contain('i;basic');
    });
  });

  describe('calendar-data', () => {
    it('answers only the components and properties it selects, a value left out with novalue', async () => {
      const data =
        '<c:calendar-data><c:comp name="VCALENDAR"><c:prop name="VERSION"/><c:comp name="VEVENT"><c:prop name="SUMMARY"/><c:prop name="UID"/><c:prop name="DESCRIPTION" novalue="yes"/></c:comp></c:comp></c:calendar-data>';
      const r = await dav.report(CAL, Q(vevent(textProp('UID', 'meeting-1')), data));
      const got = lines(calendarData(r.text)[0]);
      expect(got).to.deep.equal([
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'BEGIN:VEVENT',
        'UID:meeting-1',
        'SUMMARY:School meeting',
        'DESCRIPTION:',
        'END:VEVENT',
        'END:VCALENDAR',
      ]);
      // The ETag stays the whole object's.
      const whole = await dav.request('GET', `${CAL}meeting.ics`);
      expect(r.text).to.contain(whole.headers.get('etag')!.replace(/"/g, '&quot;'));
    });

    it('keeps everything under allprop and allcomp, and drops the VALARM of a VEVENT that does not list it', async () => {
      const all =
        '<c:calendar-data><c:comp name="VCALENDAR"><c:allprop/><c:comp name="VEVENT"><c:allprop/><c:allcomp/></c:comp></c:comp></c:calendar-data>';
      const noAlarm =
        '<c:calendar-data><c:comp name="VCALENDAR"><c:allprop/><c:comp name="VEVENT"><c:allprop/></c:comp></c:comp></c:calendar-data>';
      const a = calendarData(
        (await dav.report(CAL, Q(vevent(textProp('UID', 'piano-1')), all))).text,
      )[0];
      const b = calendarData(
        (await dav.report(CAL, Q(vevent(textProp('UID', 'piano-1')), noAlarm))).text,
      )[0];
      expect(a).to.contain('BEGIN:VALARM').and.contain('RRULE:FREQ=WEEKLY');
      expect(b).not.to.contain('BEGIN:VALARM').and.not.to.contain('BEGIN:VTIMEZONE');
      expect(b).to.contain('RRULE:FREQ=WEEKLY');
    });

    it('expands a repeating to-do into its instances in UTC (no RRULE), and narrows an expansion to what it selects', async () => {
      const data =
        '<c:calendar-data><c:expand start="20290101T000000Z" end="20310101T000000Z"/></c:calendar-data>';
      const r = await dav.report(LIST, Q(vtodo(textProp('UID', 'yearly-1')), data));
      const text = calendarData(r.text)[0];
      expect(text.match(/BEGIN:VTODO/g)).to.have.length(2);
      expect(lines(text))
        .to.include('RECURRENCE-ID:20290415T133000Z')
        .and.include('DTSTART:20300415T133000Z')
        .and.include('DUE:20300415T143000Z')
        .and.not.include('RRULE:FREQ=YEARLY');
      const narrowed =
        '<c:calendar-data><c:comp name="VCALENDAR"><c:comp name="VEVENT"><c:prop name="DTSTART"/></c:comp></c:comp><c:expand start="20261101T000000Z" end="20261115T000000Z"/></c:calendar-data>';
      const e = calendarData(
        (await dav.report(CAL, Q(vevent(textProp('UID', 'piano-1')), narrowed))).text,
      )[0];
      expect(lines(e)).to.deep.equal([
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        'DTSTART:20261102T150000Z',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'DTSTART:20261109T150000Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ]);
    });

    it('answers with limit-recurrence-set only the changed occurrences in its range beside the series', async () => {
      // Move the fourth lesson (23 Nov) to the Tuesday, through REST.
      const id = (await dav.request('GET', `${CAL}piano.ics`)).text.match(
        /X-HOUSEHOLD-ID:(\S+)/,
      )![1];
      const moved = await server.api.patch(`/calendar/events/${id}`, {
        editScope: 'occurrence',
        occurrenceDate: '2026-11-23',
        date: '2026-11-24',
      });
      expect(moved.status, moved.text).to.equal(200);
      const limited = (s: string, e: string) =>
        `<c:calendar-data><c:limit-recurrence-set start="${s}" end="${e}"/></c:calendar-data>`;
      const inRange = calendarData(
        (
          await dav.report(
            CAL,
            Q(vevent(textProp('UID', 'piano-1')), limited('20261124T000000Z', '20261125T000000Z')),
          )
        ).text,
      )[0];
      const outside = calendarData(
        (
          await dav.report(
            CAL,
            Q(vevent(textProp('UID', 'piano-1')), limited('20261201T000000Z', '20261202T000000Z')),
          )
        ).text,
      )[0];
      expect(inRange.match(/BEGIN:VEVENT/g)).to.have.length(2);
      expect(inRange).to.contain('RECURRENCE-ID');
      expect(outside.match(/BEGIN:VEVENT/g)).to.have.length(1);
      expect(outside).to.contain('RRULE:FREQ=WEEKLY').and.not.contain('RECURRENCE-ID');
    });
  });

  describe('free-busy-query', () => {
    const FB = (s: string, e: string) =>
      `<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="${s}" end="${e}"/></c:free-busy-query>`;

    it('answers the busy periods of the events, expanded and joined, in UTC, as text/calendar VFREEBUSY', async () => {
      const r = await dav.report(CAL, FB('20261101T000000Z', '20261111T000000Z'));
      expect(r.status, r.text).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^text\/calendar/);
      const got = lines(r.text);
      expect(got)
        .to.include('BEGIN:VFREEBUSY')
        .and.include('DTSTART:20261101T000000Z')
        .and.include('DTEND:20261111T000000Z');
      expect(got.filter((l) => l.startsWith('FREEBUSY'))).to.deep.equal([
        'FREEBUSY:20261102T150000Z/20261102T160000Z',
        // The meeting (14:30–15:30Z) and the second lesson (15:00–16:00Z) are one period.
        'FREEBUSY:20261109T143000Z/20261109T160000Z',
      ]);
    });

    it('leaves out transparent and cancelled events, and cuts periods to the range', async () => {
      const r = await dav.report(CAL, FB('20261104T000000Z', '20261106T000000Z'));
      expect(r.text).not.to.contain('FREEBUSY:');
      const cut = await dav.report(CAL, FB('20261102T153000Z', '20261102T170000Z'));
      expect(lines(cut.text).filter((l) => l.startsWith('FREEBUSY'))).to.deep.equal([
        'FREEBUSY:20261102T153000Z/20261102T160000Z',
      ]);
    });

    it('counts a REST event in another zone, and answers for the whole home; a to-do list has no busy time', async () => {
      const made = await server.api.post('/calendar/events', {
        title: 'Call with grandma',
        date: '2026-11-03',
        time: '09:00',
        endTime: '09:30',
        timeZone: 'America/New_York',
      });
      expect(made.status, made.text).to.equal(201);
      const home = await dav.report('/dav/home/', FB('20261103T000000Z', '20261104T000000Z'));
      expect(home.status).to.equal(200);
      expect(lines(home.text)).to.include('FREEBUSY:20261103T140000Z/20261103T143000Z');
      const list = await dav.report(LIST, FB('20261101T000000Z', '20261201T000000Z'));
      expect(list.status).to.equal(200);
      expect(list.text).to.contain('BEGIN:VFREEBUSY').and.not.contain('FREEBUSY:');
    });

    it('refuses a range without an end (400 valid-filter), and one whose expansion passes the limit (507)', async () => {
      const open = await dav.report(
        CAL,
        '<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20261101T000000Z"/></c:free-busy-query>',
      );
      expect(open.status).to.equal(400);
      expect(open.text).to.contain('<c:valid-filter/>');
      await dav.put(
        `${CAL}daily.ics`,
        event('daily-1', [
          'DTSTART:19500101T060000Z',
          'DURATION:PT1H',
          'RRULE:FREQ=DAILY',
          'SUMMARY:Daily',
        ]),
      );
      const century = await dav.report(CAL, FB('19500101T000000Z', '20500101T000000Z'));
      expect(century.status).to.equal(507);
      expect(century.text).to.contain('number-of-matches-within-limits');
    });
  });
});

/**
 * Bad input at the CalDAV door: every refusal is a clear 4xx with a DAV:error body, never a
 * 500, and nothing is half-written (the change log does not move). Ends with a fuzz of the
 * iCalendar reading: mutated client bodies PUT through HTTP, then the whole calendar read back.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, ics } from './dav.js';

const CAL = '/dav/home/calendar/';

describe('CalDAV bad input', () => {
  let server: TestServer;
  let dav: Dav;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
  });
  after(() => server?.close());

  const logLength = async () =>
    (await server.api.get('/changes?after=0&limit=500')).body.changes.length as number;

  function refused(r: { status: number; text: string }, status: number, words: string): void {
    expect(r.status, r.text).to.equal(status);
    expect(r.text).to.match(/^<\?xml[^>]*>\n<d:error /);
    expect(r.text).to.contain(words);
  }

  it('refuses malformed iCalendar, two UIDs, no DTSTART and a missing UID with 400 valid-calendar-data', async () => {
    const before = await logLength();
    refused(await dav.put(CAL + 'a.ics', 'hello'), 400, 'not an iCalendar object');
    refused(
      await dav.put(CAL + 'a.ics', 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n'),
      400,
      'valid-calendar-data',
    );
    refused(
      await dav.put(
        CAL + 'a.ics',
        ics(
          'BEGIN:VEVENT',
          'UID:one',
          'DTSTART:20261201T100000',
          'END:VEVENT',
          'BEGIN:VEVENT',
          'UID:two',
          'DTSTART:20261202T100000',
          'END:VEVENT',
        ),
      ),
      400,
      'different UIDs',
    );
    refused(
      await dav.put(CAL + 'a.ics', ics('BEGIN:VEVENT', 'UID:one', 'SUMMARY:x', 'END:VEVENT')),
      400,
      'DTSTART',
    );
    refused(
      await dav.put(CAL + 'a.ics', ics('BEGIN:VEVENT', 'DTSTART:20261201T100000', 'END:VEVENT')),
      400,
      'UID',
    );
    refused(
      await dav.put(
        CAL + 'a.ics',
        ics('BEGIN:VEVENT', 'UID:z', 'DTSTART;TZID=Mars/Olympus:20261201T100000', 'END:VEVENT'),
      ),
      400,
      'Mars/Olympus',
    );
    refused(
      await dav.put(
        CAL + 'a.ics',
        ics(
          'BEGIN:VEVENT',
          'UID:j',
          'DTSTART:20261201T100000',
          'X-HOUSEHOLD-TRAVEL-PLAN:{oops',
          'END:VEVENT',
        ),
      ),
      400,
      'X-HOUSEHOLD-TRAVEL-PLAN',
    );
    refused(
      await dav.put(CAL + 'a.ics', ics('BEGIN:VJOURNAL', 'UID:j', 'END:VJOURNAL')),
      403,
      'VJOURNAL',
    );
    refused(
      await dav.put(
        CAL + 'a.ics',
        ics(
          'BEGIN:VEVENT',
          'UID:p',
          'DTSTART:20261201T100000',
          'X-HOUSEHOLD-OWNER:per_nobody',
          'END:VEVENT',
        ),
      ),
      403,
      'ownerPersonId',
    );
    expect(await logLength()).to.equal(before);
  });

  it('refuses bodies over 1 MiB (413), of other types or encodings (415), and hostile XML (400)', async () => {
    const before = await logLength();
    const big = ics(
      'BEGIN:VEVENT',
      'UID:big',
      'DTSTART:20261201T100000',
      `DESCRIPTION:${'x'.repeat(1024 * 1024)}`,
      'END:VEVENT',
    );
    refused(await dav.put(CAL + 'big.ics', big), 413, 'larger than');
    refused(
      await dav.request('PUT', CAL + 'j.ics', '{"a":1}', { 'content-type': 'application/json' }),
      415,
      'text/calendar',
    );
    refused(
      await dav.request('PUT', CAL + 'j.ics', 'x', {
        'content-type': 'text/calendar',
        'content-encoding': 'gzip',
      }),
      415,
      'Content-Encoding',
    );
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&b;</d:displayname></d:prop></d:propfind>';
    refused(await dav.request('PROPFIND', CAL, bomb, { depth: '0' }), 400, 'DOCTYPE');
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&x;</d:displayname></d:prop></d:propfind>';
    const r = await dav.request('PROPFIND', CAL, xxe, { depth: '0' });
    expect(r.status).to.equal(400);
    expect(r.text).not.to.contain('root:');
    refused(
      await dav.request('PROPFIND', CAL, '<d:propfind xmlns:d="DAV:"><d:prop>', { depth: '0' }),
      400,
      'not valid',
    );
    refused(
      await dav.request('REPORT', CAL, '<d:nonsense xmlns:d="DAV:"/>'),
      403,
      'supported-report',
    );
    refused(
      await dav.report(
        CAL,
        '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="tomorrow"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>',
      ),
      400,
      'valid-filter',
    );
    refused(
      await dav.request('POST', CAL, 'x', { 'content-type': 'text/plain' }),
      405,
      'not supported',
    );
    expect(await logLength()).to.equal(before);
  });

  it('never answers 500 to mutated client bodies, and the calendar stays readable', async function () {
    this.timeout(30_000);
    const seed = ics(
      'PRODID:-//Apple Inc.//iOS 17//EN',
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'END:VTIMEZONE',
      'BEGIN:VEVENT',
      'UID:fuzz',
      'DTSTAMP:20261101T000000Z',
      'DTSTART;TZID=Europe/Berlin:20261207T090000',
      'DTEND;TZID=Europe/Berlin:20261207T100000',
      'SUMMARY:Fuzz\\, test',
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10',
      'EXDATE;TZID=Europe/Berlin:20261209T090000',
      'ATTENDEE;PARTSTAT=ACCEPTED:mailto:a@b.c',
      'X-HOUSEHOLD-DATA:{"k":1}',
      'X-HOUSEHOLD-REMINDERS:[{"offsetMinutes":5}]',
      'BEGIN:VALARM',
      'TRIGGER:-PT15M',
      'ACTION:DISPLAY',
      'END:VALARM',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:fuzz',
      'RECURRENCE-ID;TZID=Europe/Berlin:20261214T090000',
      'DTSTART;TZID=Europe/Berlin:20261214T110000',
      'DTEND;TZID=Europe/Berlin:20261214T113000',
      'SUMMARY:Moved',
      'END:VEVENT',
    );
    const todo = ics(
      'BEGIN:VTODO',
      'UID:fuzz-todo',
      'DTSTAMP:20261101T000000Z',
      'SUMMARY:Task',
      'DUE;VALUE=DATE:20261204',
      'STATUS:NEEDS-ACTION',
      'X-HOUSEHOLD-REPEATS:weekly',
      'RRULE:FREQ=DAILY',
      'END:VTODO',
    );
    let state = 0x2545f491;
    const rand = (n: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return Math.abs(state) % n;
    };
    const junk = [
      '',
      ':',
      ';',
      ',',
      '\\',
      '"',
      'T',
      'Z',
      '99999999T999999',
      '-P1W',
      'BEGIN:VEVENT',
      'END:VCALENDAR',
      'TZID=Nowhere',
      'VALUE=DATE',
      'FREQ=YEARLY;BYSETPOS=-1',
      '{"offsetMinutes":-5}',
      '\u0000',
      'é',
      '𝄞',
      '20260229',
      '20270229',
    ];
    const mutate = (text: string): string => {
      const ls = text.split('\r\n');
      for (let k = 1 + rand(3); k > 0; k--) {
        const i = rand(ls.length);
        const l = ls[i] ?? '';
        switch (rand(6)) {
          case 0:
            ls.splice(i, 1);
            break;
          case 1:
            ls.splice(i, 0, l);
            break;
          case 2: {
            const at = rand(l.length + 1);
            ls[i] = l.slice(0, at) + junk[rand(junk.length)] + l.slice(at);
            break;
          }
          case 3:
            ls[i] = l.slice(0, rand(l.length + 1));
            break;
          case 4:
            ls.splice(
              i,
              0,
              `${['DTSTART', 'DTEND', 'DURATION', 'RRULE', 'EXDATE', 'RECURRENCE-ID', 'DUE', 'STATUS', 'ATTENDEE', 'TRIGGER', 'X-HOUSEHOLD-DATA', 'X-HOUSEHOLD-TRAVEL-PLAN'][rand(12)]}:${junk[rand(junk.length)]}`,
            );
            break;
          default:
            ls[i] = l.replace(/\d/, String(rand(10)));
        }
      }
      return ls.join('\r\n');
    };
    const statuses = new Map<number, number>();
    for (let i = 0; i < 240; i++) {
      const isTodo = i % 4 === 3;
      const r = await dav.put(
        `${isTodo ? '/dav/home/chores/' : CAL}f${i % 7}.ics`,
        mutate(
          isTodo
            ? todo.replace('fuzz-todo', `fuzz-todo-${i % 7}`)
            : seed.replaceAll('UID:fuzz', `UID:fuzz-${i % 7}`),
        ),
      );
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      expect(r.status, `case ${i}: ${r.text}`).to.be.oneOf([201, 204, 400, 403, 409]);
      if (r.status >= 400) expect(r.text).to.contain('<d:error');
    }
    expect(statuses.get(400) ?? 0, JSON.stringify([...statuses])).to.be.greaterThan(10);
    expect((statuses.get(201) ?? 0) + (statuses.get(204) ?? 0)).to.be.greaterThan(10);
    for (const col of [CAL, '/dav/home/chores/']) {
      const all = await dav.query(
        col,
        col === CAL ? 'VEVENT' : 'VTODO',
        ['20260101T000000Z', '20280101T000000Z'],
        col === CAL ? ['20260101T000000Z', '20280101T000000Z'] : undefined,
      );
      expect(all.status, all.text).to.equal(207);
      const listed = await dav.propfind(col, '<d:getetag/><c:calendar-data/>', '1');
      expect(listed.status).to.equal(207);
    }
    expect(
      (await server.api.get('/calendar/events?from=2026-01-01&to=2027-12-31&limit=50')).status,
    ).to.equal(200);
  });
});

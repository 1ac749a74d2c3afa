/**
 * No CalDAV request holds the daemon's event loop: the worst request body of each kind the
 * 1 MiB limit lets in, sent with a family's read (XML) or write (iCalendar) key, is refused with
 * a DAV:error while `/healthz`, asked again and again on another connection, keeps answering in
 * under 100 ms (test/helpers/stall.ts: the request and the health checks run in a worker
 * thread, the least stall of up to three attempts counts).
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { leastStall, type Stall } from '../helpers/stall.js';

const HEALTH_MS = 100;

describe('CalDAV bodies that could hold the event loop', () => {
  let server: TestServer;
  let readAuth: string;
  let writeAuth: string;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    const basic = (key: string) => 'Basic ' + Buffer.from(`home:${key}`).toString('base64');
    readAuth = basic(await server.key({ scopes: ['read'] }));
    writeAuth = basic(server.apiKey);
  });
  after(() => server?.close());

  function refusedQuickly(s: Stall, status: number, words: string): void {
    expect(s.latencies.length, 'health checks while it was in flight').to.be.above(0);
    expect(
      s.worst,
      `slowest /healthz of ${s.latencies.map((l) => l.toFixed(0)).join(', ')} ms while the request took ${s.elapsed.toFixed(0)} ms`,
    ).to.be.below(HEALTH_MS);
    expect(s.answer.status, s.answer.head).to.equal(status);
    expect(s.answer.head).to.match(/^<\?xml[^>]*>\n<d:error /);
    expect(s.answer.head).to.contain(words);
  }

  // Bodies are made when their test runs, so the daemon's heap does not carry them all.
  const xml: [string, () => string, string][] = [
    [
      'the 120 KB PROPFIND of 40,000 nested elements from the review',
      () => '<d:propfind xmlns:d="DAV:">' + '<d:a>'.repeat(40_000) + '</d:a>'.repeat(40_000),
      'deeper than 64',
    ],
    [
      '1 MiB of nested elements',
      () => '<d:propfind xmlns:d="DAV:">' + '<d:a>'.repeat(200_000),
      'deeper than 64',
    ],
    [
      '1 MiB of sibling elements',
      () =>
        '<d:propfind xmlns:d="DAV:"><d:prop>' + '<d:a/>'.repeat(170_000) + '</d:prop></d:propfind>',
      'more than 5000 elements',
    ],
    [
      'one element with 90,000 attributes',
      () =>
        `<d:propfind xmlns:d="DAV:"><d:prop ${Array.from({ length: 90_000 }, (_, i) => `a${i}="x"`).join(' ')}/></d:propfind>`,
      'more than 32 attributes',
    ],
    [
      '30,000 namespace declarations',
      () =>
        '<d:propfind xmlns:d="DAV:"><d:prop>' +
        Array.from({ length: 30_000 }, (_, i) => `<p${i}:a xmlns:p${i}="urn:${i}"/>`).join('') +
        '</d:prop></d:propfind>',
      'more than 256 namespaces',
    ],
    [
      '170,000 character references',
      () =>
        '<d:propfind xmlns:d="DAV:"><d:prop><d:displayname>' +
        '&#x41;'.repeat(170_000) +
        '</d:displayname></d:prop></d:propfind>',
      'more than 10000 entity or character references',
    ],
  ];
  for (const [what, body, words] of xml) {
    it(`refuses ${what} with 400 and keeps /healthz under ${HEALTH_MS} ms`, async () => {
      const text = body();
      expect(Buffer.byteLength(text)).to.be.at.most(1024 * 1024);
      const s = await leastStall(server.url, {
        method: 'PROPFIND',
        path: '/dav/home/calendar/',
        headers: { authorization: readAuth, depth: '1', 'content-type': 'application/xml' },
        body: text,
      });
      refusedQuickly(s, 400, words);
    });
  }

  // Arrays, not argument lists: a hundred thousand arguments overflow the stack.
  const calendar = (lines: string[]) =>
    ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\r\n');
  const event = (lines: string[]) =>
    calendar(['BEGIN:VEVENT', 'UID:hostile', 'DTSTART:20261201T100000Z', ...lines, 'END:VEVENT']);
  const calendars: [string, () => string, number, string][] = [
    [
      '100,000 properties',
      () => event(Array.from({ length: 100_000 }, () => 'X-A:b')),
      413,
      'more than 20,000 lines',
    ],
    [
      '60,000 parameters on one property',
      () => event([`X-A;${Array.from({ length: 60_000 }, (_, i) => `P${i}=v`).join(';')}:x`]),
      413,
      'more than 40,000 commas, semicolons',
    ],
    [
      '40,000 nested components',
      () =>
        event([
          ...Array<string>(40_000).fill('BEGIN:VALARM'),
          ...Array<string>(40_000).fill('END:VALARM'),
        ]),
      413,
      'more than 20,000 lines',
    ],
    [
      '5 levels of components within the line limits',
      () =>
        event([
          'BEGIN:VALARM',
          'BEGIN:VALARM',
          'BEGIN:VALARM',
          'END:VALARM',
          'END:VALARM',
          'END:VALARM',
        ]),
      400,
      'deeper than 4 levels',
    ],
    [
      '60,000 EXDATE values',
      () =>
        event([
          'RRULE:FREQ=DAILY',
          `EXDATE:${Array<string>(60_000).fill('20261202T100000Z').join(',')}`,
        ]),
      413,
      'more than 40,000 commas',
    ],
    [
      '600 removed dates',
      () =>
        event([
          'RRULE:FREQ=DAILY',
          ...Array.from(
            { length: 6 },
            (_, k) =>
              `EXDATE:${Array.from({ length: 100 }, (_, i) => `2027${String(1 + k).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}T100000Z`).join(',')}`,
          ),
        ]),
      413,
      'more than 500 EXDATE and RDATE values',
    ],
    [
      '450,000 escapes in one DESCRIPTION',
      () => event([`DESCRIPTION:${'\\n'.repeat(450_000)}`]),
      413,
      'backslashes',
    ],
    [
      '1,200 changed occurrences',
      () =>
        calendar([
          'BEGIN:VEVENT',
          'UID:hostile',
          'DTSTART:20261201T100000Z',
          'RRULE:FREQ=DAILY',
          'END:VEVENT',
          ...Array.from({ length: 1_200 }, (_, i) => [
            'BEGIN:VEVENT',
            `RECURRENCE-ID:${new Date(Date.UTC(2026, 11, 2 + i, 10)).toISOString().replace(/[-:]|\.000/g, '')}`,
            'END:VEVENT',
          ]).flat(),
        ]),
      413,
      'more than 100 events or to-dos',
    ],
  ];
  for (const [what, body, status, words] of calendars) {
    it(`refuses a PUT of ${what} with ${status} and keeps /healthz under ${HEALTH_MS} ms`, async () => {
      const text = body();
      expect(Buffer.byteLength(text)).to.be.at.most(1024 * 1024);
      const s = await leastStall(server.url, {
        method: 'PUT',
        path: '/dav/home/calendar/hostile.ics',
        headers: { authorization: writeAuth, 'content-type': 'text/calendar; charset=utf-8' },
        body: text,
      });
      refusedQuickly(s, status, words);
    });
  }
});

describe('CalDAV objects at every limit', () => {
  let server: TestServer;
  let auth: string;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    auth = 'Basic ' + Buffer.from(`home:${server.apiKey}`).toString('base64');
  });
  after(() => server?.close());

  const local = (day: number, hour: string) =>
    new Date(Date.UTC(2026, 11, 2 + day)).toISOString().slice(0, 10).replace(/-/g, '') +
    `T${hour}0000`;

  it('stores and serves a series with 99 changed occurrences, 500 removed dates and 149 alarms while /healthz stays under 100 ms', async () => {
    const lines = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:largest',
      'DTSTART;TZID=Europe/Berlin:20261201T100000',
      'RRULE:FREQ=DAILY',
      'SUMMARY:Largest',
      `EXDATE;TZID=Europe/Berlin:${Array.from({ length: 500 }, (_, i) => local(200 + i, '10')).join(',')}`,
      ...Array.from({ length: 50 }, (_, i) => [
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `TRIGGER:-PT${i + 1}M`,
        'END:VALARM',
      ]).flat(),
      'END:VEVENT',
      ...Array.from({ length: 99 }, (_, i) => [
        'BEGIN:VEVENT',
        'UID:largest',
        `RECURRENCE-ID;TZID=Europe/Berlin:${local(i, '10')}`,
        `DTSTART;TZID=Europe/Berlin:${local(i, '11')}`,
        'SUMMARY:Moved',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'TRIGGER:-PT5M',
        'END:VALARM',
        'END:VEVENT',
      ]).flat(),
      'END:VCALENDAR',
      '',
    ];
    const put = await leastStall(server.url, {
      method: 'PUT',
      path: '/dav/home/calendar/largest.ics',
      headers: { authorization: auth, 'content-type': 'text/calendar; charset=utf-8' },
      body: lines.join('\r\n'),
    });
    expect(
      put.worst,
      `slowest /healthz of ${put.latencies.map((l) => l.toFixed(0)).join(', ')} ms`,
    ).to.be.below(HEALTH_MS);
    expect(put.answer.status, put.answer.head).to.be.oneOf([201, 204]);
    const get = await leastStall(server.url, {
      method: 'GET',
      path: '/dav/home/calendar/largest.ics',
      headers: { authorization: auth },
    });
    expect(get.worst).to.be.below(HEALTH_MS);
    expect(get.answer.status).to.equal(200);
    expect(get.answer.bytes).to.be.above(20_000);
  });
});

describe('CalDAV REPORT answers that could hold the event loop', () => {
  let server: TestServer;
  let readAuth: string;
  const note = 'A long note. '.repeat(1_540).slice(0, 20_000);
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    readAuth =
      'Basic ' + Buffer.from(`home:${await server.key({ scopes: ['read'] })}`).toString('base64');
    // The review's event: daily since 1900, with a note of 20,000 characters.
    const r = await server.api.post('/calendar/events', {
      title: 'Feed the cat',
      date: '1900-01-01',
      time: '08:00',
      repeatFrequency: 'daily',
      note,
    });
    expect(r.status, r.text).to.equal(201);
  });
  after(() => server?.close());

  const expandQuery = (start: string, end: string) =>
    `<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data><c:expand start="${start}" end="${end}"/></c:calendar-data></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${start}" end="${end}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
  const report = (body: string) =>
    leastStall(server.url, {
      method: 'REPORT',
      path: '/dav/home/calendar/',
      headers: { authorization: readAuth, depth: '1', 'content-type': 'application/xml' },
      body,
    });

  it('refuses the review’s 1900–2000 expand with 507 number-of-matches-within-limits and keeps /healthz under 100 ms', async () => {
    const s = await report(expandQuery('19000101T000000Z', '20000101T000000Z'));
    expect(
      s.worst,
      `slowest /healthz of ${s.latencies.map((l) => l.toFixed(0)).join(', ')} ms`,
    ).to.be.below(HEALTH_MS);
    expect(s.answer.status, s.answer.head).to.equal(507);
    expect(s.answer.head).to.match(/<d:error [^>]*><d:number-of-matches-within-limits\/>/);
    // Its notes pass 32 MiB after about 1,600 occurrences, before the count does.
    expect(s.answer.head).to.contain('more than 32 MiB');
    expect(s.answer.bytes).to.be.below(2_000);
  });

  it('refuses an expand whose answer would pass 32 MiB with 507 before writing it', async () => {
    // 3,653 occurrences (within the count) of a 20,000-character note: 73 MB.
    const s = await report(expandQuery('19900101T000000Z', '20000101T000000Z'));
    expect(s.worst).to.be.below(HEALTH_MS);
    expect(s.answer.status, s.answer.head).to.equal(507);
    expect(s.answer.head).to.contain('more than 32 MiB');
  });

  it('answers a year of it (365 occurrences, 7 MB) in slices while /healthz stays under 100 ms', async () => {
    const s = await report(expandQuery('19990101T000000Z', '20000101T000000Z'));
    expect(
      s.worst,
      `slowest /healthz of ${s.latencies.map((l) => l.toFixed(0)).join(', ')} ms`,
    ).to.be.below(HEALTH_MS);
    expect(s.answer.status).to.equal(207);
    expect(s.answer.bytes).to.be.within(7_000_000, 9_000_000);
    expect(Number(s.answer.headers['content-length'])).to.equal(s.answer.bytes);
    expect(s.answer.head).to.contain('RECURRENCE-ID:19990101T070000Z');
  });

  it('answers the same year again identically (a large answer is written again, not kept)', async () => {
    const body = expandQuery('19990601T000000Z', '19990701T000000Z');
    const first = await report(body);
    const again = await report(body);
    expect(first.answer.status).to.equal(207);
    expect(again.answer.bytes).to.equal(first.answer.bytes);
    expect(again.answer.head).to.equal(first.answer.head);
  });
});

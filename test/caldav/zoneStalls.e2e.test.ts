/**
 * A client's own time zone and a megabyte of white space cost the daemon's event loop next to
 * nothing (docs/performance.md, "Requests that could hold the event loop"): custom VTIMEZONEs of
 * 60 and 290 observances repeating monthly or daily from 1900 (20 s to 150 s and 3.2 GB of the
 * loop before) are refused with 403 naming the limit and nothing written; a to-do's own zone is
 * resolved once, on its PUT, and a time-range REPORT after a restart finds it by name; a
 * megabyte PROPFIND of tabs, carriage returns or one long attribute, four at once, is read at
 * native speed. `/healthz`, asked every 10 ms on another connection from a worker thread
 * (test/helpers/stall.ts), answers in under 100 ms throughout (the least stall of up to five
 * attempts counts, against a machine that is busy on its own).
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { leastStall, leastStallTogether, type Stall, type StallRequest } from '../helpers/stall.js';

const HEALTH_MS = 100;

function held(s: Stall): string {
  return `slowest /healthz of ${s.latencies.map((l) => l.toFixed(0)).join(', ')} ms while the request took ${s.elapsed.toFixed(0)} ms`;
}

function quick(s: Stall): void {
  expect(s.latencies.length, 'health checks while it was in flight').to.be.above(0);
  expect(s.worst, held(s)).to.be.below(HEALTH_MS);
}

const obs = (kind: string, start: string, from: string, to: string, rule?: string) => [
  `BEGIN:${kind}`,
  `DTSTART:${start}`,
  `TZOFFSETFROM:${from}`,
  `TZOFFSETTO:${to}`,
  ...(rule ? [`RRULE:${rule}`] : []),
  `END:${kind}`,
];

/** The review's zone: `n` STANDARD observances from 1900 repeating `freq` on the last Sunday. */
const hostileZone = (n: number, freq: string) => [
  'BEGIN:VTIMEZONE',
  'TZID:Custom',
  ...Array.from({ length: n }, () =>
    obs('STANDARD', '19000101T000000', '+0100', '+0100', `FREQ=${freq};BYDAY=-1SU`),
  ).flat(),
  'END:VTIMEZONE',
];

/** Berlin's rules under a name of the client's own, with eight historical observances. */
const berlinZone = [
  'BEGIN:VTIMEZONE',
  'TZID:Customized Time Zone',
  ...Array.from({ length: 4 }, (_, i) => [
    ...obs('DAYLIGHT', `19${80 + i}0406T020000`, '+0100', '+0200'),
    ...obs('STANDARD', `19${80 + i}0928T030000`, '+0200', '+0100'),
  ]).flat(),
  ...obs('DAYLIGHT', '19810329T020000', '+0100', '+0200', 'FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU'),
  ...obs('STANDARD', '19961027T030000', '+0200', '+0100', 'FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU'),
  'END:VTIMEZONE',
];

const calendar = (lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join(
    '\r\n',
  );

describe('CalDAV time zones of a client’s own, on a budget', () => {
  let server: TestServer;
  let auth: string;
  let readAuth: string;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    const basic = (key: string) => 'Basic ' + Buffer.from(`home:${key}`).toString('base64');
    auth = basic(server.apiKey);
    readAuth = basic(await server.key({ scopes: ['read'] }));
  });
  after(() => server?.close());

  const put = (path: string, body: string): StallRequest => ({
    method: 'PUT',
    path,
    headers: { authorization: auth, 'content-type': 'text/calendar; charset=utf-8' },
    body,
  });
  const eventIn = (zone: string[], uid: string) =>
    calendar([
      ...zone,
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20261101T000000Z',
      'DTSTART;TZID=Custom:20261201T100000',
      'SUMMARY:In a zone of its own',
      'END:VEVENT',
    ]);

  for (const [n, freq, words] of [
    [60, 'MONTHLY', 'FREQ=YEARLY'],
    [290, 'MONTHLY', 'more than 200 STANDARD and DAYLIGHT observances'],
    [60, 'DAILY', 'FREQ=YEARLY'],
    [290, 'DAILY', 'more than 200 STANDARD and DAYLIGHT observances'],
  ] as const) {
    it(`refuses an event in a VTIMEZONE of ${n} observances repeating ${freq} from 1900 with 403, writing nothing, /healthz under ${HEALTH_MS} ms`, async () => {
      const path = `/dav/home/calendar/zone-${n}-${freq}.ics`;
      const s = await leastStall(
        server.url,
        put(path, eventIn(hostileZone(n, freq), `z${n}${freq}`)),
      );
      quick(s);
      expect(s.answer.status, s.answer.head).to.equal(403);
      expect(s.answer.head).to.match(/<d:error [^>]*><c:valid-calendar-object-resource\/>/);
      expect(s.answer.head).to.contain(words);
      const get = await server.http.get(path, { key: null, headers: { authorization: auth } });
      expect(get.status).to.equal(404);
      const events = await server.api.get('/calendar/events?query=zone%20of%20its%20own');
      expect(events.body.events).to.deep.equal([]);
    });
  }

  it('refuses four such PUTs at once while /healthz stays under 100 ms', async () => {
    const { stalls, worst } = await leastStallTogether(
      server.url,
      [60, 290].flatMap((n) =>
        ['MONTHLY', 'DAILY'].map((f) =>
          put(`/dav/home/calendar/four-${n}-${f}.ics`, eventIn(hostileZone(n, f), `f${n}${f}`)),
        ),
      ),
    );
    expect(worst, stalls.map(held).join('; ')).to.be.below(HEALTH_MS);
    expect(stalls.map((s) => s.answer.status)).to.deep.equal([403, 403, 403, 403]);
  });

  it('reads a custom zone with Berlin’s rules as Europe/Berlin', async () => {
    const body = eventIn(
      berlinZone.map((l) => (l === 'TZID:Customized Time Zone' ? 'TZID:Custom' : l)),
      'berlin-rules',
    );
    const s = await leastStall(server.url, put('/dav/home/calendar/berlin-rules.ics', body));
    quick(s);
    // leastStall sends the PUT again when a loaded machine held a health check: the first
    // creates (201), a repeat replaces the same object (204); either way one event is there.
    expect(s.answer.status, s.answer.head).to.be.oneOf([201, 204]);
    const r = await server.api.get('/calendar/events?query=zone%20of%20its%20own');
    expect(r.body.events.map((e: { data: { date: string; time: string } }) => e.data)).to.satisfy(
      (ds: { date: string; time: string }[]) =>
        ds.length === 1 && ds[0].date === '2026-12-01' && ds[0].time === '10:00',
    );
  });

  const todo = (zone: string[], tzid: string, uid: string) =>
    calendar([
      ...zone,
      'BEGIN:VTODO',
      `UID:${uid}`,
      'DTSTAMP:20261101T000000Z',
      'SUMMARY:Planted',
      `DTSTART;TZID=${tzid}:20261201T090000`,
      `DUE;TZID=${tzid}:20261201T100000`,
      'END:VTODO',
    ]);

  it('refuses a to-do in a VTIMEZONE of 10 observances repeating monthly from 1900 with 403, writing nothing', async () => {
    const s = await leastStall(
      server.url,
      put('/dav/home/chores/planted-hostile.ics', todo(hostileZone(10, 'MONTHLY'), 'Custom', 'ph')),
    );
    quick(s);
    expect(s.answer.status, s.answer.head).to.equal(403);
    expect(s.answer.head).to.contain('FREQ=YEARLY');
    const get = await server.http.get('/dav/home/chores/planted-hostile.ics', {
      key: null,
      headers: { authorization: auth },
    });
    expect(get.status).to.equal(404);
  });

  it('resolves a to-do’s own zone on its PUT, so a time-range REPORT after a restart finds it by name', async function () {
    this.timeout(120_000);
    const own = await startTestServer({ timezone: 'Europe/Berlin' });
    const basic = 'Basic ' + Buffer.from(`home:${own.apiKey}`).toString('base64');
    try {
      const s = await leastStall(own.url, {
        ...put('/dav/home/chores/planted.ics', todo(berlinZone, 'Customized Time Zone', 'planted')),
        headers: { authorization: basic, 'content-type': 'text/calendar; charset=utf-8' },
      });
      quick(s);
      expect(s.answer.status, s.answer.head).to.be.oneOf([201, 204]);
      const get = await own.http.get('/dav/home/chores/planted.ics', {
        key: null,
        headers: { authorization: basic },
      });
      expect(get.text, get.text).to.contain('X-LIC-LOCATION:');
    } finally {
      await own.close({ keepData: true });
    }
    const again = await startTestServer({ timezone: 'Europe/Berlin', dataDir: own.dataDir });
    try {
      const query = (start: string, end: string) =>
        `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:time-range start="${start}" end="${end}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
      const report = (body: string) =>
        leastStall(again.url, {
          method: 'REPORT',
          path: '/dav/home/chores/',
          headers: { authorization: basic, depth: '1', 'content-type': 'application/xml' },
          body,
        });
      // 09:00–10:00 in Berlin is 08:00–09:00 UTC: a range of 08:30–08:45 UTC meets it, one
      // of 09:30–10:00 UTC (what a floating or UTC reading would meet) does not.
      const hit = await report(query('20261201T083000Z', '20261201T084500Z'));
      quick(hit);
      expect(hit.answer.status, hit.answer.head).to.equal(207);
      expect(hit.answer.head).to.contain('planted.ics');
      const miss = await report(query('20261201T093000Z', '20261201T100000Z'));
      expect(miss.answer.head).to.not.contain('planted.ics');
    } finally {
      await again.close();
    }
  });

  const N = 1_000_000;
  const xmlBodies: [string, () => string][] = [
    [
      'one attribute of a million tabs',
      () =>
        `<d:propfind xmlns:d="DAV:"><d:prop a="${'\t'.repeat(N)}"><d:getetag/></d:prop></d:propfind>`,
    ],
    [
      'one attribute of a million carriage returns',
      () =>
        `<d:propfind xmlns:d="DAV:"><d:prop a="${'\r'.repeat(N)}"><d:getetag/></d:prop></d:propfind>`,
    ],
    [
      'a million carriage returns of text',
      () =>
        `<d:propfind xmlns:d="DAV:"><d:prop>${'\r'.repeat(N)}<d:getetag/></d:prop></d:propfind>`,
    ],
    [
      'a million tabs between attributes',
      () =>
        `<d:propfind xmlns:d="DAV:"><d:prop${'\t'.repeat(N)}a="x"><d:getetag/></d:prop></d:propfind>`,
    ],
  ];
  for (const [what, body] of xmlBodies) {
    it(`reads a megabyte PROPFIND of ${what}, four at once, with /healthz under ${HEALTH_MS} ms`, async () => {
      const text = body();
      expect(Buffer.byteLength(text)).to.be.at.most(1024 * 1024);
      const r: StallRequest = {
        method: 'PROPFIND',
        path: '/dav/home/calendar/',
        headers: { authorization: readAuth, depth: '0', 'content-type': 'application/xml' },
        body: text,
      };
      const { stalls, worst } = await leastStallTogether(server.url, [r, r, r, r]);
      expect(worst, stalls.map(held).join('; ')).to.be.below(HEALTH_MS);
      for (const s of stalls) {
        expect(s.answer.status, s.answer.head).to.equal(207);
        expect(s.answer.head).to.contain('getetag');
      }
    });
  }
});

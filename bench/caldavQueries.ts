/**
 * What the REPORTs calendar apps ask beyond a time range cost the daemon: filters at depth
 * (prop-filter with text-match, VALARM with a time range), to-do time ranges, calendar-data
 * selection and free-busy, beside the plain time-range query they build on. One daemon in this
 * process (a fresh LMDB folder, loopback), the 40 series of the CalDAV case (bench/caldav.ts) and
 * 200 one-off events with alarms in the family calendar, 200 to-dos (a tenth repeating) in a list
 * made with MKCALENDAR. Every request has a body not asked before (an XML comment), so no kept
 * answer serves it; requests go one at a time and the process's CPU time per request is
 * reported (client and server share the process: the plain query's row is the yardstick).
 * "after a write" rows PUT one event before each query and time the query alone: the first
 * query after a write reads each object's text once (kept until the next write).
 *
 *   npm run build && node dist/bench/caldavQueries.js
 *
 * Results: docs/performance.md, "CalDAV filters, selection and free-busy".
 */
import { startTestServer } from '../test/helpers/server.js';
import { seriesIcs } from './caldav.js';

const N = 200;
const ROUNDS = 5;
const PER_ROUND = 40;

const pad = (n: number) => String(n).padStart(2, '0');

function oneOff(i: number): string {
  const day = `2026${pad(1 + (i % 12))}${pad(1 + (i % 28))}`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//household-bench//EN',
    'BEGIN:VEVENT',
    `UID:one-${i}@bench.example`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;TZID=Europe/Berlin:${day}T${pad(8 + (i % 10))}0000`,
    'DURATION:PT1H',
    `SUMMARY:${['Dentist', 'Parents evening', 'Haircut', 'Vet'][i % 4]} ${i}`,
    ...(i % 3 === 0 ? ['TRANSP:TRANSPARENT'] : []),
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    'DESCRIPTION:Reminder',
    'TRIGGER:-PT30M',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

function todo(i: number): string {
  const day = `2026${pad(1 + (i % 12))}${pad(1 + (i % 28))}`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//household-bench//EN',
    'BEGIN:VTODO',
    `UID:todo-${i}@bench.example`,
    'DTSTAMP:20260101T000000Z',
    ...(i % 2 ? [`DTSTART:${day}T080000Z`, `DUE:${day}T170000Z`] : [`DUE;VALUE=DATE:${day}`]),
    ...(i % 10 === 0 ? ['RRULE:FREQ=WEEKLY'] : []),
    `SUMMARY:To-do ${i}`,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

const Q = (comp: string, inner: string, data = '<c:calendar-data/>') =>
  `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>${data}</d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="${comp}">${inner}</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
const MONTH = '<c:time-range start="20260301T000000Z" end="20260401T000000Z"/>';

const CASES: { label: string; path: string; body: string; afterWrite?: boolean }[] = [
  { label: 'time range (one month)', path: 'calendar', body: Q('VEVENT', MONTH) },
  {
    label: 'time range + SUMMARY text-match',
    path: 'calendar',
    body: Q(
      'VEVENT',
      MONTH + '<c:prop-filter name="SUMMARY"><c:text-match>dentist</c:text-match></c:prop-filter>',
    ),
  },
  {
    label: 'VALARM triggers in one month',
    path: 'calendar',
    body: Q('VEVENT', `<c:comp-filter name="VALARM">${MONTH}</c:comp-filter>`),
  },
  {
    label: 'selection: SUMMARY and DTSTART only',
    path: 'calendar',
    body: Q(
      'VEVENT',
      MONTH,
      '<c:calendar-data><c:comp name="VCALENDAR"><c:comp name="VEVENT"><c:prop name="SUMMARY"/><c:prop name="DTSTART"/></c:comp></c:comp></c:calendar-data>',
    ),
  },
  { label: 'to-dos: time range (one month)', path: 'packing', body: Q('VTODO', MONTH) },
  {
    label: 'free-busy, calendar, one month',
    path: 'calendar',
    body: '<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20260301T000000Z" end="20260401T000000Z"/></c:free-busy-query>',
  },
  {
    label: 'free-busy, whole home, one year',
    path: '',
    body: '<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20260101T000000Z" end="20270101T000000Z"/></c:free-busy-query>',
  },
  {
    label: 'time range, after a write',
    path: 'calendar',
    body: Q('VEVENT', MONTH),
    afterWrite: true,
  },
  {
    label: 'SUMMARY text-match, after a write',
    path: 'calendar',
    body: Q(
      'VEVENT',
      MONTH + '<c:prop-filter name="SUMMARY"><c:text-match>dentist</c:text-match></c:prop-filter>',
    ),
    afterWrite: true,
  },
];

const server = await startTestServer({ timezone: 'Europe/Berlin' });
const auth = 'Basic ' + Buffer.from(`${server.slug}:${server.apiKey}`).toString('base64');
async function dav(method: string, path: string, body: string, type: string): Promise<Response> {
  const r = await fetch(`${server.url}/dav/home/${path}`, {
    method,
    headers: { authorization: auth, 'content-type': type, depth: '1' },
    body,
  });
  await r.arrayBuffer();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status}`);
  return r;
}
const put = (path: string, ics: string) => dav('PUT', path, ics, 'text/calendar; charset=utf-8');
try {
  for (let i = 0; i < 40; i++) await put(`calendar/s-${i}.ics`, seriesIcs(i).ics);
  for (let i = 0; i < N; i++) await put(`calendar/o-${i}.ics`, oneOff(i));
  await dav(
    'MKCALENDAR',
    'packing/',
    '<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>',
    'application/xml',
  );
  for (let i = 0; i < N; i++) await put(`packing/t-${i}.ics`, todo(i));
  console.log(`| request | CPU per request, ms (best of ${ROUNDS} × ${PER_ROUND}) |`);
  console.log('|---|---|');
  let n = 0;
  let writes = 0;
  for (const c of CASES) {
    let best = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      let cpu = 0;
      for (let k = 0; k < PER_ROUND; k++) {
        if (c.afterWrite) await put(`calendar/w-${writes++}.ics`, oneOff(1000 + writes));
        const body = `<?xml version="1.0"?><!-- ${n++} -->${c.body}`;
        const before = process.cpuUsage();
        await dav('REPORT', c.path ? `${c.path}/` : '', body, 'application/xml');
        const used = process.cpuUsage(before);
        cpu += (used.user + used.system) / 1000;
      }
      best = Math.min(best, cpu / PER_ROUND);
    }
    console.log(`| ${c.label} | ${best.toFixed(2)} |`);
  }
} finally {
  await server.close();
}

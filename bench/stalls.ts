/**
 * How long one request holds the daemon's event loop: each hostile (or merely large) request
 * of docs/performance.md, "Requests that could hold the event loop", is sent while this runner
 * asks `GET /healthz` again and again on another keep-alive connection; the slowest health
 * answer is what the request cost every other client. The daemon runs in its own process
 * (bench/daemon.ts), so the runner's own work (building bodies, reading answers) never shares
 * its event loop.
 *
 *   npm run build && node dist/bench/stalls.js [--rounds=5] [--cases=xml-nested,report-century]
 *
 * Per case: one warm-up, then `rounds` sends; printed are the answer, the request's wall time
 * (median), and the slowest health answer (least and most over the rounds) with the median of
 * all health answers. On a shared machine one slow health answer can be the machine's doing;
 * the least of the rounds' slowest is the request's own.
 */
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Child } from './child.js';
import { createFamilies } from './seed.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const rounds = Number(arg('rounds') ?? 5);
const only = arg('cases')?.split(',');

interface Answer {
  status: number;
  bytes: number;
}

function send(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.setHeader('content-length', Buffer.byteLength(body));
    req.end(body);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

interface Case {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: () => string;
}

function cases(key: string): Case[] {
  const basic = 'Basic ' + Buffer.from(`bench:${key}`).toString('base64');
  const dav = (name: string, method: string, body: () => string, extra = {}): Case => ({
    name,
    method,
    path: '/dav/bench/calendar/',
    headers: { authorization: basic, depth: '1', 'content-type': 'application/xml', ...extra },
    body,
  });
  const put = (name: string, body: () => string): Case => ({
    name,
    method: 'PUT',
    path: `/dav/bench/calendar/${name}.ics`,
    headers: { authorization: basic, 'content-type': 'text/calendar' },
    body,
  });
  const json = (name: string, body: () => string): Case => ({
    name,
    method: 'POST',
    path: '/api/v1/families/bench/calendar/events',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body,
  });
  const ics = (lines: string[]) =>
    ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:b', 'DTSTART:20261201T100000Z']
      .concat(lines, ['END:VEVENT', 'END:VCALENDAR', ''])
      .join('\r\n');
  const MB = 1_000_000;
  const xmlWith = (open: string) =>
    `<d:propfind xmlns:d="DAV:">${open}<d:getetag/></d:prop></d:propfind>`;
  // The review's zones: n STANDARD observances from 1900, repeating monthly or daily.
  const zoned = (n: number, freq: string) =>
    ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VTIMEZONE', 'TZID:Custom']
      .concat(
        Array.from({ length: n }, () => [
          'BEGIN:STANDARD',
          'DTSTART:19000101T000000',
          `RRULE:FREQ=${freq};BYDAY=-1SU`,
          'TZOFFSETFROM:+0100',
          'TZOFFSETTO:+0100',
          'END:STANDARD',
        ]).flat(),
        ['END:VTIMEZONE', 'BEGIN:VEVENT', 'UID:z', 'DTSTART;TZID=Custom:20261201T100000'],
        ['END:VEVENT', 'END:VCALENDAR', ''],
      )
      .join('\r\n');
  const expand = (start: string, end: string) =>
    `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data><c:expand start="${start}" end="${end}"/></c:calendar-data></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${start}" end="${end}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
  return [
    dav('xml-nested', 'PROPFIND', () => '<d:propfind xmlns:d="DAV:">' + '<d:a>'.repeat(40_000)),
    dav(
      'xml-nested-1mib',
      'PROPFIND',
      () => '<d:propfind xmlns:d="DAV:">' + '<d:a>'.repeat(200_000),
    ),
    dav(
      'xml-siblings',
      'PROPFIND',
      () => '<d:propfind xmlns:d="DAV:"><d:prop>' + '<d:a/>'.repeat(170_000),
    ),
    dav(
      'xml-attributes',
      'PROPFIND',
      () =>
        `<d:propfind xmlns:d="DAV:"><d:prop ${Array.from({ length: 90_000 }, (_, i) => `a${i}="x"`).join(' ')}/></d:propfind>`,
    ),
    put('ics-properties', () => ics(Array.from({ length: 100_000 }, () => 'X-A:b'))),
    put('ics-parameters', () =>
      ics([`X-A;${Array.from({ length: 60_000 }, (_, i) => `P${i}=v`).join(';')}:x`]),
    ),
    put('ics-nested', () =>
      ics([
        ...Array<string>(40_000).fill('BEGIN:VALARM'),
        ...Array<string>(40_000).fill('END:VALARM'),
      ]),
    ),
    json(
      'json-nested',
      () =>
        `{"title":"x","date":"2026-12-01","data":{"x":${'['.repeat(250_000)}${']'.repeat(250_000)}}}`,
    ),
    json(
      'json-keys',
      () =>
        `{"title":"x","date":"2026-12-01","data":{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":0`).join(',')}}}`,
    ),
    dav('report-century', 'REPORT', () => expand('19000101T000000Z', '20000101T000000Z')),
    dav('report-year', 'REPORT', () => expand('19990101T000000Z', '20000101T000000Z')),
    ...[60, 290].flatMap((n) =>
      ['MONTHLY', 'DAILY'].map((freq) =>
        put(`zone-${n}-${freq.toLowerCase()}`, () => zoned(n, freq)),
      ),
    ),
    dav('xml-tabs-attribute', 'PROPFIND', () => xmlWith(`<d:prop a="${'\t'.repeat(MB)}">`)),
    dav('xml-crs-attribute', 'PROPFIND', () => xmlWith(`<d:prop a="${'\r'.repeat(MB)}">`)),
    dav('xml-crs-text', 'PROPFIND', () => xmlWith(`<d:prop>${'\r'.repeat(MB)}`)),
    dav('xml-tabs-between', 'PROPFIND', () => xmlWith(`<d:prop${'\t'.repeat(MB)}a="x">`)),
    put('ics-crs', () => ics([`DESCRIPTION:${'\r'.repeat(MB)}`])),
    put('ics-quotes', () => ics([`X-A;P="${'"'.repeat(MB)}:x`])),
    put('ics-folds', () =>
      ics([`DESCRIPTION:${'x\r\n '.repeat(19_000)}${'y'.repeat(MB - 76_000)}`]),
    ),
    json(
      'json-escaped-quotes',
      () => `{"title":"x","date":"2026-12-01","note":"${'\\"'.repeat(MB / 2)}"}`,
    ),
    json('json-spaces', () => `{"title":"x","date":"2026-12-01",${' '.repeat(MB)}"note":"y"}`),
    {
      name: 'rest-birthdays',
      method: 'GET',
      path: '/api/v1/families/bench/calendar/events?from=2026-01-01&to=2036-01-01&query=zebra&limit=50',
      headers: { 'x-api-key': key },
    },
    {
      name: 'rest-window-century',
      method: 'GET',
      path: '/api/v1/families/bench/calendar/events?from=1900-01-01&to=2000-12-31&query=nothing-like-this&limit=50',
      headers: { 'x-api-key': key },
    },
  ];
}

const dataDir = mkdtempSync(join(tmpdir(), 'household-stalls-'));
let daemon: Child | undefined;
try {
  const [family] = await createFamilies(dataDir, ['bench']);
  daemon = await Child.start(join(here, 'daemon.js'), {
    env: {
      BENCH_DAEMON_OVERRIDES: JSON.stringify({
        server: { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1' },
        storage: { dataDir },
        log: { level: 'warn' },
        families: { bootstrapSlug: null },
        rateLimit: { perMinute: 100_000_000 },
      }),
    },
  });
  const base = daemon.url;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const other = new Agent({ keepAlive: false });
  // The review's event (daily since 1900, a note of 20,000 characters) and 100 daily series.
  const post = (body: unknown) =>
    send(
      other,
      base,
      'POST',
      '/api/v1/families/bench/calendar/events',
      {
        'x-api-key': family.apiKey,
        'content-type': 'application/json',
      },
      JSON.stringify(body),
    );
  await post({
    title: 'Feed the cat',
    date: '1900-01-01',
    time: '08:00',
    repeatFrequency: 'daily',
    note: 'A long note. '.repeat(1_540).slice(0, 20_000),
  });
  // The hundred series live in a calendar of their own, so the REPORTs see the one event.
  await send(
    other,
    base,
    'POST',
    '/api/v1/families/bench/trackers',
    { 'x-api-key': family.apiKey, 'content-type': 'application/json' },
    JSON.stringify({ name: 'Series', category: 'calendar' }),
  );
  // The review's family: a yearly birthday beside the daily series (rest-birthdays).
  const birthday = await post({
    title: 'Zebra birthday',
    date: '2001-05-17',
    allDay: true,
    repeatFrequency: 'yearly',
    calendarKey: 'series',
  });
  if (birthday.status !== 201) throw new Error(`the birthday was not written: ${birthday.status}`);
  for (let i = 0; i < 100; i++) {
    const daily = await post({
      title: `Daily ${i}`,
      date: '1900-01-01',
      time: '09:00',
      repeatFrequency: 'daily',
      calendarKey: 'series',
    });
    // (Until 2026-12-02 they went to `routines`, a list, and were refused: every figure of
    // rest-window-century before then is of a calendar without them.)
    if (daily.status !== 201) throw new Error(`a daily series was not written: ${daily.status}`);
  }

  process.stdout.write(
    `| case | body | answer | request ms (median) | slowest /healthz ms (least – most of ${rounds}) | median /healthz ms |\n|---|---:|---|---:|---:|---:|\n`,
  );
  for (const c of cases(family.apiKey)) {
    if (only && !only.includes(c.name)) continue;
    const body = c.body?.();
    const once = () => send(other, base, c.method, c.path, c.headers, body);
    await once(); // warm-up
    const walls: number[] = [];
    const worst: number[] = [];
    const all: number[] = [];
    let answer: Answer = { status: 0, bytes: 0 };
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < 2; i++) await send(agent, base, 'GET', '/healthz');
      let done = false;
      const latencies: number[] = [];
      const probing = (async () => {
        while (!done) {
          const t0 = performance.now();
          await send(agent, base, 'GET', '/healthz');
          latencies.push(performance.now() - t0);
        }
      })();
      const t0 = performance.now();
      answer = await once();
      walls.push(performance.now() - t0);
      done = true;
      await probing;
      worst.push(Math.max(...latencies));
      all.push(...latencies);
    }
    const size = body === undefined ? '–' : `${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB`;
    process.stdout.write(
      `| ${c.name} | ${size} | ${answer.status}, ${answer.bytes.toLocaleString('en-US')} B | ${median(walls).toFixed(0)} | ${Math.min(...worst).toFixed(0)} – ${Math.max(...worst).toFixed(0)} | ${median(all).toFixed(1)} |\n`,
    );
  }
  agent.destroy();
} finally {
  await daemon?.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * What the CalDAV door's "is it there" step costs per request (every method but the one that
 * makes a resource first looks the resource up, so a missing one is a 404 whatever the method):
 * a daemon in this process (test helper: real server, fresh LMDB folder, loopback), 40 events in
 * its calendar, then N sequential GETs of one object and N PROPFIND Depth 0 of it, and N GETs of
 * a missing object; prints wall time and this process's CPU per request (client and server
 * both: compare runs, not absolute numbers).
 *
 *   npm run build && node dist/bench/davAnswers.js [N]
 */
import { startTestServer } from '../test/helpers/server.js';

const N = Number(process.argv[2] ?? 2000);
const server = await startTestServer({ timezone: 'Europe/Berlin' });
const auth = 'Basic ' + Buffer.from(`${server.slug}:${server.apiKey}`).toString('base64');
const ics = (i: number) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//bench//EN',
    'BEGIN:VEVENT',
    `UID:bench-${i}`,
    'DTSTAMP:20261101T000000Z',
    `DTSTART:202612${String((i % 28) + 1).padStart(2, '0')}T100000Z`,
    'DURATION:PT1H',
    `SUMMARY:Event ${i}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
for (let i = 0; i < 40; i++) {
  const r = await fetch(`${server.url}/dav/home/calendar/e${i}.ics`, {
    method: 'PUT',
    headers: { authorization: auth, 'content-type': 'text/calendar' },
    body: ics(i),
  });
  if (r.status !== 201) throw new Error(`PUT ${r.status}`);
}
const PROPFIND =
  '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>';
async function measure(name: string, method: string, path: string, body?: string) {
  for (let i = 0; i < 200; i++) await (await ask(method, path, body)).arrayBuffer();
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < N; i++) await (await ask(method, path, body)).arrayBuffer();
  const wall = (performance.now() - t) / N;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / N;
  console.log(`${name}: ${wall.toFixed(3)} ms wall, ${cpuMs.toFixed(3)} ms CPU per request`);
}
function ask(method: string, path: string, body?: string) {
  return fetch(server.url + path, {
    method,
    headers: { authorization: auth, depth: '0', 'content-type': 'application/xml' },
    ...(body ? { body } : {}),
  });
}
await measure('GET object', 'GET', '/dav/home/calendar/e7.ics');
await measure('PROPFIND object', 'PROPFIND', '/dav/home/calendar/e7.ics', PROPFIND);
await measure('GET missing object (404)', 'GET', '/dav/home/calendar/none.ics');
await server.close();

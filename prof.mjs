import { startTestServer } from '/work/wt-bounded/dist/test/helpers/server.js';
const server = await startTestServer({ timezone: 'Europe/Berlin' });
const auth = 'Basic ' + Buffer.from(`home:${server.apiKey}`).toString('base64');
const MB = 1_000_000;
const kind = process.argv[2];
const bodies = {
  xml: [`PROPFIND`, '/dav/home/calendar/', `<d:propfind xmlns:d="DAV:"><d:prop a="${'\r'.repeat(MB)}"><d:getetag/></d:prop></d:propfind>`, 'application/xml'],
  ics: ['PUT', '/dav/home/calendar/x.ics', ['BEGIN:VCALENDAR','VERSION:2.0','BEGIN:VEVENT','UID:b','DTSTART:20261201T100000Z',`DESCRIPTION:${'\r'.repeat(MB)}`,'END:VEVENT','END:VCALENDAR',''].join('\r\n'), 'text/calendar'],
};
const [method, path, body, type] = bodies[kind];
for (let i = 0; i < 6; i++) {
  const t = performance.now();
  const r = await fetch(server.url + path, { method, headers: { authorization: auth, depth: '0', 'content-type': type }, body });
  await r.text();
  console.log(r.status, (performance.now() - t).toFixed(0));
}
await server.close();

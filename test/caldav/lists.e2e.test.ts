/**
 * To-do lists and calendars made by calendar apps (MKCALENDAR, as iOS Reminders' "Add List",
 * tasks.org and Thunderbird's new task list send it), names as labels, and what a to-do in such a
 * list keeps: each rule on both sides, through the real server and checked through REST.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, calendarData, hrefs, ics, lines } from './dav.js';

const MK = (props: string) =>
  `<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>${props}</d:prop></d:set></c:mkcalendar>`;
const comps = (...names: string[]) =>
  `<c:supported-calendar-component-set>${names.map((n) => `<c:comp name="${n}"/>`).join('')}</c:supported-calendar-component-set>`;
const name = (n: string) => `<d:displayname>${n}</d:displayname>`;

describe('CalDAV MKCALENDAR, DELETE and PROPPATCH of collections', () => {
  let server: TestServer;
  let dav: Dav;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
  });
  after(() => server?.close());

  async function tracker(key: string): Promise<any> {
    const r = await server.api.get('/trackers');
    return r.body.trackers.find((t: { key: string }) => t.key === key);
  }

  describe('what a new collection holds', () => {
    it('makes a to-do list, visible in REST at once, when the component set is VTODO alone', async () => {
      const r = await dav.request(
        'MKCALENDAR',
        '/dav/home/packing/',
        MK(name('Packing') + comps('VTODO')),
      );
      expect(r.status, r.text).to.equal(201);
      expect(r.headers.get('location')).to.equal('/dav/home/packing/');
      const t = await tracker('packing');
      expect(t).to.include({ name: 'Packing' });
      expect(t).not.to.have.property('category');
      expect(t.fields).to.deep.equal([
        { key: 'due', label: 'Due', type: 'date' },
        { key: 'notes', label: 'Notes', type: 'textarea' },
      ]);
      const p = await dav.propfind('/dav/home/packing/', '<c:supported-calendar-component-set/>');
      expect(p.text).to.contain('<c:comp name="VTODO"/>').and.not.contain('VEVENT');
      const entry = await server.api.post('/trackers/packing/entries', {
        title: 'Passports',
        data: { due: '2026-12-20', notes: 'both of them' },
      });
      expect(entry.status, entry.text).to.equal(201);
      const got = await dav.request('GET', `/dav/home/packing/${entry.body.entry.id}.ics`);
      expect(lines(got.text))
        .to.include('DUE;VALUE=DATE:20261220')
        .and.include('DESCRIPTION:both of them')
        .and.include('SUMMARY:Passports');
    });

    it('makes a calendar for VEVENT, for VEVENT with VTODO, and without a component set', async () => {
      for (const [key, set] of [
        ['trips', comps('VEVENT')],
        ['both', comps('VEVENT', 'VTODO')],
        ['plain', ''],
      ]) {
        const r = await dav.request('MKCALENDAR', `/dav/home/${key}/`, MK(name(key) + set));
        expect(r.status, r.text).to.equal(201);
        expect(await tracker(key)).to.include({ category: 'calendar' });
        const p = await dav.propfind(`/dav/home/${key}/`, '<c:supported-calendar-component-set/>');
        expect(p.text).to.contain('<c:comp name="VEVENT"/>').and.not.contain('VTODO');
      }
    });

    it('makes a list for VTODO beside VJOURNAL, and refuses a set with neither VEVENT nor VTODO', async () => {
      const list = await dav.request(
        'MKCALENDAR',
        '/dav/home/notes-and-todos/',
        MK(comps('VJOURNAL', 'VTODO')),
      );
      expect(list.status, list.text).to.equal(201);
      expect(await tracker('notes-and-todos')).not.to.have.property('category');
      const r = await dav.request('MKCALENDAR', '/dav/home/journal/', MK(comps('VJOURNAL')));
      expect(r.status).to.equal(403);
      expect(r.text).to.contain('<c:supported-calendar-component/>').and.contain('VJOURNAL');
      expect(await tracker('journal')).to.equal(undefined);
    });

    it('makes a list with an extended MKCOL asking for a VTODO calendar (DAVx⁵), and refuses one that is no calendar', async () => {
      const mkcol = (rt: string, set = '') =>
        `<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:resourcetype>${rt}</d:resourcetype><d:displayname>Tasks</d:displayname>${set}</d:prop></d:set></d:mkcol>`;
      const r = await dav.request(
        'MKCOL',
        '/dav/home/tasks/',
        mkcol('<d:collection/><c:calendar/>', comps('VTODO')),
      );
      expect(r.status, r.text).to.equal(201);
      expect(await tracker('tasks'))
        .to.include({ name: 'Tasks' })
        .and.not.have.property('category');
      const plain = await dav.request('MKCOL', '/dav/home/folder/', mkcol('<d:collection/>'));
      expect(plain.status).to.equal(403);
      expect(plain.text).to.contain('<d:valid-resourcetype/>');
      expect(await tracker('folder')).to.equal(undefined);
    });

    it('stores a to-do written by a client in the new list: DUE with its time, DESCRIPTION as notes', async () => {
      await dav.request('MKCALENDAR', '/dav/home/errands/', MK(name('Errands') + comps('VTODO')));
      const put = await dav.put(
        '/dav/home/errands/stamps.ics',
        ics(
          'PRODID:-//test//EN',
          'BEGIN:VTODO',
          'UID:stamps-1',
          'DTSTAMP:20261101T000000Z',
          'DTSTART:20261201T080000Z',
          'DUE:20261202T170000Z',
          'SUMMARY:Buy stamps',
          'DESCRIPTION:at the post office',
          'END:VTODO',
        ),
      );
      expect(put.status, put.text).to.equal(201);
      const entries = (await server.api.get('/trackers/errands/entries')).body.entries;
      expect(entries).to.have.length(1);
      expect(entries[0]).to.deep.include({ title: 'Buy stamps' });
      expect(entries[0].data).to.deep.equal({ due: '2026-12-02', notes: 'at the post office' });
      const got = lines((await dav.request('GET', '/dav/home/errands/stamps.ics')).text);
      // Served as written while the date is the same, so DUE − DTSTART still computes.
      expect(got).to.include('DUE:20261202T170000Z').and.include('DTSTART:20261201T080000Z');
      await server.api.patch(`/trackers/errands/entries/${entries[0].id}`, {
        data: { due: '2026-12-05' },
      });
      const moved = lines((await dav.request('GET', '/dav/home/errands/stamps.ics')).text);
      expect(moved).to.include('DUE;VALUE=DATE:20261205').and.not.include('DUE:20261202T170000Z');
    });
  });

  describe('DELETE of a collection', () => {
    it('removes a list a client made, with its entries, as REST would', async () => {
      await dav.request('MKCALENDAR', '/dav/home/gone/', MK(name('Gone') + comps('VTODO')));
      await dav.put(
        '/dav/home/gone/a.ics',
        ics('BEGIN:VTODO', 'UID:gone-a', 'DTSTAMP:20261101T000000Z', 'SUMMARY:A', 'END:VTODO'),
      );
      const del = await dav.request('DELETE', '/dav/home/gone/');
      expect(del.status).to.equal(204);
      expect(await tracker('gone')).to.equal(undefined);
      const changes = (await server.api.get('/changes?after=0&limit=500')).body.changes as any[];
      const deleted = changes.find(
        (c) => c.type === 'collection.deleted' && c.object.key === 'gone',
      );
      expect(deleted.object.deletedEntries).to.equal(1);
      const again = await dav.propfind('/dav/home/gone/', '<d:displayname/>');
      expect(again.status).to.equal(404);
    });

    it('keeps the built-in lists and calendar: 403 need-privileges, nothing removed', async () => {
      for (const key of ['chores', 'groceries', 'calendar']) {
        const r = await dav.request('DELETE', `/dav/home/${key}/`);
        expect(r.status, key).to.equal(403);
        expect(r.text).to.contain('<d:need-privileges/>').and.contain('built in');
        expect(await tracker(key), key).to.exist;
      }
    });
  });

  describe('names are labels', () => {
    it('makes a second "Packing" from a client, named "Packing (2)" in REST; the address is the key', async () => {
      await server.api.post('/trackers', { name: 'Camping' });
      const r = await dav.request(
        'MKCALENDAR',
        '/dav/home/camping-2026/',
        MK(name('Camping') + comps('VTODO')),
      );
      expect(r.status, r.text).to.equal(201);
      expect(await tracker('camping-2026')).to.include({ name: 'Camping (2)' });
      const third = await dav.request(
        'MKCALENDAR',
        '/dav/home/camping-b/',
        MK(name('camping') + comps('VEVENT')),
      );
      expect(third.status).to.equal(201);
      expect(await tracker('camping-b')).to.include({ name: 'camping (3)' });
      const p = await dav.propfind('/dav/home/camping-2026/', '<d:displayname/>');
      expect(p.text).to.contain('<d:displayname>Camping (2)</d:displayname>');
    });

    it('renames through PROPPATCH to a name another collection has, and REST keeps them distinct', async () => {
      await dav.request('MKCALENDAR', '/dav/home/school/', MK(name('School') + comps('VEVENT')));
      const pp = await dav.request(
        'PROPPATCH',
        '/dav/home/school/',
        '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Family calendar</d:displayname></d:prop></d:set></d:propertyupdate>',
      );
      expect(pp.status).to.equal(207);
      expect(pp.text).to.contain('HTTP/1.1 200 OK').and.not.contain('409');
      expect(await tracker('school')).to.include({ name: 'Family calendar (2)' });
      expect(await tracker('calendar')).to.include({ name: 'Family calendar' });
      // Its own name again is no clash.
      await dav.request(
        'PROPPATCH',
        '/dav/home/school/',
        '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>School</d:displayname></d:prop></d:set></d:propertyupdate>',
      );
      expect(await tracker('school')).to.include({ name: 'School' });
    });

    it('still refuses a taken name through REST (409 naming the field), where the caller can choose another', async () => {
      const r = await server.api.post('/trackers', { name: 'chores' });
      expect(r.status).to.equal(409);
      expect(r.body.issues[0].path).to.deep.equal(['name']);
      const p = await server.api.patch('/trackers/packing', { name: 'Groceries' });
      expect(p.status).to.equal(409);
    });

    it('refuses a display name longer than 100 characters, naming it, and makes nothing', async () => {
      const r = await dav.request(
        'MKCALENDAR',
        '/dav/home/long/',
        MK(name('x'.repeat(101)) + comps('VTODO')),
      );
      expect(r.status).to.equal(403);
      expect(r.text).to.contain('name must be at most 100 characters');
      expect(await tracker('long')).to.equal(undefined);
    });
  });

  describe('a repeating to-do completed one occurrence at a time', () => {
    it('keeps the changed occurrences and the VTIMEZONE beside the to-do, and serves them back', async () => {
      await dav.request('MKCALENDAR', '/dav/home/weekly/', MK(comps('VTODO')));
      const body = ics(
        'PRODID:-//test//EN',
        'BEGIN:VTIMEZONE',
        'TZID:Custom Berlin',
        'X-LIC-LOCATION:Europe/Berlin',
        'BEGIN:STANDARD',
        'DTSTART:19701025T030000',
        'TZOFFSETFROM:+0200',
        'TZOFFSETTO:+0100',
        'END:STANDARD',
        'END:VTIMEZONE',
        'BEGIN:VTODO',
        'UID:bins-1',
        'DTSTAMP:20261101T000000Z',
        'DTSTART;TZID=Custom Berlin:20261102T070000',
        'DUE;TZID=Custom Berlin:20261102T080000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'SUMMARY:Bins out',
        'STATUS:NEEDS-ACTION',
        'END:VTODO',
        'BEGIN:VTODO',
        'UID:bins-1',
        'DTSTAMP:20261101T000000Z',
        'RECURRENCE-ID;TZID=Custom Berlin:20261102T070000',
        'DTSTART;TZID=Custom Berlin:20261102T070000',
        'DUE;TZID=Custom Berlin:20261102T080000',
        'SUMMARY:Bins out',
        'STATUS:COMPLETED',
        'COMPLETED:20261102T071500Z',
        'END:VTODO',
      );
      const put = await dav.put('/dav/home/weekly/bins.ics', body);
      expect(put.status, put.text).to.equal(201);
      const entries = (await server.api.get('/trackers/weekly/entries')).body.entries;
      expect(entries.map((e: any) => [e.title, e.status])).to.deep.equal([['Bins out', 'active']]);
      const got = (await dav.request('GET', '/dav/home/weekly/bins.ics')).text;
      expect(got.match(/BEGIN:VTODO/g)).to.have.length(2);
      expect(lines(got))
        .to.include('TZID:Custom Berlin')
        .and.include('RECURRENCE-ID;TZID=Custom Berlin:20261102T070000')
        .and.include('COMPLETED:20261102T071500Z')
        .and.include('RRULE:FREQ=WEEKLY;COUNT=3');
      expect(got.indexOf('BEGIN:VTIMEZONE')).to.be.lessThan(got.indexOf('BEGIN:VTODO'));
      // Its third week is found by a time range; the week after the rule ends is not.
      const q = (start: string, end: string) =>
        dav.report(
          '/dav/home/weekly/',
          `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:time-range start="${start}" end="${end}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
        );
      expect(hrefs((await q('20261116T000000Z', '20261117T000000Z')).text)).to.deep.equal([
        '/dav/home/weekly/bins.ics',
      ]);
      expect(hrefs((await q('20261123T000000Z', '20261124T000000Z')).text)).to.deep.equal([]);
      expect(calendarData((await q('20261116T000000Z', '20261117T000000Z')).text)[0]).to.contain(
        'RRULE',
      );
    });
  });
});

/**
 * The CalDAV door through real HTTP: discovery, Basic auth and scopes, properties, collections
 * made, renamed and deleted, ETags and preconditions, calendar-query and sync-collection.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startIcsServer } from '../helpers/fakes/icsServer.js';
import { calendar } from '../helpers/fakes/icsText.js';
import { Dav, calendarData, hrefs, ics, syncToken } from './dav.js';

describe('CalDAV door (/dav)', () => {
  let server: TestServer;
  let dav: Dav;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
  });
  after(() => server?.close());

  const event = (uid: string, summary: string, start = '20261207T180000', extra: string[] = []) =>
    ics(
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20261101T000000Z',
      `DTSTART;TZID=Europe/Berlin:${start}`,
      'DURATION:PT1H',
      `SUMMARY:${summary}`,
      ...extra,
      'END:VEVENT',
    );

  describe('discovery and auth', () => {
    it('redirects /.well-known/caldav to /dav/ and names the principal and home', async () => {
      const wk = await fetch(server.url + '/.well-known/caldav', {
        redirect: 'manual',
        method: 'PROPFIND',
      });
      expect(wk.status).to.equal(301);
      expect(wk.headers.get('location')).to.equal('/dav/');
      const home = await dav.propfind('/dav/home/', '<d:principal-URL/>');
      expect(home.text).to.contain('<d:principal-URL><d:href>/dav/home/</d:href>');
      const r = await dav.propfind('/dav/', '<d:current-user-principal/><c:calendar-home-set/>');
      expect(r.status).to.equal(207);
      expect(r.text).to.contain('<d:current-user-principal><d:href>/dav/home/</d:href>');
      expect(r.text).to.contain('<c:calendar-home-set><d:href>/dav/home/</d:href>');
    });

    it('answers OPTIONS with the DAV classes and methods, without credentials', async () => {
      const r = await fetch(server.url + '/dav/home/', { method: 'OPTIONS' });
      expect(r.status).to.equal(200);
      expect(r.headers.get('dav')).to.contain('calendar-access').and.contain('3');
      expect(r.headers.get('allow')).to.contain('REPORT').and.contain('MKCALENDAR');
    });

    it('refuses no, wrong and foreign credentials with 401 and a Basic challenge', async () => {
      const none = await fetch(server.url + '/dav/home/', { method: 'PROPFIND' });
      expect(none.status).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.match(/^Basic realm="/);
      const wrong = await new Dav(server, 'home', 'hk_nope_nope').propfind(
        '/dav/home/',
        '<d:displayname/>',
      );
      expect(wrong.status).to.equal(401);
      const other = await server.family('other-fam');
      const foreign = await new Dav(server, 'home', other.key).propfind(
        '/dav/home/',
        '<d:displayname/>',
      );
      expect(foreign.status).to.equal(401);
      expect(foreign.text).to.contain('<d:error').and.contain('family slug');
      const elsewhere = await new Dav(server, 'other-fam', other.key).propfind(
        '/dav/home/',
        '<d:displayname/>',
      );
      expect(elsewhere.status).to.equal(403);
    });

    it('lets a read key read and refuses its writes with 403 need-privileges', async () => {
      const reader = new Dav(server, 'home', await server.key({ scopes: ['read'] }));
      const props = await reader.propfind('/dav/home/calendar/', '<d:current-user-privilege-set/>');
      expect(props.text).to.contain('<d:read/>').and.not.contain('<d:write/>');
      const put = await reader.put('/dav/home/calendar/r.ics', event('read-1', 'No'));
      expect(put.status).to.equal(403);
      expect(put.text).to.contain('<d:need-privileges/>');
      const listed = await server.api.get('/trackers/calendar/entries');
      expect(listed.body.entries.map((e: { title: string }) => e.title)).not.to.include('No');
    });
  });

  describe('collections', () => {
    it('lists every collection: calendars as VEVENT, the others as VTODO lists, with ctag and color', async () => {
      const r = await dav.propfind(
        '/dav/home/',
        '<d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><cs:getctag/><ic:calendar-color/><d:sync-token/>',
        '1',
      );
      const all = hrefs(r.text);
      expect(all).to.include.members([
        '/dav/home/',
        '/dav/home/calendar/',
        '/dav/home/chores/',
        '/dav/home/groceries/',
        '/dav/home/meals/',
        '/dav/home/routines/',
      ]);
      const cal = r.text
        .split('<d:response>')
        .find((s) => s.includes('<d:href>/dav/home/calendar/</d:href>'))!;
      expect(cal)
        .to.contain('<c:comp name="VEVENT"/>')
        .and.contain('<ic:calendar-color>#8FA876FF</ic:calendar-color>');
      const chores = r.text
        .split('<d:response>')
        .find((s) => s.includes('<d:href>/dav/home/chores/</d:href>'))!;
      expect(chores)
        .to.contain('<c:comp name="VTODO"/>')
        .and.contain('<d:displayname>Chores</d:displayname>');
      expect(cal).to.match(
        /<cs:getctag>http:\/\/household-organizer\.invalid\/sync\/\d+-[0-9a-f]{8}<\/cs:getctag>/,
      );
    });

    it('makes a calendar with MKCALENDAR, renames and recolours it with PROPPATCH, deletes it; built-ins stay', async () => {
      const mk = await dav.request(
        'MKCALENDAR',
        '/dav/home/trips/',
        '<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Trips</d:displayname><ic:calendar-color>#3F7FD0</ic:calendar-color></d:prop></d:set></c:mkcalendar>',
      );
      expect(mk.status).to.equal(201);
      let trackers = (await server.api.get('/trackers')).body.trackers;
      expect(trackers.find((t: { key: string }) => t.key === 'trips')).to.include({
        name: 'Trips',
        category: 'calendar',
        color: 'blue',
      });
      const pp = await dav.request(
        'PROPPATCH',
        '/dav/home/trips/',
        '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Holidays</d:displayname><ic:calendar-color>#D9A52BFF</ic:calendar-color></d:prop></d:set></d:propertyupdate>',
      );
      expect(pp.status).to.equal(207);
      expect(pp.text).to.contain('HTTP/1.1 200 OK');
      trackers = (await server.api.get('/trackers')).body.trackers;
      expect(trackers.find((t: { key: string }) => t.key === 'trips')).to.include({
        name: 'Holidays',
        color: 'gold',
      });
      const builtin = await dav.request('DELETE', '/dav/home/chores/');
      expect(builtin.status).to.equal(403);
      expect(builtin.text).to.contain('built in');
      const del = await dav.request('DELETE', '/dav/home/trips/');
      expect(del.status).to.equal(204);
      expect(
        (await server.api.get('/trackers')).body.trackers.map((t: { key: string }) => t.key),
      ).not.to.include('trips');
    });

    it('refuses a property it cannot store, and changes nothing then', async () => {
      const pp = await dav.request(
        'PROPPATCH',
        '/dav/home/calendar/',
        '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:x="urn:x"><d:set><d:prop><d:displayname>Renamed</d:displayname><x:custom>1</x:custom></d:prop></d:set></d:propertyupdate>',
      );
      expect(pp.status).to.equal(207);
      expect(pp.text).to.contain('403 Forbidden').and.contain('424 Failed Dependency');
      const cal = (await server.api.get('/trackers')).body.trackers.find(
        (t: { key: string }) => t.key === 'calendar',
      );
      expect(cal.name).to.equal('Family calendar');
    });
  });

  describe("an external feed's calendar", () => {
    it('is served read-only (403 on PUT and DELETE), and a refresh changes its ETags and sync token', async function () {
      this.timeout(15_000);
      const feeds = await startIcsServer();
      try {
        const body = (summary: string) =>
          calendar([
            {
              uid: 'feed-1@school',
              summary,
              lines: ['DTSTART;TZID=Europe/Berlin:20261207T080000', 'DURATION:PT1H'],
            },
          ]);
        feeds.set('/school.ics', { body: body('Assembly') });
        const linked = await server.api.post('/calendar/external', {
          name: 'School',
          url: feeds.url('/school.ics'),
        });
        expect(linked.status, JSON.stringify(linked.body)).to.equal(201);
        const key = linked.body.calendarKey;
        const listed = await dav.propfind(
          `/dav/home/${key}/`,
          '<d:getetag/><d:current-user-privilege-set/>',
          '1',
        );
        expect(listed.text).to.contain('<d:read/>').and.not.contain('<d:write/>');
        const href = hrefs(listed.text).find((h) => h.endsWith('.ics'))!;
        const got = await dav.request('GET', href);
        expect(got.text).to.contain('SUMMARY:Assembly');
        const token = syncToken((await dav.sync(`/dav/home/${key}/`)).text);
        const put = await dav.put(href, got.text.replace('Assembly', 'Mine'));
        expect(put.status).to.equal(403);
        expect(put.text).to.contain('<d:need-privileges/>').and.contain('read-only');
        expect((await dav.request('DELETE', href)).status).to.equal(403);
        expect(
          (
            await dav.request('PUT', `/dav/home/${key}/new.ics`, event('feed-new', 'x'), {
              'content-type': 'text/calendar',
            })
          ).status,
        ).to.equal(403);
        feeds.set('/school.ics', { body: body('Assembly (hall)') });
        expect(
          (await server.api.post(`/calendar/external/${linked.body.sourceId}/refresh`)).status,
        ).to.equal(200);
        let after = got;
        for (let i = 0; i < 50 && after.headers.get('etag') === got.headers.get('etag'); i++) {
          await new Promise((r) => setTimeout(r, 100));
          after = await dav.request('GET', href);
        }
        expect(after.text).to.contain('SUMMARY:Assembly (hall)');
        expect(after.headers.get('etag')).not.to.equal(got.headers.get('etag'));
        expect(hrefs((await dav.sync(`/dav/home/${key}/`, token)).text)).to.include(href);
      } finally {
        await feeds.close();
      }
    });
  });

  describe('objects', () => {
    it('serves a REST-made event as <id>.ics with a strong ETag that changes with the event', async () => {
      const made = await server.api.post('/calendar/events', {
        title: 'Dentist',
        date: '2026-12-03',
        time: '10:00',
      });
      const id = made.body.entryId;
      const get1 = await dav.request('GET', `/dav/home/calendar/${id}.ics`);
      expect(get1.status).to.equal(200);
      const etag1 = get1.headers.get('etag')!;
      expect(etag1).to.match(/^"[^"]+"$/);
      expect(get1.text)
        .to.contain('SUMMARY:Dentist')
        .and.contain('DTSTART;TZID=Europe/Berlin:20261203T100000');
      expect(get1.text).to.contain(`UID:${id}@`);
      await server.api.patch(`/calendar/events/${id}`, { where: 'Main St 1' });
      const get2 = await dav.request('GET', `/dav/home/calendar/${id}.ics`);
      expect(get2.headers.get('etag')).not.to.equal(etag1);
      expect(get2.text).to.contain('LOCATION:Main St 1');
      const stale = await dav.put(`/dav/home/calendar/${id}.ics`, get1.text, { 'if-match': etag1 });
      expect(stale.status).to.equal(412);
      const exists = await dav.put(`/dav/home/calendar/${id}.ics`, get2.text, {
        'if-none-match': '*',
      });
      expect(exists.status).to.equal(412);
      const ok = await dav.put(
        `/dav/home/calendar/${id}.ics`,
        get2.text.replace('SUMMARY:Dentist', 'SUMMARY:Dentist (moved)'),
        { 'if-match': get2.headers.get('etag')! },
      );
      expect(ok.status).to.equal(204);
      expect(ok.headers.get('etag'), 'a rewritten object is answered without an ETag').to.equal(
        null,
      );
      const list = await server.api.get('/calendar/events?from=2026-12-03&to=2026-12-03');
      expect(list.body.events[0]).to.include({ id, title: 'Dentist (moved)' });
      expect(list.body.events[0].data.where).to.equal('Main St 1');
    });

    it("keeps a client's object name and UID, and refuses a second object with the same UID (409)", async () => {
      const put = await dav.put('/dav/home/calendar/my-name.ics', event('client-uid-1', 'Piano'), {
        'if-none-match': '*',
      });
      expect(put.status).to.equal(201);
      const got = await dav.request('GET', '/dav/home/calendar/my-name.ics');
      expect(got.text).to.contain('UID:client-uid-1');
      const twin = await dav.put(
        '/dav/home/calendar/other-name.ics',
        event('client-uid-1', 'Piano again'),
      );
      expect(twin.status).to.equal(409);
      expect(twin.text).to.contain('<c:no-uid-conflict/>');
      const del = await dav.request('DELETE', '/dav/home/calendar/my-name.ics');
      expect(del.status).to.equal(204);
      expect((await dav.request('GET', '/dav/home/calendar/my-name.ics')).status).to.equal(404);
    });
  });

  describe('reports', () => {
    it('calendar-query matches series by their occurrences and expands them in UTC', async () => {
      await dav.put(
        '/dav/home/calendar/weekly.ics',
        event('weekly-1', 'Choir', '20261102T190000', [
          'RRULE:FREQ=WEEKLY;COUNT=4',
          'EXDATE;TZID=Europe/Berlin:20261109T190000',
        ]),
      );
      const hit = await dav.query('/dav/home/calendar/', 'VEVENT', [
        '20261116T000000Z',
        '20261117T000000Z',
      ]);
      expect(hrefs(hit.text)).to.include('/dav/home/calendar/weekly.ics');
      const removed = await dav.query('/dav/home/calendar/', 'VEVENT', [
        '20261109T000000Z',
        '20261110T000000Z',
      ]);
      expect(hrefs(removed.text)).not.to.include('/dav/home/calendar/weekly.ics');
      const after = await dav.query('/dav/home/calendar/', 'VEVENT', [
        '20261201T000000Z',
        '20261202T000000Z',
      ]);
      expect(hrefs(after.text)).not.to.include('/dav/home/calendar/weekly.ics');
      const expanded = await dav.query(
        '/dav/home/calendar/',
        'VEVENT',
        ['20261101T000000Z', '20261201T000000Z'],
        ['20261101T000000Z', '20261201T000000Z'],
      );
      const data = calendarData(
        expanded.text.split('<d:response>').find((s) => s.includes('weekly.ics'))!,
      )[0];
      expect(data.match(/BEGIN:VEVENT/g)).to.have.length(3);
      expect(data).not.to.contain('RRULE').and.not.to.contain('EXDATE');
      expect(data)
        .to.contain('DTSTART:20261102T180000Z')
        .and.contain('RECURRENCE-ID:20261116T180000Z');
      expect((await dav.query('/dav/home/calendar/', 'VTODO')).text).not.to.contain('<d:response>');
    });

    it('calendar-query finds an event by UID with a prop-filter (the series, not its VTIMEZONE)', async () => {
      await dav.put(
        '/dav/home/calendar/by-uid.ics',
        event('Swim-2026@phone.example', 'Swim', '20261105T170000', ['RRULE:FREQ=WEEKLY']),
      );
      const q = (match: string, collation = '') =>
        dav.report(
          '/dav/home/calendar/',
          `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:prop-filter name="UID"><c:text-match${collation}>${match}</c:text-match></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
        );
      expect(
        hrefs((await q('Swim-2026@phone.example', ' collation="i;octet"')).text),
      ).to.deep.equal(['/dav/home/calendar/by-uid.ics']);
      expect(hrefs((await q('swim-2026@phone.example')).text)).to.deep.equal([
        '/dav/home/calendar/by-uid.ics',
      ]);
      expect(
        hrefs((await q('swim-2026@phone.example', ' collation="i;octet"')).text),
      ).to.deep.equal([]);
    });

    it('sync-collection reports what changed since a token, deletions by the name the client used', async () => {
      const first = await dav.sync('/dav/home/calendar/');
      const token = syncToken(first.text);
      expect(token).to.match(/^http:\/\/household-organizer\.invalid\/sync\//);
      await dav.put('/dav/home/calendar/sync-a.ics', event('sync-a', 'A'));
      await dav.put('/dav/home/calendar/sync-b.ics', event('sync-b', 'B'));
      const made = await server.api.post('/calendar/events', {
        title: 'From REST',
        date: '2026-12-09',
      });
      const second = await dav.sync('/dav/home/calendar/', token);
      expect(hrefs(second.text)).to.have.members([
        '/dav/home/calendar/sync-a.ics',
        '/dav/home/calendar/sync-b.ics',
        `/dav/home/calendar/${made.body.entryId}.ics`,
      ]);
      const token2 = syncToken(second.text);
      await dav.request('DELETE', '/dav/home/calendar/sync-a.ics');
      await server.api.delete(`/calendar/events/${made.body.entryId}`);
      const third = await dav.sync('/dav/home/calendar/', token2);
      expect(third.text).to.contain(
        '<d:href>/dav/home/calendar/sync-a.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>',
      );
      expect(third.text).to.contain(
        `<d:href>/dav/home/calendar/${made.body.entryId}.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>`,
      );
      expect(hrefs(third.text)).to.have.length(2);
      const bogus = await dav.sync(
        '/dav/home/calendar/',
        'http://household-organizer.invalid/sync/999999-00000000',
      );
      expect(bogus.status).to.equal(403);
      expect(bogus.text).to.contain('<d:valid-sync-token/>');
    });

    it("changes ETags and reports the object when a person's email in its ATTENDEE changes", async () => {
      const person = (await server.api.post('/people', { name: 'Ann', email: 'ann@example.org' }))
        .body.person;
      await dav.put(
        '/dav/home/calendar/party.ics',
        event('party-1', 'Party', '20261212T180000', [
          'ATTENDEE;PARTSTAT=ACCEPTED:mailto:ann@example.org',
        ]),
      );
      const before = await dav.request('GET', '/dav/home/calendar/party.ics');
      expect(before.text).to.contain('mailto:ann@example.org');
      const token = syncToken((await dav.sync('/dav/home/calendar/')).text);
      await server.api.patch(`/people/${person.id}`, { email: 'ann@example.net' });
      const after = await dav.request('GET', '/dav/home/calendar/party.ics');
      expect(after.text).to.contain('mailto:ann@example.net');
      expect(after.headers.get('etag')).not.to.equal(before.headers.get('etag'));
      const synced = await dav.sync('/dav/home/calendar/', token);
      expect(hrefs(synced.text)).to.include('/dav/home/calendar/party.ics');
    });
  });
});

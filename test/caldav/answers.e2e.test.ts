/**
 * Every method on every kind of /dav/ path answers in CalDAV's form: a missing collection or
 * object is a 404 DAV:error, a method a resource does not take a 405 with that resource's Allow,
 * never the REST API's JSON; and a refusal's status line carries its short reason, since
 * vdirsyncer, DAVx⁵ and Home Assistant show a person the status line, not the body.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, ics } from './dav.js';

const METHODS = [
  'GET',
  'HEAD',
  'PUT',
  'DELETE',
  'PROPFIND',
  'PROPPATCH',
  'REPORT',
  'MKCALENDAR',
  'MKCOL',
  'POST',
  'PATCH',
  'LOCK',
  'UNLOCK',
  'COPY',
  'MOVE',
  'ACL',
];

/** What each kind of resource takes (its Allow); the service root answers as the home does. */
const ALLOW = {
  home: ['OPTIONS', 'GET', 'HEAD', 'PROPFIND', 'REPORT'],
  collection: ['OPTIONS', 'GET', 'HEAD', 'DELETE', 'PROPFIND', 'PROPPATCH', 'REPORT', 'MKCALENDAR'],
  object: ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'PROPFIND'],
};

const PROPFIND =
  '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>';
const PROPPATCH =
  '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>x</d:displayname></d:prop></d:set></d:propertyupdate>';
const QUERY =
  '<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>';
const EVENT = ics(
  'BEGIN:VEVENT',
  'UID:answers-1',
  'DTSTAMP:20261101T000000Z',
  'DTSTART:20261201T100000Z',
  'SUMMARY:x',
  'END:VEVENT',
);

/** A body a method would send, so it fails for its path and not for its body. */
function bodyOf(method: string): { body?: string; type?: string } {
  switch (method) {
    case 'PUT':
      return { body: EVENT, type: 'text/calendar; charset=utf-8' };
    case 'PROPFIND':
      return { body: PROPFIND, type: 'application/xml' };
    case 'PROPPATCH':
      return { body: PROPPATCH, type: 'application/xml' };
    case 'REPORT':
      return { body: QUERY, type: 'application/xml' };
    default:
      return {};
  }
}

describe('CalDAV answers on every /dav/ path', () => {
  let server: TestServer;
  let dav: Dav;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
    const r = await dav.put('/dav/home/calendar/there.ics', EVENT);
    expect(r.status, r.text).to.equal(201);
  });
  after(() => server?.close());

  async function send(method: string, path: string) {
    const { body, type } = bodyOf(method);
    return dav.request(method, path, body, {
      ...(type ? { 'content-type': type } : {}),
      depth: '0',
    });
  }

  function expectDavError(r: { status: number; headers: Headers; text: string }, what: string) {
    expect(r.headers.get('content-type'), what).to.match(/^application\/xml/);
    if (r.text) expect(r.text, what).to.contain('<d:error').and.not.contain('"ok"');
  }

  it('answers 404 DAV:error for a missing collection, object or deeper path, whatever method it would take', async () => {
    const missing = [
      ['/dav/home/nothere/', ALLOW.collection.filter((m) => m !== 'MKCALENDAR')],
      ['/dav/home/calendar/nothere.ics', ALLOW.object.filter((m) => m !== 'PUT')],
      ['/dav/home/nothere/x.ics', ALLOW.object.filter((m) => m !== 'PUT')],
      ['/dav/home/calendar/there.ics/deeper', METHODS],
      ['/dav/home/a/b/c/d', METHODS],
    ] as const;
    for (const [path, methods] of missing) {
      for (const m of methods.filter((x) => x !== 'OPTIONS')) {
        const r = await send(m, path);
        const what = `${m} ${path}: ${r.status} ${r.text.slice(0, 200)}`;
        expect(r.status, what).to.equal(404);
        expectDavError(r, what);
      }
    }
  });

  it('answers 409 to a PUT or MKCALENDAR below a collection that does not exist', async () => {
    for (const m of ['PUT', 'MKCALENDAR']) {
      const r = await send(m, '/dav/home/nothere/x.ics');
      expect(r.status, `${m}: ${r.text}`).to.equal(409);
      expectDavError(r, m);
    }
  });

  it('answers 405 with the resource’s Allow for a method it does not take', async () => {
    const paths = [
      ['/dav/', ALLOW.home],
      ['/dav/home/', ALLOW.home],
      ['/dav/home/calendar/', ALLOW.collection],
      ['/dav/home/calendar/there.ics', ALLOW.object],
      // A method no collection or object takes is refused so whether or not one is there.
      ['/dav/home/nothere/', ALLOW.collection],
      ['/dav/home/calendar/nothere.ics', ALLOW.object],
    ] as const;
    const makers = ['MKCALENDAR', 'MKCOL'];
    for (const [path, allowed] of paths) {
      const missing = path.includes('nothere');
      const refused = METHODS.filter(
        (x) => !(allowed as readonly string[]).includes(x) && !(missing && makers.includes(x)),
      );
      for (const m of refused) {
        const r = await send(m, path);
        const what = `${m} ${path}: ${r.status} ${r.text.slice(0, 200)}`;
        expect(r.status, what).to.equal(405);
        expectDavError(r, what);
        const allow = (r.headers.get('allow') ?? '').split(',').map((s) => s.trim());
        expect(allow, what).to.have.members([...allowed]);
      }
    }
  });

  it('makes, on a missing object path, nothing but a 403 for MKCALENDAR (collections are made in the home)', async () => {
    const r = await send('MKCALENDAR', '/dav/home/calendar/new/');
    expect(r.status).to.equal(403);
    expect(r.text).to.contain('calendar-collection-location-ok');
  });

  describe('the status line', () => {
    it('carries the short reason of a refusal beside the DAV:error body', async () => {
      const res = await fetch(`${server.url}/dav/home/calendar/setpos.ics`, {
        method: 'PUT',
        headers: { authorization: dav.auth, 'content-type': 'text/calendar' },
        body: ics(
          'BEGIN:VEVENT',
          'UID:setpos-1',
          'DTSTAMP:20261101T000000Z',
          'DTSTART:20261102T100000Z',
          'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
          'SUMMARY:Last workday',
          'END:VEVENT',
        ),
      });
      expect(res.status).to.equal(403);
      expect(res.statusText).to.equal(
        'RRULE uses BYSETPOS: the household calendar cannot hold this rule, and changing it silently would move occurrences',
      );
      expect(await res.text())
        .to.contain('<c:valid-calendar-object-resource/>')
        .and.contain('BYSETPOS');
    });

    it('says why for a missing object, a refused method, a read-only key and a bad login', async () => {
      const status = async (method: string, path: string, key = server.apiKey, slug = 'home') => {
        const res = await fetch(server.url + path, {
          method,
          headers: { authorization: 'Basic ' + Buffer.from(`${slug}:${key}`).toString('base64') },
        });
        await res.arrayBuffer();
        return `${res.status} ${res.statusText}`;
      };
      expect(await status('GET', '/dav/home/calendar/nothere.ics')).to.match(
        /^404 No object nothere\.ics in calendar/,
      );
      expect(await status('LOCK', '/dav/home/calendar/')).to.match(
        /^405 LOCK is not supported here/,
      );
      const reader = await server.key({ scopes: ['read'] });
      expect(await status('DELETE', '/dav/home/calendar/there.ics', reader)).to.equal(
        '403 This API key may only read',
      );
      expect(await status('PROPFIND', '/dav/home/', 'hk_nope_nope')).to.match(
        /^401 The user must be a family slug/,
      );
    });

    it('keeps an object name with line breaks and non-Latin letters out of the status line', async () => {
      const res = await fetch(
        `${server.url}/dav/home/calendar/${encodeURIComponent('日本\r\nX-Evil: 1')}.ics`,
        {
          headers: { authorization: dav.auth },
        },
      );
      await res.arrayBuffer();
      expect([400, 404]).to.include(res.status);
      expect(res.statusText).not.to.match(/[\r\n]/);
      expect(res.headers.get('x-evil')).to.equal(null);
    });
  });
});

/**
 * The CalDAV door under the daemon's one limiter (docs/caldav.md, "Limits"): every request with
 * a family key counts against that key's `rateLimit.perMinute`, answered in CalDAV's own form
 * past it (a `DAV:error` body, `Retry-After`); failed logins count per client address, and a
 * valid login is served whatever others sent from that address.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { Dav } from './dav.js';

describe('CalDAV door (/dav): rate limits', () => {
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  let server: TestServer;
  let dav: Dav;

  before(async () => {
    server = await startTestServer({
      now: clock.now,
      overrides: { rateLimit: { perMinute: 30, publicPerMinute: 20 } },
    });
    dav = new Dav(server, 'home', server.apiKey);
  });
  after(() => server?.close());
  beforeEach(() => clock.advance(60_000));

  it('answers a key perMinute requests a minute, then 429 as a DAV:error with Retry-After', async () => {
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await dav.propfind('/dav/home/', '<d:displayname/>');
      statuses.push(r.status);
      remaining.push(r.headers.get('ratelimit-remaining'));
    }
    expect(new Set(statuses)).to.deep.equal(new Set([207]));
    expect(remaining[0]).to.equal('29');
    expect(remaining[29]).to.equal('0');
    clock.advance(20_000);
    for (let i = 30; i < 35; i++) {
      const r = await dav.propfind('/dav/home/', '<d:displayname/>');
      expect(r.status, `request ${i + 1}`).to.equal(429);
      expect(r.headers.get('retry-after')).to.equal('40');
      expect(r.headers.get('ratelimit-limit')).to.equal('30');
      expect(r.headers.get('content-type')).to.match(/^application\/xml/);
      expect(r.text).to.match(/<d:error[^>]* xmlns:d="DAV:"/);
      expect(r.text).to.contain('Too many requests for this API key; try again in 40 s');
    }
    // The budget is the key's, whatever the door: REST is refused too, and another key is not.
    expect((await server.api.get('/people')).status).to.equal(429);
    const other = new Dav(server, 'home', await server.key({ scopes: ['read'] }));
    expect((await other.propfind('/dav/home/', '<d:displayname/>')).status).to.equal(207);
    clock.advance(40_000);
    expect((await dav.propfind('/dav/home/', '<d:displayname/>')).status).to.equal(207);
  });

  it('shares one budget with REST: requests to either door count for the key', async () => {
    for (let i = 0; i < 20; i++) expect((await server.api.get('/people')).status).to.equal(200);
    for (let i = 0; i < 10; i++)
      expect((await dav.propfind('/dav/home/', '<d:displayname/>')).status).to.equal(207);
    expect((await dav.propfind('/dav/home/', '<d:displayname/>')).status).to.equal(429);
  });

  it('serves a valid login after 20 failed ones from the same address, and keeps refusing bad ones', async () => {
    const wrong = new Dav(server, 'home', `${server.apiKey.slice(0, -4)}zzzz`);
    for (let i = 0; i < 20; i++)
      expect((await wrong.propfind('/dav/home/', '<d:displayname/>')).status).to.equal(401);
    const good = await dav.propfind('/dav/home/', '<d:displayname/>');
    expect(good.status, good.text).to.equal(207);
    const cut = await wrong.propfind('/dav/home/', '<d:displayname/>');
    expect(cut.status).to.equal(429);
    expect(cut.headers.get('retry-after')).to.match(/^\d+$/);
    expect(cut.text).to.match(/<d:error[^>]* xmlns:d="DAV:"/);
    expect(cut.text).to.contain('Too many failed logins from this address');
    // Clients probe without credentials first: that is answered with the challenge, not counted.
    const probe = await fetch(`${server.url}/dav/home/`, { method: 'PROPFIND' });
    expect(probe.status).to.equal(401);
    expect(probe.headers.get('www-authenticate')).to.match(/^Basic /);
  });

  it('counts failed logins on CalDAV and REST in one budget per address', async () => {
    for (let i = 0; i < 20; i++)
      expect((await server.api.get('/people', { key: 'hk_nope' })).status).to.equal(401);
    const wrong = new Dav(server, 'home', 'hk_nope');
    expect((await wrong.propfind('/dav/home/', '<d:displayname/>')).status).to.equal(429);
  });
});

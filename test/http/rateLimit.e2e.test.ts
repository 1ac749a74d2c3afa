/**
 * Rate limits through the real server with a fake clock: per API key, and per client address
 * for public routes and for 401s (`rateLimit.publicPerMinute`).
 */
import { expect } from 'chai';
import { startTestServer, type TestServer, type Reply } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { conforms } from '../helpers/contract.js';
import { loadConfig } from '../../src/config.js';

const PLAN_PAGE = '/p/pln_000000000000000000000000000000ab';
const FEED = '/share/calendar/shr_unknown.ics';

function expectLimited(r: Reply, retryAfter: number): void {
  expect(r.status, r.text).to.equal(429);
  expect(r.body).to.include({ ok: false, code: 'rate_limited' });
  expect(r.body.error).to.match(new RegExp(`try again in ${retryAfter} s$`));
  expect(r.headers.get('retry-after')).to.equal(String(retryAfter));
}

function start(
  clock: FakeClock,
  limits: { perMinute?: number; publicPerMinute?: number },
  trustedProxies: string[] = [],
): Promise<TestServer> {
  return startTestServer({
    now: clock.now,
    overrides: {
      server: {
        host: '127.0.0.1',
        port: 0,
        publicUrl: 'http://share.test',
        bodyLimitBytes: 1048576,
        trustedProxies,
      },
      rateLimit: {
        perMinute: limits.perMinute ?? 100_000,
        publicPerMinute: limits.publicPerMinute ?? 100_000,
      },
    },
  });
}

describe('rate limits', () => {
  it('defaults to 300 requests a minute per client address', () => {
    expect(loadConfig({ env: {} }).rateLimit).to.deep.equal({
      perMinute: 600,
      publicPerMinute: 300,
    });
  });

  describe('GET /p/:token and GET /share/calendar/:file', () => {
    let server: TestServer;
    const clock = new FakeClock('2026-11-22T08:30:00.000Z');
    before(async () => {
      server = await start(clock, { publicPerMinute: 3 });
      // The published document is a public route too: load it (for conforms) in an earlier window.
      await conforms(server, await server.http.get('/healthz'), 'get', '/healthz');
      clock.advance(60_000);
    });
    after(() => server?.close());

    it('answers publicPerMinute requests per address, then 429 with Retry-After until the window ends', async () => {
      const seen: [number, string | null][] = [];
      for (let i = 0; i < 3; i++) {
        const r = await server.http.get(i === 1 ? FEED : PLAN_PAGE, {
          headers: { accept: 'application/json' },
        });
        seen.push([r.status, r.headers.get('ratelimit-remaining')]);
      }
      expect(seen).to.deep.equal([
        [404, '2'],
        [404, '1'],
        [404, '0'],
      ]);
      const over = await server.http.get(PLAN_PAGE, { headers: { accept: 'application/json' } });
      expectLimited(over, 60);
      expect(over.body.error).to.equal('Too many requests from this address; try again in 60 s');
      await conforms(server, over, 'get', '/p/{token}');
      expectLimited(await server.http.get(FEED), 60);

      clock.advance(45_000);
      expectLimited(await server.http.get(FEED), 15);
      clock.advance(15_000);
      const again = await server.http.get(PLAN_PAGE, { headers: { accept: 'application/json' } });
      expect(again.status).to.equal(404);
      expect(again.headers.get('ratelimit-remaining')).to.equal('2');
    });

    it('does not hold back requests with a valid key from the same address', async () => {
      for (let i = 0; i < 4; i++) await server.http.get(FEED);
      expect((await server.http.get(FEED)).status).to.equal(429);
      const r = await server.api.get('/people');
      expect(r.status).to.equal(200);
    });
  });

  describe('requests answered 401', () => {
    let server: TestServer;
    const clock = new FakeClock('2026-11-22T08:30:00.000Z');
    before(async () => {
      server = await start(clock, { publicPerMinute: 3 });
    });
    after(() => server?.close());

    it('answers an address publicPerMinute 401s, then 429 for bad keys until the window ends, while a valid key is served', async () => {
      const wrong = `${server.apiKey.slice(0, -4)}zzzz`;
      const statuses = [
        (await server.api.get('/people', { key: null })).status,
        (await server.api.get('/people', { key: wrong })).status,
        (await server.api.post('/people', { name: 'A' }, { key: 'hk_nonsense' })).status,
      ];
      expect(statuses).to.deep.equal([401, 401, 401]);
      const bad = await server.api.get('/people', { key: wrong });
      expectLimited(bad, 60);
      expect(bad.body.error).to.match(/missing or invalid API key from this address/);
      await conforms(server, bad, 'get', '/api/v1/families/{familySlug}/people');
      expectLimited(await server.api.get('/people', { key: null }), 60);
      // A valid key is never refused because others failed from the same address.
      expect((await server.api.get('/people')).status).to.equal(200);
      clock.advance(59_000);
      expectLimited(await server.api.get('/people', { key: wrong }), 1);
      expect((await server.api.get('/people')).status).to.equal(200);
      clock.advance(1_000);
      expect((await server.api.get('/people', { key: wrong })).status).to.equal(401);
    });

    it('serves a valid key after 20 bad keys from 127.0.0.1', async () => {
      clock.advance(60_000);
      for (let i = 0; i < 20; i++)
        await server.api.get('/people', { key: `hk_guess${i}_${'x'.repeat(32)}` });
      expect((await server.api.get('/people', { key: 'hk_guess_again' })).status).to.equal(429);
      const good = await server.api.get('/people');
      expect(good.status).to.equal(200);
      expect(good.body.people).to.be.an('array');
    });

    it('counts neither good keys nor 403s against the address', async () => {
      clock.advance(60_000);
      const other = await server.family('other');
      for (let i = 0; i < 5; i++) {
        expect((await server.api.get('/people')).status).to.equal(200);
        expect(
          (await server.http.get('/api/v1/families/home/people', { key: other.key })).status,
        ).to.equal(403);
      }
      expect((await server.api.get('/people', { key: null })).status).to.equal(401);
    });
  });

  describe('client addresses', () => {
    const clock = new FakeClock('2026-11-22T08:30:00.000Z');
    const from = (server: TestServer, forwarded: string) =>
      server.http.get(FEED, { headers: { 'x-forwarded-for': forwarded } });

    it('behind a trusted proxy, counts the address the proxy saw (the last X-Forwarded-For entry), IPv6 by its /64', async () => {
      const server = await start(clock, { publicPerMinute: 2 }, ['127.0.0.1']);
      try {
        expect((await from(server, '203.0.113.5')).status).to.equal(404);
        expect((await from(server, '198.51.100.1, 203.0.113.5')).status).to.equal(404);
        expect((await from(server, '203.0.113.5')).status).to.equal(429);
        expect((await from(server, '::ffff:203.0.113.5')).status).to.equal(429);
        expect((await from(server, '203.0.113.5, 203.0.113.6')).status).to.equal(404);

        expect((await from(server, '2001:db8:1:2::1')).status).to.equal(404);
        expect((await from(server, '2001:db8:1:2:ffff:ffff:ffff:9')).status).to.equal(404);
        expect((await from(server, '2001:0db8:0001:0002::77')).status).to.equal(429);
        expect((await from(server, '2001:db8:1:3::1')).status).to.equal(404);
      } finally {
        await server.close();
      }
    });

    it('from a peer that is not a trusted proxy, ignores X-Forwarded-For', async () => {
      const server = await start(clock, { publicPerMinute: 2 }, ['10.0.0.1']);
      try {
        expect((await from(server, '203.0.113.5')).status).to.equal(404);
        expect((await from(server, '203.0.113.6')).status).to.equal(404);
        expect((await from(server, '203.0.113.7')).status).to.equal(429);
      } finally {
        await server.close();
      }
    });
  });

  describe('per API key', () => {
    it('answers perMinute requests a minute per key by the injected clock, then 429', async () => {
      const clock = new FakeClock('2026-11-22T08:30:00.000Z');
      const server = await start(clock, { perMinute: 2 });
      try {
        expect((await server.api.get('/people')).status).to.equal(200);
        clock.advance(30_000);
        const second = await server.api.get('/people');
        expect(second.headers.get('ratelimit-remaining')).to.equal('0');
        expect(second.headers.get('ratelimit-reset')).to.equal('30');
        const over = await server.api.get('/people');
        expectLimited(over, 30);
        expect(over.body.error).to.equal('Too many requests for this API key; try again in 30 s');
        const other = await server.key({ scopes: ['read'] });
        expect((await server.api.get('/people', { key: other })).status).to.equal(200);
        clock.advance(30_000);
        expect((await server.api.get('/people')).status).to.equal(200);
      } finally {
        await server.close();
      }
    });
  });
});

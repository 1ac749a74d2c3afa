/**
 * The live stream and the family display under the daemon's one limiter (docs/api.md, "Limits
 * on every door"): opening the change stream counts against the key (a ticket counts for the
 * key that asked for it); the display's page and stream count per client address like every
 * public page, and per display link like a key.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { openSse, type SseReader } from '../helpers/sse.js';

describe('GET …/changes/stream and /display/:displayToken: rate limits', () => {
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  let server: TestServer;
  const open: SseReader[] = [];

  before(async () => {
    server = await startTestServer({
      now: clock.now,
      overrides: {
        rateLimit: { perMinute: 4, publicPerMinute: 6 },
        stream: { heartbeatSeconds: 30, perKey: 10, maxBacklog: 100 },
      },
    });
  });
  after(async () => {
    for (const s of open) s.close();
    await server.close();
  });
  beforeEach(() => clock.advance(60_000));

  const streamUrl = (query = '') => `${server.url}/api/v1/families/home/changes/stream${query}`;

  it('counts each stream opened with a key, tickets for the key that asked, and answers 429 with Retry-After past perMinute', async () => {
    const key = await server.key({ scopes: ['read'] });
    const first = await openSse(streamUrl(), { 'x-api-key': key });
    open.push(first);
    expect(first.status).to.equal(200);
    expect(first.res.headers['ratelimit-remaining']).to.equal('3');
    const ticket = await server.api.post('/changes/stream-tickets', undefined, { key });
    expect(ticket.status).to.equal(201);
    expect(ticket.headers.get('ratelimit-remaining')).to.equal('2');
    const byTicket = await openSse(streamUrl(`?ticket=${ticket.body.ticket}`));
    open.push(byTicket);
    expect(byTicket.status).to.equal(200);
    expect(byTicket.res.headers['ratelimit-remaining']).to.equal('1');
    const third = await openSse(streamUrl(), { 'x-api-key': key });
    open.push(third);
    expect(third.status).to.equal(200);
    clock.advance(10_000);
    const over = await openSse(streamUrl(), { 'x-api-key': key });
    open.push(over);
    expect(over.status).to.equal(429);
    expect(over.res.headers['retry-after']).to.equal('50');
    await over.until(() => over.ended);
  });

  it('limits the display page and its stream per client address, answering 429 with Retry-After', async () => {
    const a = (await server.api.post('/displays', { name: 'Kitchen' })).body.token as string;
    const b = (await server.api.post('/displays', { name: 'Hall' })).body.token as string;
    clock.advance(60_000);
    const statuses: number[] = [];
    // Two links, so that no link reaches its own budget (perMinute) before the address does.
    for (const token of [a, b, a, b])
      statuses.push((await server.http.get(`/display/${token}`)).status);
    for (const token of [a, b]) {
      const events = await openSse(`${server.url}/display/${token}/events`);
      open.push(events);
      statuses.push(events.status);
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200]);
    clock.advance(30_000);
    const page = await server.http.get(`/display/${a}`);
    expect(page.status).to.equal(429);
    expect(page.headers.get('retry-after')).to.equal('30');
    expect(page.body.error).to.equal('Too many requests from this address; try again in 30 s');
    const stream = await openSse(`${server.url}/display/${b}/events`);
    open.push(stream);
    expect(stream.status).to.equal(429);
    expect(stream.res.headers['retry-after']).to.equal('30');
  });

  it('limits a display link like a key: perMinute requests a minute whatever the addresses', async () => {
    const proxied = await startTestServer({
      now: clock.now,
      overrides: {
        server: { trustedProxies: ['127.0.0.1'] },
        rateLimit: { perMinute: 4, publicPerMinute: 100 },
      },
    });
    try {
      const token = (await proxied.api.post('/displays', { name: 'Hall' })).body.token as string;
      clock.advance(60_000);
      const from = (n: number) =>
        proxied.http.get(`/display/${token}`, {
          headers: { 'x-forwarded-for': `203.0.113.${n}`, accept: 'application/json' },
        });
      const statuses: number[] = [];
      for (let i = 1; i <= 5; i++) statuses.push((await from(i)).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
      const over = await from(9);
      expect(over.body).to.include({ code: 'rate_limited' });
      expect(over.body.error).to.equal(
        'Too many requests for this display link; try again in 60 s',
      );
      // Another link of the family has its own budget.
      const other = (await proxied.api.post('/displays', { name: 'Porch' })).body.token as string;
      expect((await proxied.http.get(`/display/${other}`)).status).to.equal(200);
    } finally {
      await proxied.close();
    }
  });
});

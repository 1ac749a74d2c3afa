import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { lastSeq } from '../helpers/changes.js';
import { startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { calendar, manyEvents } from '../helpers/fakes/icsText.js';
import { createEgress } from '../../src/integrations/egress.js';
import { startLocalService } from '../integrations/localService.js';

/** A feed body of exactly `bytes` bytes (a description pads it). */
function feedOfSize(bytes: number): string {
  const one = calendar([
    { uid: 'pad', summary: 'Padded', lines: ['DTSTART;VALUE=DATE:20261201'], description: 'x' },
  ]);
  const room = bytes - Buffer.byteLength(one) + 1;
  // Long lines stay legal: the reader unfolds whatever it gets.
  return calendar([
    {
      uid: 'pad',
      summary: 'Padded',
      lines: ['DTSTART;VALUE=DATE:20261201'],
      description: 'x'.repeat(room),
    },
  ]);
}

async function refusal(server: TestServer, url: string): Promise<string> {
  const seq = await lastSeq(server.api);
  const r = await server.api.post('/calendar/external', { name: `Feed ${Math.random()}`, url });
  expect(r.status, JSON.stringify(r.body)).to.equal(400);
  expect(r.body.issues[0].path).to.deep.equal(['url']);
  expect(await lastSeq(server.api)).to.equal(seq);
  return r.body.issues[0].message as string;
}

describe('limits of external calendar feeds', () => {
  let server: TestServer;
  let feeds: IcsServer;
  before(async () => {
    feeds = await startIcsServer();
    server = await startTestServer({
      timezone: 'Europe/Berlin',
      overrides: { calendarFeeds: { maxBytes: 4096, timeoutMs: 600 } },
    });
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it('takes a feed of exactly maxBytes and refuses one byte more', async () => {
    const fits = feedOfSize(4096);
    expect(Buffer.byteLength(fits)).to.equal(4096);
    feeds.set('/fits.ics', { body: fits });
    expect(
      (await server.api.post('/calendar/external', { name: 'Fits', url: feeds.url('/fits.ics') }))
        .status,
    ).to.equal(201);
    feeds.set('/over.ics', { body: feedOfSize(4097) });
    expect(await refusal(server, feeds.url('/over.ics'))).to.equal(
      'the feed is larger than 4,096 bytes',
    );
  });

  it('counts the bytes after decompression', async () => {
    const body = feedOfSize(4097);
    expect(gzipSync(body).length).to.be.lessThan(4096);
    feeds.set('/zipped-over.ics', { body, gzip: true });
    expect(await refusal(server, feeds.url('/zipped-over.ics'))).to.equal(
      'the feed is larger than 4,096 bytes',
    );
  });

  it('gives up on a feed that does not answer within timeoutMs', async () => {
    feeds.set('/slow.ics', { hang: true });
    const started = Date.now();
    expect(await refusal(server, feeds.url('/slow.ics'))).to.equal(
      'the feed did not answer within 600 ms',
    );
    expect(Date.now() - started).to.be.within(550, 3000);
  });

  it('follows five redirects, not six', async () => {
    feeds.set('/cal.ics', {
      body: calendar([{ uid: 'r', summary: 'Redirected', lines: ['DTSTART;VALUE=DATE:20261201'] }]),
    });
    for (let i = 1; i <= 6; i++)
      feeds.set(`/hop${i}`, {
        location: i === 1 ? '/cal.ics' : `/hop${i - 1}`,
        status: i % 2 ? 302 : 301,
      });
    const ok = await server.api.post('/calendar/external', {
      name: 'Five hops',
      url: feeds.url('/hop5'),
    });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    expect(ok.body.eventCount).to.equal(1);
    expect(await refusal(server, feeds.url('/hop6'))).to.equal(
      `the feed redirects where it may not be followed: 127.0.0.1 answered with more than 5 redirects`,
    );
  });
});

describe('feeds with many events', () => {
  let server: TestServer;
  let feeds: IcsServer;
  before(async () => {
    feeds = await startIcsServer();
    server = await startTestServer({ timezone: 'UTC' });
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it('links a feed of 20,000 events and refuses one of 20,001', async function () {
    this.timeout(60_000);
    feeds.set('/max.ics', { body: manyEvents(20_000) });
    const r = await server.api.post('/calendar/external', {
      name: 'Max',
      url: feeds.url('/max.ics'),
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.eventCount).to.equal(20_000);
    const page = (await server.api.get('/calendar/events?from=2028-11-01&to=2028-11-01')).body
      .events;
    expect(page.map((e: any) => e.title)).to.include('Event 17544');
    feeds.set('/over.ics', { body: manyEvents(20_001) });
    expect(await refusal(server, feeds.url('/over.ics'))).to.equal(
      'the feed has 20001 events, more than the 20,000 a feed may have',
    );
  });
});

describe('a feed that redirects to an address its policy refuses', () => {
  it('answers 400 and never connects there', async () => {
    const feeds = await startIcsServer();
    const elsewhere = await startLocalService((_req, res) =>
      res.end('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'),
    );
    // Under `lan` nothing on this machine may be reached; only the feed server's port is let through,
    // so the redirect to another loopback port is judged by the policy.
    const egress = createEgress({ trusted: [{ address: '127.0.0.1', port: feeds.port }] });
    const server = await startTestServer({
      egress,
      overrides: { egress: { calendarFeeds: 'lan' } },
    });
    try {
      feeds.set('/moved.ics', { location: `http://127.0.0.1:${elsewhere.port}/cal.ics` });
      expect(await refusal(server, feeds.url('/moved.ics'))).to.equal(
        "the feed's address is not allowed for calendar feeds (a loopback address)",
      );
      expect(elsewhere.connections).to.equal(0);
      expect(feeds.seen('/moved.ics')).to.have.length(1);
      // The probe says the same, and a direct link to the refused address is refused too.
      const probe = await server.api.post('/calendar/external/probe', {
        url: `http://127.0.0.1:${elsewhere.port}/cal.ics`,
      });
      expect(probe.body).to.deep.equal({
        ok: false,
        error: "the feed's address is not allowed for calendar feeds (a loopback address)",
      });
      expect(elsewhere.connections).to.equal(0);
    } finally {
      await server.close();
      await feeds.close();
      await elsewhere.close();
    }
  });
});

describe('stopping the daemon while a feed refresh hangs', () => {
  it('does not wait for the feed, and the refresh runs after the next start', async () => {
    const feeds = await startIcsServer();
    const first = await startTestServer({ timezone: 'UTC' });
    const dataDir = first.dataDir;
    let second: TestServer | undefined;
    try {
      feeds.set('/cal.ics', {
        body: calendar([{ uid: 'a', summary: 'A', lines: ['DTSTART;VALUE=DATE:20261201'] }]),
      });
      const sourceId = (
        await first.api.post('/calendar/external', { name: 'Club', url: feeds.url('/cal.ics') })
      ).body.sourceId;
      feeds.set('/cal.ics', { hang: true });
      expect((await first.api.post(`/calendar/external/${sourceId}/refresh`)).status).to.equal(200);
      const running = first.daemon.scheduler.runDue();
      for (let i = 0; i < 100 && feeds.seen('/cal.ics').length < 2; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(feeds.seen('/cal.ics')).to.have.length(2); // the refresh is waiting on the feed (20 s timeout)
      const started = Date.now();
      await first.close({ keepData: true });
      await running;
      expect(Date.now() - started).to.be.lessThan(3000);

      feeds.set('/cal.ics', {
        body: calendar(
          [
            { uid: 'a', summary: 'A' },
            { uid: 'b', summary: 'B' },
          ].map((e) => ({ ...e, lines: ['DTSTART;VALUE=DATE:20261201'] })),
        ),
      });
      second = await startTestServer({ dataDir, timezone: 'UTC' });
      await second.daemon.scheduler.runDue();
      const feed = (await second.api.get('/calendar/external')).body.feeds[0];
      expect(feed).to.include({ eventCount: 2, lastError: null });
    } finally {
      await second?.close();
      await feeds.close();
    }
  });
});

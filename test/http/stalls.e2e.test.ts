/**
 * No REST request holds the daemon's event loop: the worst JSON body of each kind the 1 MiB
 * limit lets in is refused with 400 naming the field, and a calendar window over a century of
 * daily series with a filter that matches nothing answers a page at once, while `/healthz`,
 * asked again and again on another connection, keeps answering in under 100 ms
 * (test/helpers/stall.ts: the request and the health checks run in a worker thread, the least
 * stall of up to five attempts counts).
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { leastStall, type Stall } from '../helpers/stall.js';

const HEALTH_MS = 100;

function quick(s: Stall): void {
  expect(s.latencies.length, 'health checks while it was in flight').to.be.above(0);
  expect(
    s.worst,
    `slowest /healthz of ${s.latencies.map((l) => l.toFixed(0)).join(', ')} ms while the request took ${s.elapsed.toFixed(0)} ms`,
  ).to.be.below(HEALTH_MS);
}

describe('JSON bodies that could hold the event loop', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  const event = (rest: string) => `{"title":"Hostile","date":"2026-12-01",${rest}}`;
  // Bodies are made when their test runs, so the daemon's heap does not carry them all.
  const bodies: [string, () => string, (string | number)[], string][] = [
    [
      '250,000 nested arrays',
      () => event(`"data":{"x":${'['.repeat(250_000)}${']'.repeat(250_000)}}`),
      ['data', 'x'],
      'nests deeper than 32 levels',
    ],
    [
      '100,000 nested objects',
      () => event(`"data":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`),
      ['data'],
      'nests deeper than 32 levels',
    ],
    [
      'an array of 500,000 items',
      () => event(`"repeatDays":[${Array<string>(500_000).fill('0').join(',')}]`),
      ['repeatDays'],
      'must have at most 1000 items',
    ],
    [
      'an object of 80,000 keys',
      () => event(`"data":{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":0`).join(',')}}`),
      ['data'],
      'must have at most 1000 keys',
    ],
    [
      '999 lone surrogates',
      () => event(`"repeatDays":[${Array<string>(999).fill('"\\ud800"').join(',')}]`),
      ['repeatDays'],
      'lone surrogate',
    ],
  ];
  for (const [what, body, path, words] of bodies) {
    it(`refuses ${what} with 400 naming the field and keeps /healthz under ${HEALTH_MS} ms`, async () => {
      const text = body();
      expect(Buffer.byteLength(text)).to.be.at.most(1024 * 1024);
      const s = await leastStall(server.url, {
        method: 'POST',
        path: '/api/v1/families/home/calendar/events',
        headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
        body: text,
      });
      quick(s);
      expect(s.answer.status, s.answer.head).to.equal(400);
      const answer = JSON.parse(s.answer.head) as {
        ok: boolean;
        code: string;
        issues: { path: (string | number)[]; message: string }[];
      };
      expect(answer).to.include({ ok: false, code: 'invalid_request' });
      expect(answer.issues[0].path.slice(0, path.length)).to.deep.equal(path);
      expect(answer.issues[0].message).to.contain(words);
    });
  }
});

describe('GET /calendar/events over a century of daily series', () => {
  let server: TestServer;
  before(async function () {
    this.timeout(120_000);
    server = await startTestServer();
    for (let i = 0; i < 100; i++) {
      const r = await server.api.post('/calendar/events', {
        title: `Daily ${i}`,
        date: '1900-01-01',
        time: `${String(6 + (i % 12)).padStart(2, '0')}:00`,
        repeatFrequency: 'daily',
      });
      expect(r.status, r.text).to.equal(201);
    }
  });
  after(() => server?.close());

  const window = (query: string) =>
    leastStall(server.url, {
      method: 'GET',
      path: `/api/v1/families/home/calendar/events?from=1900-01-01&to=2000-12-31&${query}`,
      headers: { 'x-api-key': server.apiKey },
    });

  it('answers a query that matches none of 3.6 million occurrences with an empty page and no cursor (complete), keeping /healthz under 100 ms', async () => {
    const s = await window('query=nothing-like-this&limit=50');
    quick(s);
    expect(s.answer.status, s.answer.head).to.equal(200);
    const page = JSON.parse(s.answer.head) as { events: unknown[]; nextCursor?: string };
    // The words are checked on each series before it is expanded: nothing matches, and the
    // page says so rather than stopping early with a cursor.
    expect(page).to.deep.equal({ ok: true, events: [] });
  });

  it('answers a status that no occurrence has the same way', async () => {
    const s = await window('status=done&limit=50');
    quick(s);
    expect(s.answer.status).to.equal(200);
    expect(JSON.parse(s.answer.head)).to.deep.equal({ ok: true, events: [] });
  });

  it('answers every yearly birthday of the window beside them (the review’s query)', async () => {
    const r = await server.api.post('/calendar/events', {
      title: 'Zebra birthday',
      date: '1890-05-17',
      allDay: true,
      repeatFrequency: 'yearly',
    });
    expect(r.status, r.text).to.equal(201);
    const decade = await leastStall(server.url, {
      method: 'GET',
      path: '/api/v1/families/home/calendar/events?from=1960-01-01&to=1970-01-01&query=zebra&limit=50',
      headers: { 'x-api-key': server.apiKey },
    });
    quick(decade);
    const page = JSON.parse(decade.answer.head) as {
      events: { occurrenceDate: string }[];
      nextCursor?: string;
    };
    expect(page.events.map((e) => e.occurrenceDate)).to.deep.equal(
      Array.from({ length: 10 }, (_, i) => `${1960 + i}-05-17`),
    );
    expect(page.nextCursor).to.equal(undefined);
    const century = await window('query=zebra&limit=50');
    quick(century);
    const full = JSON.parse(century.answer.head) as {
      events: { occurrenceDate: string }[];
      nextCursor?: string;
    };
    expect(full.events).to.have.length(50);
    expect(full.events[49].occurrenceDate).to.equal('1949-05-17');
    expect(full.nextCursor).to.be.a('string');
  });

  it('still fills a page when the filter matches, and stops there', async () => {
    const s = await window('query=daily%2042&limit=50');
    quick(s);
    expect(s.answer.bytes).to.equal(s.answer.head.length);
    const page = JSON.parse(s.answer.head) as { events: { title: string }[] };
    expect(page.events.length).to.be.above(0);
    expect(page.events.every((e) => e.title === 'Daily 42')).to.equal(true);
  });
});

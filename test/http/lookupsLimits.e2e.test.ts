/**
 * Limits of the lookups that the daemon's own settings make too slow or impossible to reach
 * through its HTTP API in a test: the timeouts (10–15 s) and a redirect from an allowed first
 * hop to a refused address (under `public` no server of the test machine is an allowed first
 * hop). Each integration is built as the daemon builds it, with a real egress client and real
 * local servers; only the timeout is shortened, and the first hop is trusted explicitly.
 */
import { expect } from 'chai';
import { loadConfig, type Config } from '../../src/config.js';
import { createEgress } from '../../src/integrations/egress.js';
import { createWeather } from '../../src/integrations/weather.js';
import { createWebSearch } from '../../src/integrations/webSearch.js';
import { createWebPage } from '../../src/integrations/webPage.js';
import { answerOf, type ErrorAnswer } from '../../src/door/errors.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../helpers/fakes/openMeteo.js';
import { startFakeSearxng, type FakeSearxng } from '../helpers/fakes/searxng.js';
import { startFakePages, type FakePages } from '../helpers/fakes/pages.js';

/** The answer the API would give for the failure (the door core's error table, src/door/errors.ts). */
async function failure(p: Promise<unknown>): Promise<ErrorAnswer> {
  try {
    await p;
  } catch (err) {
    const answer = answerOf(err);
    expect(answer, String(err)).to.not.equal(null);
    return answer!;
  }
  throw new Error('expected the call to fail');
}

function config(overrides: Record<string, unknown>): Config {
  return loadConfig({ env: {}, overrides: { storage: { dataDir: '/tmp/unused' }, ...overrides } });
}

const clock = () => new Date();

describe('lookup timeouts', () => {
  let meteo: FakeOpenMeteo;
  let searx: FakeSearxng;
  let pages: FakePages;
  before(async () => {
    meteo = await startFakeOpenMeteo({ start: '2026-11-22' });
    searx = await startFakeSearxng();
    pages = await startFakePages();
  });
  after(async () => {
    await meteo.close();
    await searx.close();
    await pages.close();
  });

  it('weather answers 504 upstream_timeout when Open-Meteo does not answer in time', async () => {
    meteo.mode = 'hang';
    const cfg = config({
      weather: { forecastUrl: meteo.forecastUrl, geocodingUrl: meteo.geocodingUrl },
      egress: { transports: 'any' },
    });
    const weather = createWeather({
      http: createEgress(),
      config: cfg,
      clock,
      limits: { timeoutMs: 300 },
    });
    const err = await failure(weather.lookup({ location: 'Lisbon' }));
    expect([err.status, err.code, err.message]).to.deep.equal([
      504,
      'upstream_timeout',
      'The geocoding service did not answer within 0.3 s',
    ]);
    meteo.mode = 'ok';
    expect((await weather.lookup({ location: 'Lisbon' })).location.name).to.equal('Lisbon');
  });

  it('web search answers 504 when SearXNG does not answer in time', async () => {
    searx.mode = 'hang';
    const cfg = config({ webSearch: { searxngUrl: searx.url }, egress: { transports: 'any' } });
    const search = createWebSearch({
      http: createEgress(),
      config: cfg,
      clock,
      limits: { timeoutMs: 300 },
    });
    const err = await failure(search.search('x', 5));
    expect([err.status, err.code]).to.deep.equal([504, 'upstream_timeout']);
    searx.mode = 'ok';
    expect(await search.search('x', 2)).to.have.length(2);
  });

  it('a page answering within the timeout is read, one answering after it is 504', async () => {
    pages.page('/slow', { headers: { 'content-type': 'text/plain' }, body: 'late', delayMs: 700 });
    pages.page('/quick', {
      headers: { 'content-type': 'text/plain' },
      body: 'in time',
      delayMs: 100,
    });
    const page = createWebPage({
      http: createEgress(),
      config: config({ egress: { webPages: 'any' } }),
      clock,
      limits: { timeoutMs: 400 },
    });
    expect((await page.read(`${pages.origin}/quick`)).text).to.equal('in time');
    const err = await failure(page.read(`${pages.origin}/slow`));
    expect([err.status, err.code, err.message]).to.deep.equal([
      504,
      'upstream_timeout',
      'The page did not answer within 0.4 s',
    ]);
  });
});

describe('page fetches under the public policy', () => {
  let first: FakePages;
  let target: FakePages;
  before(async () => {
    first = await startFakePages();
    target = await startFakePages();
    target.page('/', { headers: { 'content-type': 'text/plain' }, body: 'router admin' });
  });
  after(async () => {
    await first.close();
    await target.close();
  });

  it('refuses a redirect to a loopback name with 400 naming the hop, and never connects to it', async () => {
    first.redirect('/hop', `http://localhost:${target.service.port}/`);
    // The first hop is trusted (as a public server would be); the hop it sends to is checked.
    const http = createEgress({ trusted: [{ address: '127.0.0.1', port: first.service.port }] });
    const page = createWebPage({ http, config: config({ egress: { webPages: 'public' } }), clock });
    const err = await failure(page.read(`${first.origin}/hop`));
    expect([err.status, err.code]).to.deep.equal([400, 'invalid_request']);
    expect(err.issues).to.deep.equal([
      {
        path: ['query', 'url'],
        message:
          'leads to a loopback address (127.0.0.1) (through a redirect to localhost); only public addresses are fetched',
      },
    ]);
    expect(first.service.requests).to.have.length(1);
    expect(target.service.connections).to.equal(0);
  });
});

import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { FakeClock } from '../helpers/clock.js';
import {
  AUTO_TIMEZONE,
  daily,
  hourly,
  startFakeOpenMeteo,
  type FakeOpenMeteo,
} from '../helpers/fakes/openMeteo.js';
import { startFakeSearxng, type FakeSearxng } from '../helpers/fakes/searxng.js';
import { CACHE_MS } from '../../src/integrations/weather.js';

const WEATHER = '/api/v1/families/{familySlug}/weather';
const SEARCH = '/api/v1/families/{familySlug}/web/search';

/** The day's mean of the fake's hourly temperatures, rounded as the daemon rounds it. */
const dayMean = (i: number) =>
  Math.round(
    10 * (Array.from({ length: 24 }, (_, h) => hourly(i, h).temp).reduce((a, b) => a + b) / 24),
  ) / 10;

describe('GET /weather', () => {
  let server: TestServer;
  let meteo: FakeOpenMeteo;
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  before(async () => {
    meteo = await startFakeOpenMeteo({ start: '2026-11-22' });
    server = await startTestServer({
      now: clock.now,
      overrides: { weather: { forecastUrl: meteo.forecastUrl, geocodingUrl: meteo.geocodingUrl } },
    });
  });
  after(async () => {
    await server.close();
    await meteo.close();
  });
  // Each test starts with nothing cached and the fake answering normally.
  beforeEach(() => {
    clock.advance(CACHE_MS);
    meteo.mode = 'ok';
    meteo.start = '2026-11-22';
  });

  it("answers the first forecast day of a named place in its own time zone, with the day's values", async () => {
    const r = await server.api.get('/weather?location=Lisbon');
    expect(r.status).to.equal(200);
    await conforms(server, r, 'get', WEATHER);
    const d = daily(0);
    expect(r.body).to.deep.equal({
      ok: true,
      location: {
        name: 'Lisbon',
        latitude: 38.71667,
        longitude: -9.13333,
        timezone: 'Europe/Lisbon',
        country: 'Portugal',
      },
      date: '2026-11-22',
      summary: 'Clear sky',
      weatherCode: d.code,
      temperatureC: dayMean(0),
      temperatureMinC: d.min,
      temperatureMaxC: d.max,
      precipitationProbability: d.prob,
      precipitationMm: d.sum,
      windKph: d.wind,
    });
    // The forecast was asked in the place's zone, for the geocoder's coordinates.
    const f = meteo.forecastCalls().at(-1)!;
    expect(f.get('timezone')).to.equal('Europe/Lisbon');
    expect([f.get('latitude'), f.get('longitude')]).to.deep.equal(['38.71667', '-9.13333']);
    expect(meteo.geocodingCalls().at(-1)!.get('name')).to.equal('Lisbon');
  });

  it('picks the hour of `time` on the asked date, whatever its minutes or spelling', async () => {
    for (const time of ['15:30', '3:05 PM', '15:00']) {
      const r = await server.api.get(
        `/weather?location=lisbon&date=2026-11-24&time=${encodeURIComponent(time)}`,
      );
      expect(r.status, time).to.equal(200);
      await conforms(server, r, 'get', WEATHER);
      const d = daily(2);
      const h = hourly(2, 15);
      expect(r.body, time).to.deep.include({
        date: '2026-11-24',
        time: '15:00',
        summary: 'Moderate rain',
        weatherCode: 63,
        temperatureC: h.temp,
        temperatureMinC: d.min,
        temperatureMaxC: d.max,
        precipitationProbability: h.prob,
        precipitationMm: h.precip,
        windKph: h.wind,
      });
    }
  });

  it("takes lat,lon without geocoding and reports the forecast's own time zone", async () => {
    const before = meteo.geocodingCalls().length;
    const r = await server.api.get('/weather?location=38.7,%20-9.1');
    expect(r.status).to.equal(200);
    expect(r.body.location).to.deep.equal({
      name: '38.7,-9.1',
      latitude: 38.7,
      longitude: -9.1,
      timezone: AUTO_TIMEZONE,
    });
    expect(meteo.geocodingCalls()).to.have.length(before);
    expect(meteo.forecastCalls().at(-1)!.get('timezone')).to.equal('auto');
  });

  it('answers 404 naming location for a place the geocoder does not know', async () => {
    const r = await server.api.get('/weather?location=Atlantis');
    expect(r.status).to.equal(404);
    await conforms(server, r, 'get', WEATHER);
    expect(r.body).to.include({ ok: false, code: 'not_found' });
    expect(r.body.error).to.contain('Atlantis');
    expect(r.body.issues).to.deep.equal([
      { path: ['query', 'location'], message: 'is not a place the geocoder knows: Atlantis' },
    ]);
  });

  it('refuses a missing, empty or blank location and coordinates out of range, before calling anyone', async () => {
    const calls = meteo.service.requests.length;
    for (const qs of [
      '',
      '?location=',
      '?location=%20%20',
      '?location=91,0',
      '?location=0,180.5',
    ]) {
      const r = await server.api.get(`/weather${qs}`);
      expect(r.status, qs).to.equal(400);
      expect(r.body.issues[0].path, qs).to.deep.equal(['query', 'location']);
      await conforms(server, r, 'get', WEATHER);
    }
    expect((await server.api.get('/weather?location=90,-180')).status).to.equal(200);
    expect(meteo.service.requests.length).to.equal(calls + 1);
  });

  it('refuses 2026-02-29 as a date and answers 2028-02-29 when the forecast covers it', async () => {
    const bad = await server.api.get('/weather?location=Lisbon&date=2026-02-29');
    expect(bad.status).to.equal(400);
    expect(bad.body.issues).to.deep.equal([
      { path: ['query', 'date'], message: 'must be a calendar date YYYY-MM-DD' },
    ]);
    meteo.start = '2028-02-20';
    const leap = await server.api.get('/weather?location=Lisbon&date=2028-02-29');
    expect(leap.status).to.equal(200);
    expect(leap.body).to.include({ date: '2028-02-29', temperatureMaxC: daily(9).max });
  });

  it("answers the forecast's first and last day and refuses the days just outside it with 400", async () => {
    // 16 days from 2026-11-22: through 2026-12-07.
    expect(
      (await server.api.get('/weather?location=Lisbon&date=2026-11-22')).body.temperatureMaxC,
    ).to.equal(daily(0).max);
    expect(
      (await server.api.get('/weather?location=Lisbon&date=2026-12-07')).body.temperatureMaxC,
    ).to.equal(daily(15).max);
    for (const date of ['2026-12-08', '2026-11-21', '2027-06-01']) {
      const r = await server.api.get(`/weather?location=Lisbon&date=${date}`);
      expect(r.status, date).to.equal(400);
      expect(r.body.issues, date).to.deep.equal([
        {
          path: ['query', 'date'],
          message:
            'is outside the forecast, which covers 2026-11-22 to 2026-12-07 in Europe/Lisbon',
        },
      ]);
    }
  });

  it('refuses a time that is not HH:mm', async () => {
    for (const time of ['24:00', '7', 'noon', '12:60']) {
      const r = await server.api.get(`/weather?location=Lisbon&time=${time}`);
      expect(r.status, time).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['query', 'time']);
    }
  });

  it('reuses a place and its forecast for 10 minutes, then asks again', async () => {
    const g = meteo.geocodingCalls().length;
    const f = meteo.forecastCalls().length;
    await server.api.get('/weather?location=Zürich');
    await server.api.get('/weather?location=zürich&date=2026-11-23');
    clock.advance(CACHE_MS - 1);
    const cached = await server.api.get('/weather?location=Zürich&time=09:00');
    expect(cached.body.location).to.include({ name: 'Zürich', timezone: 'Europe/Zurich' });
    expect([meteo.geocodingCalls().length - g, meteo.forecastCalls().length - f]).to.deep.equal([
      1, 1,
    ]);
    clock.advance(1);
    await server.api.get('/weather?location=Zürich');
    expect([meteo.geocodingCalls().length - g, meteo.forecastCalls().length - f]).to.deep.equal([
      2, 2,
    ]);
  });

  it('answers 502 upstream_failed when Open-Meteo fails or answers something that is not a forecast', async () => {
    for (const mode of ['fail', 'garbage'] as const) {
      clock.advance(CACHE_MS);
      meteo.mode = mode;
      const r = await server.api.get('/weather?location=Lisbon');
      expect(r.status, mode).to.equal(502);
      expect(r.body.code).to.equal('upstream_failed');
      expect(r.body.error).to.match(/^The geocoding service answered/);
      await conforms(server, r, 'get', WEATHER);
      const coords = await server.api.get('/weather?location=1,1');
      expect(coords.status, mode).to.equal(502);
      expect(coords.body.error).to.match(/^The forecast service answered/);
    }
  });
});

describe('GET /web/search', () => {
  let server: TestServer;
  let bare: TestServer;
  let searx: FakeSearxng;
  before(async () => {
    searx = await startFakeSearxng();
    server = await startTestServer({ overrides: { webSearch: { searxngUrl: searx.url } } });
    bare = await startTestServer();
  });
  after(async () => {
    await server.close();
    await bare.close();
    await searx.close();
  });
  beforeEach(() => {
    searx.mode = 'ok';
  });

  it('answers the first five web results as title, url and snippet, asking SearXNG for JSON', async () => {
    const r = await server.api.get('/web/search?query=pancake%20recipe');
    expect(r.status).to.equal(200);
    await conforms(server, r, 'get', SEARCH);
    expect(r.body.query).to.equal('pancake recipe');
    // The non-web (magnet:) result SearXNG put second is skipped.
    expect(r.body.results).to.deep.equal(
      [0, 1, 2, 3, 4].map((i) => ({
        title: `pancake recipe result ${i}`,
        url: `https://example.org/pancake%20recipe/${i}`,
        snippet: `About pancake recipe, number ${i}.`,
      })),
    );
    const q = searx.queries().at(-1)!;
    expect([q.get('q'), q.get('format')]).to.deep.equal(['pancake recipe', 'json']);
  });

  it('answers 1 and 10 results and refuses 0, 11 and words for numResults', async () => {
    expect((await server.api.get('/web/search?query=x&numResults=1')).body.results).to.have.length(
      1,
    );
    expect((await server.api.get('/web/search?query=x&numResults=10')).body.results).to.have.length(
      10,
    );
    searx.available = 3;
    expect((await server.api.get('/web/search?query=x&numResults=10')).body.results).to.have.length(
      3,
    );
    searx.available = 25;
    for (const n of ['0', '11', 'five', '2.5']) {
      const r = await server.api.get(`/web/search?query=x&numResults=${n}`);
      expect(r.status, n).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['query', 'numResults']);
    }
  });

  it('refuses a missing, empty or blank query', async () => {
    for (const qs of ['', '?query=', '?query=%20']) {
      const r = await server.api.get(`/web/search${qs}`);
      expect(r.status, qs).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['query', 'query']);
    }
  });

  it('answers 503 not_configured without a SearXNG URL, as the document shows', async () => {
    const r = await bare.api.get('/web/search?query=x');
    expect(r.status).to.equal(503);
    await conforms(bare, r, 'get', SEARCH);
    const doc = (await bare.http.get('/api/v1/openapi.json')).body;
    const examples = Object.values<any>(
      doc.paths[SEARCH].get.responses['503'].content['application/json'].examples,
    ).map((e) => e.value);
    expect(examples).to.deep.include(r.body);
  });

  it('answers 502 saying to enable the json format when SearXNG refuses it', async () => {
    searx.mode = 'html-only';
    const r = await server.api.get('/web/search?query=x');
    expect(r.status).to.equal(502);
    await conforms(server, r, 'get', SEARCH);
    expect(r.body.code).to.equal('upstream_failed');
    expect(r.body.error).to.contain('enable the json format');
  });

  it('answers 502 when SearXNG fails', async () => {
    searx.mode = 'fail';
    const r = await server.api.get('/web/search?query=x');
    expect(r.status).to.equal(502);
    expect(r.body).to.include({
      code: 'upstream_failed',
      error: 'The web search service (SearXNG) answered 500',
    });
  });
});

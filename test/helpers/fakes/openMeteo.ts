/**
 * A fake Open-Meteo on 127.0.0.1: the geocoding API (`/v1/search`) and the forecast API
 * (`/v1/forecast`), answering as the real ones do — geocoding leaves `results` out when no
 * place matches; the forecast gives `daily` and `hourly` series in the time zone asked for
 * (`auto` → the zone of the coordinates, here always AUTO_TIMEZONE).
 *
 * Values are a function of the day index i and hour h, so tests can compute what to expect:
 * daily max 15 + i, min 8 + i, precipitation sum i / 2, probability max 10·i (capped at 100),
 * wind max 20 + i, weather code DAILY_CODES[i % …]; hourly temperature min + h / 2,
 * probability 4·h, precipitation h / 10, wind 5 + h, code 1 before noon and 63 after.
 */
import { startLocalService, type LocalService } from '../../integrations/localService.js';
import { addDays } from '../../../src/domain/shared/time.js';

export const AUTO_TIMEZONE = 'America/Sao_Paulo';
export const DAILY_CODES = [0, 2, 61, 3, 80, 95, 71, 45];

export interface FakePlace {
  name: string;
  latitude: number;
  longitude: number;
  timezone: string;
  country?: string;
}

export interface FakeOpenMeteo {
  service: LocalService;
  geocodingUrl: string;
  forecastUrl: string;
  /** Known places by lower-case name. */
  places: Map<string, FakePlace>;
  /** The first day of every forecast (the place's "today"). */
  start: string;
  days: number;
  /** `ok`, or how both APIs misbehave. */
  mode: 'ok' | 'fail' | 'hang' | 'garbage';
  geocodingCalls(): URLSearchParams[];
  forecastCalls(): URLSearchParams[];
  close(): Promise<void>;
}

export const daily = (i: number) => ({
  max: 15 + i,
  min: 8 + i,
  sum: i / 2,
  prob: Math.min(100, 10 * i),
  wind: 20 + i,
  code: DAILY_CODES[i % DAILY_CODES.length],
});
export const hourly = (i: number, h: number) => ({
  temp: daily(i).min + h / 2,
  prob: 4 * h,
  precip: h / 10,
  wind: 5 + h,
  code: h < 12 ? 1 : 63,
});

function forecast(q: URLSearchParams, start: string, days: number) {
  const timezone = q.get('timezone') === 'auto' ? AUTO_TIMEZONE : (q.get('timezone') ?? 'GMT');
  const dates = Array.from({ length: days }, (_, i) => addDays(start, i));
  const hours = dates.flatMap((d) =>
    Array.from({ length: 24 }, (_, h) => `${d}T${String(h).padStart(2, '0')}:00`),
  );
  const d = dates.map((_, i) => daily(i));
  const hr = dates.flatMap((_, i) => Array.from({ length: 24 }, (_, h) => hourly(i, h)));
  return {
    latitude: Number(q.get('latitude')),
    longitude: Number(q.get('longitude')),
    generationtime_ms: 0.1,
    utc_offset_seconds: 0,
    timezone,
    timezone_abbreviation: 'X',
    elevation: 10,
    daily_units: { time: 'iso8601', temperature_2m_max: '°C' },
    daily: {
      time: dates,
      weather_code: d.map((x) => x.code),
      temperature_2m_max: d.map((x) => x.max),
      temperature_2m_min: d.map((x) => x.min),
      precipitation_sum: d.map((x) => x.sum),
      precipitation_probability_max: d.map((x) => x.prob),
      wind_speed_10m_max: d.map((x) => x.wind),
    },
    hourly_units: { time: 'iso8601', temperature_2m: '°C' },
    hourly: {
      time: hours,
      temperature_2m: hr.map((x) => x.temp),
      precipitation_probability: hr.map((x) => x.prob),
      precipitation: hr.map((x) => x.precip),
      weather_code: hr.map((x) => x.code),
      wind_speed_10m: hr.map((x) => x.wind),
    },
  };
}

export async function startFakeOpenMeteo(opts: {
  start: string;
  days?: number;
}): Promise<FakeOpenMeteo> {
  const fake = {
    places: new Map<string, FakePlace>([
      [
        'lisbon',
        {
          name: 'Lisbon',
          latitude: 38.71667,
          longitude: -9.13333,
          timezone: 'Europe/Lisbon',
          country: 'Portugal',
        },
      ],
      [
        'zürich',
        {
          name: 'Zürich',
          latitude: 47.36667,
          longitude: 8.55,
          timezone: 'Europe/Zurich',
          country: 'Switzerland',
        },
      ],
    ]),
    start: opts.start,
    days: opts.days ?? 16,
    mode: 'ok' as FakeOpenMeteo['mode'],
  };
  const service = await startLocalService((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (fake.mode === 'hang') return; // never answers
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (fake.mode === 'fail') return send(500, { error: true, reason: 'Internal error' });
    if (fake.mode === 'garbage') return send(200, '<html>not json</html>');
    if (url.pathname === '/v1/search') {
      const place = fake.places.get((url.searchParams.get('name') ?? '').toLowerCase());
      // The real geocoder answers a bare object without `results` when nothing matches.
      return send(
        200,
        place
          ? {
              results: [
                { id: 1, ...place, elevation: 10, feature_code: 'PPLC', country_code: 'XX' },
              ],
              generationtime_ms: 0.2,
            }
          : { generationtime_ms: 0.2 },
      );
    }
    if (url.pathname === '/v1/forecast')
      return send(200, forecast(url.searchParams, fake.start, fake.days));
    return send(404, { error: true, reason: 'Not found' });
  });
  const params = (path: string) =>
    service.requests
      .map((r) => new URL(r.url, 'http://fake'))
      .filter((u) => u.pathname === path)
      .map((u) => u.searchParams);
  return Object.assign(fake, {
    service,
    geocodingUrl: `${service.origin}/v1/search`,
    forecastUrl: `${service.origin}/v1/forecast`,
    geocodingCalls: () => params('/v1/search'),
    forecastCalls: () => params('/v1/forecast'),
    close: () => service.close(),
  });
}

/**
 * Weather for a place, from Open-Meteo (docs/egress.md): the geocoding API turns a place name
 * into coordinates and a time zone, the forecast API gives daily and hourly values for up to
 * 16 days in the place's own time zone. Base URLs come from config (`weather.forecastUrl`,
 * `weather.geocodingUrl`), so a household may point them at its own Open-Meteo.
 *
 * Answers from both APIs are kept for CACHE_MS, so an assistant asking about the same place
 * several times in a conversation makes one call. Every call goes through the egress client
 * under the policy of operator-configured services (`egress.transports`, see docs/decisions.md).
 */
import type { Config } from '../config.js';
import { Invalid, NotFound } from '../domain/shared/errors.js';
import type { Egress } from './egress.js';
import { getJson, upstreamFailed } from './upstream.js';

export const WEATHER_LIMITS = {
  timeoutMs: 10_000,
  maxBytes: 2 * 2 ** 20,
  forecastDays: 16,
} as const;
/** How long a geocoding or forecast answer is reused. */
export const CACHE_MS = 10 * 60_000;
const CACHE_MAX = 500;

export interface WeatherQuery {
  /** A place name, or `lat,lon` in decimal degrees. */
  location: string;
  /** YYYY-MM-DD in the place's time zone; default the first day of the forecast (its today). */
  date?: string;
  /** HH:mm local; picks the hour whose values are shown. */
  time?: string;
}

export interface WeatherAnswer {
  location: {
    name: string;
    latitude: number;
    longitude: number;
    timezone: string;
    country?: string;
  };
  date: string;
  /** The hour the values are for (HH:00), when a time was asked. */
  time?: string;
  summary: string;
  weatherCode: number | null;
  temperatureC: number | null;
  temperatureMinC: number | null;
  temperatureMaxC: number | null;
  precipitationProbability: number | null;
  precipitationMm: number | null;
  windKph: number | null;
}

export interface Weather {
  lookup(q: WeatherQuery): Promise<WeatherAnswer>;
}

export interface WeatherDeps {
  http: Egress;
  config: Config;
  clock: () => Date;
  /** Tests shorten the timeout; the daemon uses WEATHER_LIMITS. */
  limits?: { timeoutMs?: number; maxBytes?: number };
}

/** WMO weather interpretation codes, as Open-Meteo documents them. */
const WMO: Record<number, string> = {
  0: 'Clear sky',
  1: 'Mainly clear',
  2: 'Partly cloudy',
  3: 'Overcast',
  45: 'Fog',
  48: 'Depositing rime fog',
  51: 'Light drizzle',
  53: 'Moderate drizzle',
  55: 'Dense drizzle',
  56: 'Light freezing drizzle',
  57: 'Dense freezing drizzle',
  61: 'Slight rain',
  63: 'Moderate rain',
  65: 'Heavy rain',
  66: 'Light freezing rain',
  67: 'Heavy freezing rain',
  71: 'Slight snowfall',
  73: 'Moderate snowfall',
  75: 'Heavy snowfall',
  77: 'Snow grains',
  80: 'Slight rain showers',
  81: 'Moderate rain showers',
  82: 'Violent rain showers',
  85: 'Slight snow showers',
  86: 'Heavy snow showers',
  95: 'Thunderstorm',
  96: 'Thunderstorm with slight hail',
  99: 'Thunderstorm with heavy hail',
};

export function describeCode(code: number | null): string {
  if (code === null) return 'Unknown';
  return WMO[code] ?? `Weather code ${code}`;
}

const COORDS = /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

/** `lat,lon` as numbers, null when the text is a place name; 400 when out of range. */
export function parseCoordinates(location: string): { latitude: number; longitude: number } | null {
  const m = COORDS.exec(location);
  if (!m) return null;
  const latitude = Number(m[1]);
  const longitude = Number(m[2]);
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) {
    throw Invalid.at(
      ['query', 'location'],
      'as lat,lon needs a latitude from -90 to 90 and a longitude from -180 to 180',
    );
  }
  return { latitude, longitude };
}

const DAILY = [
  'weather_code',
  'temperature_2m_max',
  'temperature_2m_min',
  'precipitation_sum',
  'precipitation_probability_max',
  'wind_speed_10m_max',
] as const;
const HOURLY = [
  'temperature_2m',
  'precipitation_probability',
  'precipitation',
  'weather_code',
  'wind_speed_10m',
] as const;

interface Series {
  time: string[];
  [variable: string]: (number | null)[] | string[];
}
interface Forecast {
  timezone: string;
  latitude: number;
  longitude: number;
  daily: Series;
  hourly: Series;
}
interface Place {
  name: string;
  latitude: number;
  longitude: number;
  timezone?: string;
  country?: string;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function series(v: unknown, vars: readonly string[]): Series | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as Record<string, unknown>;
  if (!Array.isArray(s.time) || !s.time.every((t) => typeof t === 'string')) return null;
  for (const k of vars) {
    const a = s[k];
    if (a === undefined) continue; // a variable the server does not know: shown as null
    if (!Array.isArray(a) || a.length !== s.time.length || !a.every((x) => x === null || isNum(x)))
      return null;
  }
  return s as unknown as Series;
}

function value(s: Series, variable: string, i: number): number | null {
  const a = s[variable] as (number | null)[] | undefined;
  const v = a?.[i];
  return isNum(v) ? v : null;
}

class TtlCache<T> {
  private map = new Map<string, { at: number; value: T }>();
  constructor(private readonly clock: () => Date) {}
  get(key: string): T | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (this.clock().getTime() - hit.at >= CACHE_MS) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }
  set(key: string, value: T): void {
    if (this.map.size >= CACHE_MAX) this.map.clear();
    this.map.set(key, { at: this.clock().getTime(), value });
  }
}

export function createWeather({ http, config, clock, limits }: WeatherDeps): Weather {
  const places = new TtlCache<Place>(clock);
  const forecasts = new TtlCache<Forecast>(clock);
  const call = {
    http,
    policy: config.egress.transports,
    timeoutMs: WEATHER_LIMITS.timeoutMs,
    maxBytes: WEATHER_LIMITS.maxBytes,
    ...limits,
  };

  async function geocode(name: string): Promise<Place> {
    const key = name.toLowerCase();
    const hit = places.get(key);
    if (hit) return hit;
    const url = new URL(config.weather.geocodingUrl);
    url.searchParams.set('name', name);
    url.searchParams.set('count', '1');
    url.searchParams.set('language', 'en');
    url.searchParams.set('format', 'json');
    const { status, body } = await getJson({ ...call, service: 'The geocoding service', url });
    if (status !== 200 || !body || typeof body !== 'object')
      throw upstreamFailed('The geocoding service', `answered ${status}`);
    // Open-Meteo leaves `results` out altogether when nothing matches.
    const results = (body as { results?: unknown }).results;
    const first = Array.isArray(results)
      ? (results[0] as Record<string, unknown> | undefined)
      : undefined;
    if (!first)
      throw new NotFound(`No place named "${name}" was found`, [
        { path: ['query', 'location'], message: `is not a place the geocoder knows: ${name}` },
      ]);
    if (!isNum(first.latitude) || !isNum(first.longitude) || typeof first.name !== 'string') {
      throw upstreamFailed('The geocoding service', 'answered in an unexpected shape');
    }
    const place: Place = {
      name: first.name,
      latitude: first.latitude,
      longitude: first.longitude,
      ...(typeof first.timezone === 'string' ? { timezone: first.timezone } : {}),
      ...(typeof first.country === 'string' ? { country: first.country } : {}),
    };
    places.set(key, place);
    return place;
  }

  async function forecast(place: Place): Promise<Forecast> {
    const tz = place.timezone ?? 'auto';
    const key = `${place.latitude},${place.longitude},${tz}`;
    const hit = forecasts.get(key);
    if (hit) return hit;
    const url = new URL(config.weather.forecastUrl);
    url.searchParams.set('latitude', String(place.latitude));
    url.searchParams.set('longitude', String(place.longitude));
    url.searchParams.set('timezone', tz);
    url.searchParams.set('forecast_days', String(WEATHER_LIMITS.forecastDays));
    url.searchParams.set('daily', DAILY.join(','));
    url.searchParams.set('hourly', HOURLY.join(','));
    url.searchParams.set('wind_speed_unit', 'kmh');
    const { status, body } = await getJson({ ...call, service: 'The forecast service', url });
    if (status !== 200 || !body || typeof body !== 'object')
      throw upstreamFailed('The forecast service', `answered ${status}`);
    const b = body as Record<string, unknown>;
    const daily = series(b.daily, DAILY);
    const hourly = series(b.hourly, HOURLY) ?? { time: [] };
    if (!daily || !daily.time.length || typeof b.timezone !== 'string')
      throw upstreamFailed('The forecast service', 'answered in an unexpected shape');
    const f: Forecast = {
      timezone: b.timezone,
      latitude: isNum(b.latitude) ? b.latitude : place.latitude,
      longitude: isNum(b.longitude) ? b.longitude : place.longitude,
      daily,
      hourly,
    };
    forecasts.set(key, f);
    return f;
  }

  return {
    async lookup(q) {
      const location = q.location.trim();
      if (!location) throw Invalid.at(['query', 'location'], 'must not be blank');
      const coords = parseCoordinates(location);
      const place: Place = coords
        ? { name: location.replace(/\s+/g, ''), ...coords }
        : await geocode(location);
      const f = await forecast(place);
      const days = f.daily.time;
      const date = q.date ?? days[0];
      const i = days.indexOf(date);
      if (i < 0) {
        throw Invalid.at(
          ['query', 'date'],
          `is outside the forecast, which covers ${days[0]} to ${days[days.length - 1]} in ${f.timezone}`,
        );
      }
      const answer: WeatherAnswer = {
        location: {
          name: place.name,
          latitude: f.latitude,
          longitude: f.longitude,
          timezone: f.timezone,
          ...(place.country ? { country: place.country } : {}),
        },
        date,
        summary: '',
        weatherCode: value(f.daily, 'weather_code', i),
        temperatureC: null,
        temperatureMinC: value(f.daily, 'temperature_2m_min', i),
        temperatureMaxC: value(f.daily, 'temperature_2m_max', i),
        precipitationProbability: value(f.daily, 'precipitation_probability_max', i),
        precipitationMm: value(f.daily, 'precipitation_sum', i),
        windKph: value(f.daily, 'wind_speed_10m_max', i),
      };
      const hours = f.hourly.time;
      if (q.time !== undefined) {
        const hour = `${q.time.slice(0, 2)}:00`;
        const h = hours.indexOf(`${date}T${hour}`);
        if (h < 0)
          throw upstreamFailed('The forecast service', `has no hourly values for ${date} ${hour}`);
        answer.time = hour;
        answer.weatherCode = value(f.hourly, 'weather_code', h) ?? answer.weatherCode;
        answer.temperatureC = value(f.hourly, 'temperature_2m', h);
        answer.precipitationProbability = value(f.hourly, 'precipitation_probability', h);
        answer.precipitationMm = value(f.hourly, 'precipitation', h);
        answer.windKph = value(f.hourly, 'wind_speed_10m', h);
      } else {
        // The day's mean of the hourly temperatures; the mean of min and max without them.
        const temps: number[] = [];
        hours.forEach((t, h) => {
          const v = t.startsWith(date) ? value(f.hourly, 'temperature_2m', h) : null;
          if (v !== null) temps.push(v);
        });
        const mean = temps.length
          ? temps.reduce((a, b) => a + b, 0) / temps.length
          : answer.temperatureMinC !== null && answer.temperatureMaxC !== null
            ? (answer.temperatureMinC + answer.temperatureMaxC) / 2
            : null;
        answer.temperatureC = mean === null ? null : Math.round(mean * 10) / 10;
      }
      answer.summary = describeCode(answer.weatherCode);
      return answer;
    },
  };
}

/**
 * The weather line of contextual texts: Open-Meteo (docs/egress.md; base URLs in config), for the
 * family's `location` (a place name or `lat,lon`) on one date, through the egress guard. It
 * never fails a notification: a lookup that does not work becomes "no forecast" (its reason
 * kept on the note).
 */
import type { Config } from '../config.js';
import type { WeatherCondition, WeatherNote } from '../domain/notifications/texts.js';
import type { Egress } from '../integrations/egress.js';
import { message } from '../domain/i18n/messages.js';

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1024 * 1024;

/** WMO weather interpretation codes, as Open-Meteo reports them, by the kind the text names. */
const WMO: Record<number, WeatherCondition> = {
  0: 'clear',
  1: 'mainlyClear',
  2: 'partlyCloudy',
  3: 'overcast',
  45: 'fog',
  48: 'fog',
  51: 'drizzle',
  53: 'drizzle',
  55: 'drizzle',
  56: 'freezingRain',
  57: 'freezingRain',
  61: 'lightRain',
  63: 'rain',
  65: 'heavyRain',
  66: 'freezingRain',
  67: 'freezingRain',
  71: 'snow',
  73: 'snow',
  75: 'heavySnow',
  77: 'snow',
  80: 'showers',
  81: 'showers',
  82: 'heavyRain',
  85: 'snowShowers',
  86: 'snowShowers',
  95: 'thunderstorm',
  96: 'hail',
  99: 'hail',
};

/** The parts of Open-Meteo's answers read here; every value is checked before it is used. */
interface GeocodingAnswer {
  results?: { latitude?: unknown; longitude?: unknown; name?: unknown }[];
}
interface ForecastAnswer {
  daily?: {
    time?: unknown;
    weather_code?: unknown[];
    temperature_2m_min?: unknown[];
    temperature_2m_max?: unknown[];
    precipitation_probability_max?: unknown[];
  };
}

/** The parsed answer; a shape other than T shows as missing or unusable values (all optional). */
async function getJson<T>(egress: Egress, config: Config, url: URL): Promise<T> {
  const res = await egress.request({
    url,
    policy: config.egress.webPages,
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_BYTES,
  });
  if (res.status !== 200) throw new Error(`${url.hostname} answered ${res.status}`);
  return JSON.parse(res.body.toString('utf8')) as T;
}

/** The forecast for `date` at `location`, or a note saying why there is none. */
export async function weatherFor(
  egress: Egress,
  config: Config,
  location: string,
  date: string,
  timezone: string,
): Promise<WeatherNote> {
  try {
    let place = location;
    let lat: number;
    let lon: number;
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(location);
    if (m) {
      lat = Number(m[1]);
      lon = Number(m[2]);
    } else {
      const geo = new URL(config.weather.geocodingUrl);
      geo.searchParams.set('name', location);
      geo.searchParams.set('count', '1');
      const found = (await getJson<GeocodingAnswer>(egress, config, geo)).results?.[0];
      if (!found) return { place: location, date, error: 'place not found' };
      lat = Number(found.latitude);
      lon = Number(found.longitude);
      // Kept as before: any value the service gives as a name is shown as text.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a JSON value, not an object of ours
      place = found.name === undefined || found.name === null ? location : String(found.name);
    }
    const f = new URL(config.weather.forecastUrl);
    f.searchParams.set('latitude', String(lat));
    f.searchParams.set('longitude', String(lon));
    f.searchParams.set(
      'daily',
      'weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max',
    );
    f.searchParams.set('timezone', timezone);
    f.searchParams.set('start_date', date);
    f.searchParams.set('end_date', date);
    const daily = (await getJson<ForecastAnswer>(egress, config, f)).daily;
    const i = Array.isArray(daily?.time) ? daily.time.indexOf(date) : -1;
    if (i < 0) return { place, date, error: 'no forecast for that day' };
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const code = num(daily?.weather_code?.[i]);
    const note: WeatherNote = { place, date };
    if (code !== undefined) {
      note.condition = WMO[code] ?? 'other';
      note.summary = message('en', 'notifications', 'condition', { condition: note.condition });
    }
    const min = num(daily?.temperature_2m_min?.[i]);
    const max = num(daily?.temperature_2m_max?.[i]);
    const rain = num(daily?.precipitation_probability_max?.[i]);
    if (min !== undefined) note.minC = min;
    if (max !== undefined) note.maxC = max;
    if (rain !== undefined) note.precipitationProbability = rain;
    return note;
  } catch (err) {
    return {
      place: location,
      date,
      error: (err instanceof Error ? err.message : String(err)).slice(0, 200),
    };
  }
}

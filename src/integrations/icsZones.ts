/**
 * Which IANA zone a feed's TZID means. Calendar programs write TZIDs in many ways:
 * - IANA names (`Europe/Berlin`), sometimes behind a vendor prefix
 *   (`/mozilla.org/20050126_1/Europe/Berlin`,
 *   `/freeassociation.sourceforge.net/Tzfile/Europe/London`);
 * - Windows names from Outlook and Exchange (`W. Europe Standard Time`, `GMT Standard Time`);
 * - names of their own (`Customized Time Zone`, `(UTC+01:00) Amsterdam, Berlin, …`), defined only
 *   by the feed's VTIMEZONE, which may also name the zone in `X-LIC-LOCATION`.
 * Each is tried in that order; a VTIMEZONE with no usable name is matched by its offsets against
 * every zone the runtime knows (two years sampled twice a month). Times are then computed with
 * the runtime's tz database, never ical.js's own zone data. null: the TZID means nothing we can
 * read, and its times are read as floating.
 */
import ICAL from 'ical.js';
import { dayNumberOf, normalizeTimeZone, offsetSecondsAt } from '../domain/shared/time.js';

/** Windows zone names (CLDR windowsZones, territory 001) → IANA. */
const WINDOWS: Record<string, string> = {
  'Dateline Standard Time': 'Etc/GMT+12',
  'UTC-11': 'Etc/GMT+11',
  'Aleutian Standard Time': 'America/Adak',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Marquesas Standard Time': 'Pacific/Marquesas',
  'Alaskan Standard Time': 'America/Anchorage',
  'UTC-09': 'Etc/GMT+9',
  'Pacific Standard Time (Mexico)': 'America/Tijuana',
  'UTC-08': 'Etc/GMT+8',
  'Pacific Standard Time': 'America/Los_Angeles',
  'US Mountain Standard Time': 'America/Phoenix',
  'Mountain Standard Time (Mexico)': 'America/Mazatlan',
  'Mountain Standard Time': 'America/Denver',
  'Yukon Standard Time': 'America/Whitehorse',
  'Central America Standard Time': 'America/Guatemala',
  'Central Standard Time': 'America/Chicago',
  'Easter Island Standard Time': 'Pacific/Easter',
  'Central Standard Time (Mexico)': 'America/Mexico_City',
  'Mexico Standard Time': 'America/Mexico_City',
  'Canada Central Standard Time': 'America/Regina',
  'SA Pacific Standard Time': 'America/Bogota',
  'Eastern Standard Time (Mexico)': 'America/Cancun',
  'Eastern Standard Time': 'America/New_York',
  'Haiti Standard Time': 'America/Port-au-Prince',
  'Cuba Standard Time': 'America/Havana',
  'US Eastern Standard Time': 'America/Indiana/Indianapolis',
  'Turks And Caicos Standard Time': 'America/Grand_Turk',
  'Paraguay Standard Time': 'America/Asuncion',
  'Atlantic Standard Time': 'America/Halifax',
  'Venezuela Standard Time': 'America/Caracas',
  'Central Brazilian Standard Time': 'America/Cuiaba',
  'SA Western Standard Time': 'America/La_Paz',
  'Pacific SA Standard Time': 'America/Santiago',
  'Newfoundland Standard Time': 'America/St_Johns',
  'Tocantins Standard Time': 'America/Araguaina',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'SA Eastern Standard Time': 'America/Cayenne',
  'Argentina Standard Time': 'America/Argentina/Buenos_Aires',
  'Greenland Standard Time': 'America/Nuuk',
  'Montevideo Standard Time': 'America/Montevideo',
  'Magallanes Standard Time': 'America/Punta_Arenas',
  'Saint Pierre Standard Time': 'America/Miquelon',
  'Bahia Standard Time': 'America/Bahia',
  'UTC-02': 'Etc/GMT+2',
  'Mid-Atlantic Standard Time': 'Etc/GMT+2',
  'Azores Standard Time': 'Atlantic/Azores',
  'Cape Verde Standard Time': 'Atlantic/Cape_Verde',
  UTC: 'Etc/UTC',
  'Coordinated Universal Time': 'Etc/UTC',
  'GMT Standard Time': 'Europe/London',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'Sao Tome Standard Time': 'Africa/Sao_Tome',
  'Morocco Standard Time': 'Africa/Casablanca',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Romance Standard Time': 'Europe/Paris',
  'Central European Standard Time': 'Europe/Warsaw',
  'W. Central Africa Standard Time': 'Africa/Lagos',
  'Jordan Standard Time': 'Asia/Amman',
  'GTB Standard Time': 'Europe/Bucharest',
  'Middle East Standard Time': 'Asia/Beirut',
  'Egypt Standard Time': 'Africa/Cairo',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'Syria Standard Time': 'Asia/Damascus',
  'West Bank Standard Time': 'Asia/Hebron',
  'South Africa Standard Time': 'Africa/Johannesburg',
  'FLE Standard Time': 'Europe/Kiev',
  'Israel Standard Time': 'Asia/Jerusalem',
  'South Sudan Standard Time': 'Africa/Juba',
  'Kaliningrad Standard Time': 'Europe/Kaliningrad',
  'Sudan Standard Time': 'Africa/Khartoum',
  'Libya Standard Time': 'Africa/Tripoli',
  'Namibia Standard Time': 'Africa/Windhoek',
  'Arabic Standard Time': 'Asia/Baghdad',
  'Turkey Standard Time': 'Europe/Istanbul',
  'Arab Standard Time': 'Asia/Riyadh',
  'Belarus Standard Time': 'Europe/Minsk',
  'Russian Standard Time': 'Europe/Moscow',
  'E. Africa Standard Time': 'Africa/Nairobi',
  'Volgograd Standard Time': 'Europe/Volgograd',
  'Iran Standard Time': 'Asia/Tehran',
  'Arabian Standard Time': 'Asia/Dubai',
  'Astrakhan Standard Time': 'Europe/Astrakhan',
  'Azerbaijan Standard Time': 'Asia/Baku',
  'Russia Time Zone 3': 'Europe/Samara',
  'Mauritius Standard Time': 'Indian/Mauritius',
  'Saratov Standard Time': 'Europe/Saratov',
  'Georgian Standard Time': 'Asia/Tbilisi',
  'Caucasus Standard Time': 'Asia/Yerevan',
  'Afghanistan Standard Time': 'Asia/Kabul',
  'West Asia Standard Time': 'Asia/Tashkent',
  'Ekaterinburg Standard Time': 'Asia/Yekaterinburg',
  'Pakistan Standard Time': 'Asia/Karachi',
  'Qyzylorda Standard Time': 'Asia/Qyzylorda',
  'India Standard Time': 'Asia/Kolkata',
  'Sri Lanka Standard Time': 'Asia/Colombo',
  'Nepal Standard Time': 'Asia/Kathmandu',
  'Central Asia Standard Time': 'Asia/Almaty',
  'Bangladesh Standard Time': 'Asia/Dhaka',
  'Omsk Standard Time': 'Asia/Omsk',
  'Myanmar Standard Time': 'Asia/Yangon',
  'SE Asia Standard Time': 'Asia/Bangkok',
  'Altai Standard Time': 'Asia/Barnaul',
  'W. Mongolia Standard Time': 'Asia/Hovd',
  'North Asia Standard Time': 'Asia/Krasnoyarsk',
  'N. Central Asia Standard Time': 'Asia/Novosibirsk',
  'Tomsk Standard Time': 'Asia/Tomsk',
  'China Standard Time': 'Asia/Shanghai',
  'North Asia East Standard Time': 'Asia/Irkutsk',
  'Singapore Standard Time': 'Asia/Singapore',
  'W. Australia Standard Time': 'Australia/Perth',
  'Taipei Standard Time': 'Asia/Taipei',
  'Ulaanbaatar Standard Time': 'Asia/Ulaanbaatar',
  'Aus Central W. Standard Time': 'Australia/Eucla',
  'Transbaikal Standard Time': 'Asia/Chita',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'North Korea Standard Time': 'Asia/Pyongyang',
  'Korea Standard Time': 'Asia/Seoul',
  'Yakutsk Standard Time': 'Asia/Yakutsk',
  'Cen. Australia Standard Time': 'Australia/Adelaide',
  'AUS Central Standard Time': 'Australia/Darwin',
  'E. Australia Standard Time': 'Australia/Brisbane',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'West Pacific Standard Time': 'Pacific/Port_Moresby',
  'Tasmania Standard Time': 'Australia/Hobart',
  'Vladivostok Standard Time': 'Asia/Vladivostok',
  'Lord Howe Standard Time': 'Australia/Lord_Howe',
  'Bougainville Standard Time': 'Pacific/Bougainville',
  'Russia Time Zone 10': 'Asia/Srednekolymsk',
  'Magadan Standard Time': 'Asia/Magadan',
  'Norfolk Standard Time': 'Pacific/Norfolk',
  'Sakhalin Standard Time': 'Asia/Sakhalin',
  'Central Pacific Standard Time': 'Pacific/Guadalcanal',
  'Russia Time Zone 11': 'Asia/Kamchatka',
  'New Zealand Standard Time': 'Pacific/Auckland',
  'UTC+12': 'Etc/GMT-12',
  'Fiji Standard Time': 'Pacific/Fiji',
  'Kamchatka Standard Time': 'Asia/Kamchatka',
  'Chatham Islands Standard Time': 'Pacific/Chatham',
  'UTC+13': 'Etc/GMT-13',
  'Tonga Standard Time': 'Pacific/Tongatapu',
  'Samoa Standard Time': 'Pacific/Apia',
  'Line Islands Standard Time': 'Pacific/Kiritimati',
};
const WINDOWS_FOLDED = new Map(Object.entries(WINDOWS).map(([k, v]) => [k.toLowerCase(), v]));

/** The IANA name of a Windows zone name (case-insensitive), if it is one. */
export function windowsZone(name: string): string | null {
  const iana = WINDOWS_FOLDED.get(name.trim().toLowerCase());
  return iana ? normalizeTimeZone(iana) : null;
}

/** An IANA name, also at the end of a vendor's path (`/mozilla.org/…/Europe/Berlin`). */
function ianaIn(name: string): string | null {
  const direct = /^[A-Za-z]/.test(name) ? normalizeTimeZone(name.trim()) : null;
  if (direct) return direct;
  const parts = name.split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const z = normalizeTimeZone(parts.slice(i).join('/'));
    if (z) return z;
  }
  return null;
}

function propValue(c: ICAL.JCalComponent, name: string): string | null {
  const p = c[1].find((x) => x[0] === name);
  return p && typeof p[3] === 'string' ? p[3] : null;
}

let candidates: string[] | null = null;

/** Every zone the runtime knows, regions first (so a match reads as a place, not `Etc/GMT-1`). */
function allZones(): string[] {
  if (!candidates) {
    const list = Intl.supportedValuesOf('timeZone');
    candidates = [
      ...list.filter((z) => z.includes('/') && !z.startsWith('Etc/')),
      ...list.filter((z) => !z.includes('/') || z.startsWith('Etc/')),
    ];
  }
  return candidates;
}

/** A zone whose offsets agree with the VTIMEZONE's over two years around `now`, or null. */
function matchByOffsets(vtimezone: ICAL.JCalComponent, now: Date): string | null {
  let zone: ICAL.Timezone;
  try {
    zone = new ICAL.Timezone({ component: new ICAL.Component(vtimezone) });
  } catch {
    return null;
  }
  const year = now.getUTCFullYear();
  const samples: { ms: number; offset: number }[] = [];
  try {
    for (const y of [year, year + 1]) {
      for (let m = 1; m <= 12; m++) {
        for (const d of [1, 15]) {
          const offset = zone.utcOffset(
            new ICAL.Time({ year: y, month: m, day: d, hour: 12, minute: 0, second: 0 }),
          );
          samples.push({ ms: (dayNumberOf(y, m, d) * 86_400 + 43_200 - offset) * 1000, offset });
        }
      }
    }
  } catch {
    return null;
  }
  for (const z of allZones()) {
    if (samples.every((s) => offsetSecondsAt(new Date(s.ms), z) === s.offset))
      return normalizeTimeZone(z) ?? z;
  }
  return null;
}

/**
 * A resolver for one feed: TZID → IANA zone (or null), remembering its answers. `vtimezones`
 * are the feed's VTIMEZONE components by TZID.
 */
export function zoneResolver(
  vtimezones: ReadonlyMap<string, ICAL.JCalComponent>,
  now: Date,
): (tzid: string) => string | null {
  const known = new Map<string, string | null>();
  return (tzid) => {
    if (known.has(tzid)) return known.get(tzid)!;
    let z = ianaIn(tzid) ?? windowsZone(tzid);
    const vtz = vtimezones.get(tzid);
    if (!z && vtz) {
      const location = propValue(vtz, 'x-lic-location');
      z = (location && ianaIn(location)) || matchByOffsets(vtz, now);
    }
    known.set(tzid, z);
    return z;
  };
}

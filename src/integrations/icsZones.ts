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
import { windowsZone } from '../domain/shared/zones.js';

export { windowsZone };

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

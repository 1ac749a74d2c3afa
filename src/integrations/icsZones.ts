/**
 * Which IANA zone a feed's TZID means. Calendar programs write TZIDs in many ways:
 * - IANA names (`Europe/Berlin`), sometimes behind a vendor prefix
 *   (`/mozilla.org/20050126_1/Europe/Berlin`,
 *   `/freeassociation.sourceforge.net/Tzfile/Europe/London`);
 * - Windows names from Outlook and Exchange (`W. Europe Standard Time`, `GMT Standard Time`);
 * - names of their own (`Customized Time Zone`, `(UTC+01:00) Amsterdam, Berlin, …`), defined only
 *   by the feed's VTIMEZONE, which may also name the zone in `X-LIC-LOCATION`.
 * Each is tried in that order; a VTIMEZONE with no usable name is matched by its offsets against
 * every zone the runtime knows (two years sampled twice a month, its rules read only for those
 * years: vtimezoneRules.ts). Times are then computed with the runtime's tz database, never
 * ical.js's own zone data. null: the TZID means nothing we can read, and its times are read as
 * floating. A VTIMEZONE beyond what is read (too many observances or changes, a rule that does
 * not repeat yearly) throws a ZoneLimitError, which a CalDAV PUT answers with 403 and a feed
 * reads as an unknown zone.
 */
import type ICAL from 'ical.js';
import { dayNumberOf, normalizeTimeZone, offsetSecondsAt } from '../domain/shared/time.js';
import { windowsZone } from '../domain/shared/zones.js';
import { vtimezoneOffsets, ZoneLimitError } from './vtimezoneRules.js';

export { windowsZone };
export { ZoneLimitError, VTIMEZONE_LIMITS } from './vtimezoneRules.js';

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

/**
 * A zone whose offsets agree with the VTIMEZONE's over two years around `now` (twice a month),
 * or null. The VTIMEZONE is read on a budget (vtimezoneRules.ts): only those two years of its
 * rules, never its whole history; past a limit this throws a ZoneLimitError.
 */
function matchByOffsets(vtimezone: ICAL.JCalComponent, now: Date): string | null {
  const year = now.getUTCFullYear();
  const wall: number[] = [];
  for (const y of [year, year + 1])
    for (let m = 1; m <= 12; m++)
      for (const d of [1, 15]) wall.push(dayNumberOf(y, m, d) * 86_400 + 43_200);
  // Noon on the zone's clock: its instant is found as any local time's is (the offset at the
  // wall time read as UTC, then the offset at that instant).
  const guess = vtimezoneOffsets(vtimezone, [year, year + 1], wall);
  const at = wall.map((w, i) => w - guess[i]);
  const offsets = vtimezoneOffsets(vtimezone, [year, year + 1], at);
  const samples = at.map((t, i) => ({ ms: t * 1000, offset: offsets[i] }));
  for (const z of allZones()) {
    if (samples.every((s) => offsetSecondsAt(new Date(s.ms), z) === s.offset))
      return normalizeTimeZone(z) ?? z;
  }
  return null;
}

/** The zone a TZID names by itself (an IANA name, a vendor path, a Windows name), or null. */
export function namedZone(tzid: string): string | null {
  return ianaIn(tzid) ?? windowsZone(tzid);
}

/**
 * A resolver for one feed or object: TZID → IANA zone (or null), remembering its answers.
 * `vtimezones` are its VTIMEZONE components by TZID. `strict`: a VTIMEZONE beyond what is read
 * throws its ZoneLimitError (CalDAV refuses the object); otherwise it names no zone (a feed's
 * times in it are read as floating).
 */
export function zoneResolver(
  vtimezones: ReadonlyMap<string, ICAL.JCalComponent>,
  now: Date,
  strict = false,
): (tzid: string) => string | null {
  const known = new Map<string, string | null>();
  return (tzid) => {
    if (known.has(tzid)) return known.get(tzid)!;
    let z = namedZone(tzid);
    const vtz = vtimezones.get(tzid);
    if (!z && vtz) {
      const location = propValue(vtz, 'x-lic-location');
      try {
        z = (location && ianaIn(location)) || matchByOffsets(vtz, now);
      } catch (e) {
        if (strict || !(e instanceof ZoneLimitError)) throw e;
      }
    }
    known.set(tzid, z);
    return z;
  };
}

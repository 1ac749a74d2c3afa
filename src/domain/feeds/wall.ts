/**
 * Wall-clock times of feeds: `YYYY-MM-DDTHH:mm:ss` in a named zone, turned into instants and
 * into the family's local dates and times. Feeds keep seconds, the calendar shows minutes.
 * Pure; zone data from the runtime's tz database through the shared Intl helpers.
 *
 * Expanding a daily series from years ago converts thousands of starts; an Intl lookup per
 * conversion made that a tenth of a second per series. A zone's offset changes are therefore
 * looked up once per zone and year (the shared transition scan) and kept; every conversion after
 * that is arithmetic.
 */
import {
  dayNumberOf,
  fromDayNumber,
  offsetSecondsAt,
  partsOfDayNumber,
  toDayNumber,
  zoneTransitions,
} from '../shared/time.js';

const WALL_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

export interface Wall {
  date: string;
  /** Seconds since local midnight. */
  seconds: number;
}

export function parseWall(s: string): Wall {
  const m = WALL_RE.exec(s);
  if (!m) throw new RangeError(`not a wall-clock time: ${JSON.stringify(s)}`);
  return { date: m[1], seconds: Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]) };
}

export function formatWall(date: string, seconds: number): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date}T${p(Math.floor(seconds / 3600))}:${p(Math.floor((seconds % 3600) / 60))}:${p(seconds % 60)}`;
}

interface ZoneYear {
  /** Offset in force at the year's first second (UTC). */
  first: number;
  changes: { sec: number; offset: number }[];
}

const zoneYears = new Map<string, ZoneYear>();

/** The zone's offset changes in one UTC year (a cache, not state: the tz data does not change). */
function zoneYear(tz: string, year: number): ZoneYear {
  const key = `${tz}|${year}`;
  let y = zoneYears.get(key);
  if (!y) {
    const from = dayNumberOf(year, 1, 1) * 86_400;
    const to = dayNumberOf(year + 1, 1, 1) * 86_400;
    y = {
      first: offsetSecondsAt(new Date(from * 1000), tz),
      changes: zoneTransitions(tz, new Date(from * 1000), new Date(to * 1000)).map((t) => ({
        sec: t.instant.getTime() / 1000,
        offset: t.offsetAfter,
      })),
    };
    if (zoneYears.size >= 20_000) zoneYears.clear(); // a bound, not a policy
    zoneYears.set(key, y);
  }
  return y;
}

/** UTC offset of `tz` at epoch second `sec`, in seconds. */
function offsetAt(sec: number, tz: string): number {
  const y = zoneYear(tz, partsOfDayNumber(Math.floor(sec / 86_400)).year);
  let offset = y.first;
  for (const c of y.changes) {
    if (c.sec > sec) break;
    offset = c.offset;
  }
  return offset;
}

/**
 * The instant (ms) at which the wall clock in `tz` shows `date` + `seconds`. A time skipped by a
 * DST gap is read with the offset before the gap; a repeated time takes the earlier instant
 * (RFC 5545 §3.3.5, and what the calendar's own localToInstant does).
 */
export function wallToMs(date: string, seconds: number, tz: string): number {
  const wall = toDayNumber(date) * 86_400 + seconds;
  const before = offsetAt(wall - 86_400, tz);
  const after = offsetAt(wall + 86_400, tz);
  if (before === after) return (wall - before) * 1000;
  if (offsetAt(wall - before, tz) === before) return (wall - before) * 1000;
  if (offsetAt(wall - after, tz) === after) return (wall - after) * 1000;
  return (wall - before) * 1000;
}

/** The wall clock in `tz` at instant `ms`, with seconds. */
export function msToWall(ms: number, tz: string): Wall {
  const sec = Math.floor(ms / 1000);
  const wall = sec + offsetAt(sec, tz);
  const day = Math.floor(wall / 86_400);
  return { date: fromDayNumber(day), seconds: wall - day * 86_400 };
}

/** Local date and `HH:mm` in `zone` at instant `ms` (seconds dropped). */
export function msToLocal(ms: number, zone: string): { date: string; time: string } {
  const w = msToWall(ms, zone);
  const minutes = Math.floor(w.seconds / 60);
  return {
    date: w.date,
    time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
  };
}

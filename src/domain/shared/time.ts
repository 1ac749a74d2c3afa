/**
 * Calendar dates, local times and time zones, as the wire carries them (docs/api.md):
 * dates `YYYY-MM-DD`, local times `HH:mm` (24-hour), time zones as IANA names.
 *
 * Pure: no clock (callers pass `now`), no I/O. Date arithmetic works on integer day numbers
 * (days since 1970-01-01, proleptic Gregorian) so it never depends on the process's time zone
 * and never meets a DST hour. Zone math uses Intl (see "zone math" below for why not Temporal).
 */
import { Temporal } from 'temporal-polyfill';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_24_RE = /^(\d{1,2}):([0-5]\d)$/;
const TIME_12_RE = /^(\d{1,2})(?::([0-5]\d))?\s?([ap])m$/i;

export interface CalendarDateParts {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (1..12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Parses a `YYYY-MM-DD` string, or null when it is not a real calendar date. */
export function parseCalendarDate(s: string): CalendarDateParts | null {
  const m = DATE_RE.exec(s);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** `YYYY-MM-DD` and calendar-valid: 2026-02-29 is false, 2028-02-29 true, 2100-02-29 false. */
export function isCalendarDate(s: string): boolean {
  return parseCalendarDate(s) !== null;
}

function requireDate(s: string): CalendarDateParts {
  const parts = parseCalendarDate(s);
  if (!parts) throw new RangeError(`not a calendar date: ${JSON.stringify(s)}`);
  return parts;
}

export function formatCalendarDate(year: number, month: number, day: number): string {
  if (year < 0 || year > 9999) throw new RangeError(`year out of range: ${year}`);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Days since 1970-01-01 (negative before). Howard Hinnant's `days_from_civil`: exact integer
 * arithmetic for every year, unlike Date.UTC which maps years 0..99 onto 1900..1999.
 */
export function dayNumberOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12; // March = 0
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Inverse of dayNumberOf (Hinnant's `civil_from_days`). */
export function partsOfDayNumber(n: number): CalendarDateParts {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** `YYYY-MM-DD` → day number; throws RangeError for an invalid date. */
export function toDayNumber(date: string): number {
  const { year, month, day } = requireDate(date);
  return dayNumberOf(year, month, day);
}

/** Day number → `YYYY-MM-DD`; throws RangeError outside years 0000..9999. */
export function fromDayNumber(n: number): string {
  const { year, month, day } = partsOfDayNumber(n);
  return formatCalendarDate(year, month, day);
}

export function addDays(date: string, n: number): string {
  return fromDayNumber(toDayNumber(date) + n);
}

/** b − a in days. */
export function daysBetween(a: string, b: string): number {
  return toDayNumber(b) - toDayNumber(a);
}

/** Day of the week of a day number: 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOfDayNumber(n: number): number {
  return (((n + 4) % 7) + 7) % 7;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return weekdayOfDayNumber(toDayNumber(date));
}

/**
 * Accepts `HH:mm` / `H:mm` (24-hour) and `h:mm AM`, `h AM`, `3:30pm` (case-insensitive, one
 * optional space) and answers the normalized `HH:mm`, or null. Surrounding blanks are ignored.
 */
export function parseLocalTime(s: string): string | null {
  const t = s.trim();
  const m24 = TIME_24_RE.exec(t);
  if (m24) {
    const h = Number(m24[1]);
    return h <= 23 ? `${String(h).padStart(2, '0')}:${m24[2]}` : null;
  }
  const m12 = TIME_12_RE.exec(t);
  if (m12) {
    const h = Number(m12[1]);
    if (h < 1 || h > 12) return null;
    const pm = m12[3].toLowerCase() === 'p';
    const h24 = (h % 12) + (pm ? 12 : 0);
    return `${String(h24).padStart(2, '0')}:${m12[2] ?? '00'}`;
  }
  return null;
}

function requireTime(s: string): { hour: number; minute: number } {
  const t = parseLocalTime(s);
  if (t === null) throw new RangeError(`not a local time: ${JSON.stringify(s)}`);
  return { hour: Number(t.slice(0, 2)), minute: Number(t.slice(3, 5)) };
}

/** Minutes since midnight of a local time. */
export function minutesOfDay(time: string): number {
  const { hour, minute } = requireTime(time);
  return hour * 60 + minute;
}

/** `15:30` → `3:30 PM`, `00:05` → `12:05 AM`, `12:00` → `12:00 PM`. */
export function formatTime12(hhmm: string): string {
  const { hour, minute } = requireTime(hhmm);
  return `${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * The zone's name with IANA casing (`europe/berlin` → `Europe/Berlin`; links such as
 * `Asia/Kolkata` are kept, unlike Intl's resolvedOptions), or null when unknown. Offset strings
 * (`+01:00`) are refused: a family lives in a named zone with DST rules.
 */
export function normalizeTimeZone(tz: string): string | null {
  if (!/^[A-Za-z]/.test(tz)) return null;
  try {
    return Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(tz).timeZoneId;
  } catch {
    return null;
  }
}

// ---- zone math ------------------------------------------------------------------------------
//
// Why not Temporal here: temporal-polyfill 0.3 clamps every offset lookup to the years
// [1847, <current year> + 10] (it reads the clock when it is imported), so a Berlin summer
// time in 2040 comes out as +01:00, and getTimeZoneTransition() finds nothing past that year.
// Intl.DateTimeFormat reads the same tz database without the clamp; the little arithmetic
// below is all Temporal would do with it.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f); // a cache, not state: one formatter per zone ever used
  }
  return f;
}

/** UTC offset of `tz` at epoch second `sec`, in seconds, as Intl reads it (slow: ~µs). */
function readOffset(sec: number, tz: string): number {
  const p: Record<string, number> = {};
  for (const part of formatterFor(tz).formatToParts(new Date(sec * 1000))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const wall =
    dayNumberOf(p.year, p.month, p.day) * 86_400 + p.hour * 3600 + p.minute * 60 + p.second;
  return wall - sec;
}

/** A zone's offsets over one UTC day: the offset at its start, then each change in it. */
interface DayOffsets {
  first: number;
  changes: { at: number; offset: number }[];
}

/**
 * Offsets by zone and UTC day number (a cache, not state). Listings, reminders and CalDAV
 * convert the same few days' wall times again and again; reading Intl for each conversion
 * (two to four reads each) was most of a listing's time. A day is read once: at its start,
 * middle and end, and when they differ, each change is found to the second.
 */
const dayOffsets = new Map<string, Map<number, DayOffsets>>();

/** The first second in (lo, hi] whose offset is not `before` (there is one). */
function changeAt(lo: number, hi: number, before: number, tz: string): number {
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (readOffset(mid, tz) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * One UTC day of `tz`, from three readings. Two changes in one half of a day that cancel out
 * would be missed; no zone has had such a pair (the shortest gap between changes is weeks).
 */
function readDay(day: number, tz: string): DayOffsets {
  const t = [day * 86_400, day * 86_400 + 43_200, day * 86_400 + 86_399];
  const o = t.map((sec) => readOffset(sec, tz));
  const changes: DayOffsets['changes'] = [];
  for (let i = 0; i < 2; i++) {
    if (o[i] !== o[i + 1])
      changes.push({ at: changeAt(t[i], t[i + 1], o[i], tz), offset: o[i + 1] });
  }
  return { first: o[0], changes };
}

/** UTC offset of `tz` at epoch second `sec`, in seconds. */
function offsetAtSec(sec: number, tz: string): number {
  let days = dayOffsets.get(tz);
  if (!days) dayOffsets.set(tz, (days = new Map<number, DayOffsets>()));
  const day = Math.floor(sec / 86_400);
  let d = days.get(day);
  if (!d) {
    if (days.size >= 50_000) days.clear(); // a bound: 137 years of one zone
    d = readDay(day, tz);
    days.set(day, d);
  }
  let offset = d.first;
  for (const c of d.changes) if (sec >= c.at) offset = c.offset;
  return offset;
}

/** UTC offset of `tz` at `instant`, in seconds east of Greenwich (Berlin summer → 7200). */
export function offsetSecondsAt(instant: Date, tz: string): number {
  return offsetAtSec(Math.floor(instant.getTime() / 1000), tz);
}

/**
 * The instant at which the wall clock in `tz` shows `date` `time`. A time skipped by a DST gap
 * is read with the offset before the gap (02:30 → 03:30 CEST), a repeated time takes its first
 * (earlier) instant: Temporal's 'compatible', which is also RFC 5545's rule for TZID times.
 */
export function localToInstant(date: string, time: string, tz: string): Date {
  const { year, month, day } = requireDate(date);
  const { hour, minute } = requireTime(time);
  const wall = dayNumberOf(year, month, day) * 86_400 + hour * 3600 + minute * 60;
  // Offsets a day either side bracket any transition near this wall time.
  const before = offsetAtSec(wall - 86_400, tz);
  const after = offsetAtSec(wall + 86_400, tz);
  if (before === after) return new Date((wall - before) * 1000);
  // Near a transition: the earlier reading wins when both fit (overlap) and is also the
  // right one in a gap, where neither fits.
  if (offsetAtSec(wall - before, tz) === before) return new Date((wall - before) * 1000);
  if (offsetAtSec(wall - after, tz) === after) return new Date((wall - after) * 1000);
  return new Date((wall - before) * 1000);
}

/**
 * localToInstant in epoch ms: what listings (every occurrence's `startsAt`), reminders and
 * CalDAV time ranges call. Zone offsets are read once per zone and day (offsetAtSec), so a
 * conversion costs a few map lookups.
 */
export function localInstantMs(date: string, time: string, tz: string): number {
  return localToInstant(date, time, tz).getTime();
}

/** The wall-clock date and `HH:mm` in `tz` at `instant` (seconds are dropped). */
export function instantToLocal(instant: Date, tz: string): { date: string; time: string } {
  const sec = Math.floor(instant.getTime() / 1000);
  const wall = sec + offsetAtSec(sec, tz);
  const dayNumber = Math.floor(wall / 86_400);
  const minutes = Math.floor((wall - dayNumber * 86_400) / 60);
  return {
    date: fromDayNumber(dayNumber),
    time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
  };
}

/** The calendar date in `tz` at `now`. */
export function todayIn(tz: string, now: Date): string {
  return instantToLocal(now, tz).date;
}

export interface ZoneTransition {
  /** First instant of the new offset. */
  instant: Date;
  /** UTC offsets in seconds east of Greenwich, before and after the instant. */
  offsetBefore: number;
  offsetAfter: number;
}

/** Scan step: shorter than any gap between two offset changes that cancel out (Ramadan). */
const SCAN_STEP_SEC = 7 * 86_400;

/**
 * The UTC-offset changes of `tz` in [from, to), in order: a weekly scan, then a binary search
 * to the second for each change found. Changes that only rename the zone are not seen.
 */
export function zoneTransitions(tz: string, from: Date, to: Date): ZoneTransition[] {
  const out: ZoneTransition[] = [];
  const end = Math.floor(to.getTime() / 1000);
  let a = Math.floor(from.getTime() / 1000);
  let offA = offsetAtSec(a, tz);
  while (a < end) {
    const b = Math.min(a + SCAN_STEP_SEC, end);
    const offB = offsetAtSec(b, tz);
    if (offB !== offA) {
      let lo = a; // offset offA at lo, a different one at hi
      let hi = b;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAtSec(mid, tz) === offA) lo = mid;
        else hi = mid;
      }
      const offsetAfter = offsetAtSec(hi, tz);
      out.push({ instant: new Date(hi * 1000), offsetBefore: offA, offsetAfter });
      a = hi;
      offA = offsetAfter;
      continue;
    }
    a = b;
    offA = offB;
  }
  return out;
}

/** Whether `tz` is UTC in all but name (offset 0, no transitions): times can be written with Z. */
export function isUtcZone(tz: string): boolean {
  const zdt = Temporal.Instant.fromEpochMilliseconds(Date.UTC(1800, 0, 1)).toZonedDateTimeISO(tz);
  return zdt.offsetNanoseconds === 0 && zdt.getTimeZoneTransition('next') === null;
}

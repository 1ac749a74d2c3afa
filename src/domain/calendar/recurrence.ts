/**
 * Repeating events: the wire's repeat fields as an RFC 5545 RRULE, and their expansion into
 * occurrence start dates. Pure and clock-free.
 *
 * Semantics (checked against ical.js's iterator in the tests):
 * - The series start `date` is always the first occurrence (RFC 5545: "the DTSTART property
 *   value always counts as the first occurrence"), even when a weekly rule's BYDAY does not
 *   contain its weekday (a Mon+Thu series created on a Wednesday occurs on that Wednesday,
 *   then on Mondays and Thursdays). ical.js skips such a start; the ICS writer adds an RDATE.
 * - Weekly intervals count weeks from the start's week, weeks starting on Monday (WKST=MO).
 * - monthly repeats on the start's day of month; months without that day are skipped.
 * - yearly repeats on the start's month and day; a 29 February start only in leap years.
 * - repeatUntil is an inclusive date bounding occurrence *starts*.
 * - repeatDays only matter for weekly and custom; custom requires them.
 * Invalid timings (bad dates, interval < 1, custom without days, repeatUntil before date) throw
 * RangeError: the domain validates input before it is stored, so this is a programming error.
 */
import {
  daysInMonth,
  dayNumberOf,
  fromDayNumber,
  isLeapYear,
  parseCalendarDate,
  partsOfDayNumber,
  toDayNumber,
  weekday,
  weekdayOfDayNumber,
  type CalendarDateParts,
} from '../shared/time.js';

export type RepeatFrequency =
  'none' | 'daily' | 'weekdays' | 'weekends' | 'weekly' | 'monthly' | 'yearly' | 'custom';

export interface SeriesTiming {
  date: string;
  endDate?: string;
  time?: string;
  endTime?: string;
  allDay?: boolean;
  repeatFrequency?: RepeatFrequency;
  repeatInterval?: number;
  repeatDays?: number[];
  repeatNthWeekday?: number;
  repeatUntil?: string;
}

export interface OccurrenceWindow {
  /** Inclusive; occurrences whose span reaches this date are kept. */
  from?: string;
  /** Inclusive; occurrences starting after it are not. */
  to?: string;
}

/** RFC 5545 day names by weekday number (0 = Sunday), as BYDAY and VTIMEZONE rules write them. */
export const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
/** Monday-first order, so BYDAY lists read as a week with WKST=MO does. */
const MONDAY_FIRST = [1, 2, 3, 4, 5, 6, 0];
const MAX_DAY = dayNumberOf(9999, 12, 31);

/** A normalized rule: what expansion and RRULE writing both need. */
type Rule =
  | { kind: 'daily'; interval: number }
  | { kind: 'weekly'; interval: number; days: number[] } // Monday-first, deduplicated
  | { kind: 'monthly'; interval: number; nth?: number } // nth: the start's weekday, n-th of the month (-1 last)
  | { kind: 'yearly'; interval: number };

function dateParts(s: string, what: string): CalendarDateParts {
  const p = parseCalendarDate(s);
  if (!p) throw new RangeError(`${what} is not a calendar date: ${JSON.stringify(s)}`);
  return p;
}

function isRepeating(t: SeriesTiming): boolean {
  return t.repeatFrequency !== undefined && t.repeatFrequency !== 'none';
}

function weekDays(days: number[]): number[] {
  for (const d of days) {
    if (!Number.isInteger(d) || d < 0 || d > 6)
      throw new RangeError(`repeat day out of range: ${d}`);
  }
  return MONDAY_FIRST.filter((d) => days.includes(d));
}

function ruleOf(t: SeriesTiming): Rule | null {
  if (!isRepeating(t)) return null;
  const interval = t.repeatInterval ?? 1;
  if (!Number.isInteger(interval) || interval < 1)
    throw new RangeError(`repeat interval must be a positive integer: ${interval}`);
  const start = dateParts(t.date, 'date');
  if (t.repeatUntil !== undefined) {
    dateParts(t.repeatUntil, 'repeatUntil');
    if (t.repeatUntil < t.date) throw new RangeError('repeatUntil is before the start date');
  }
  const freq = t.repeatFrequency!;
  switch (freq) {
    case 'daily':
      return { kind: 'daily', interval };
    case 'weekdays':
      return { kind: 'weekly', interval, days: [1, 2, 3, 4, 5] };
    case 'weekends':
      return { kind: 'weekly', interval, days: [6, 0] };
    case 'weekly': {
      const days = t.repeatDays?.length
        ? weekDays(t.repeatDays)
        : [weekdayOfDayNumber(dayNumberOf(start.year, start.month, start.day))];
      return { kind: 'weekly', interval, days };
    }
    case 'custom':
      if (!t.repeatDays?.length) throw new RangeError('a custom repeat needs repeatDays');
      return { kind: 'weekly', interval, days: weekDays(t.repeatDays) };
    case 'monthly': {
      const nth = t.repeatNthWeekday;
      if (nth === undefined) return { kind: 'monthly', interval };
      if (!Number.isInteger(nth) || nth < -1 || nth > 4 || nth === 0)
        throw new RangeError(`repeatNthWeekday out of range: ${nth}`);
      return { kind: 'monthly', interval, nth };
    }
    case 'yearly':
      return { kind: 'yearly', interval };
    case 'none':
      return null;
    default: {
      const never: never = freq;
      throw new RangeError(`unknown repeat frequency: ${String(never)}`);
    }
  }
}

/**
 * The RRULE value for a series (without the `RRULE:` name), or null when it does not repeat.
 * UNTIL is written as a DATE (`UNTIL=20270101`); a writer whose DTSTART is a date-time must turn
 * it into a UTC date-time (ics.ts does).
 *
 * One deliberate deviation from a literal FREQ=YEARLY: a 29 February start is written as
 * `FREQ=MONTHLY;INTERVAL=12n;BYMONTHDAY=29`. RFC 5545 gives both the same meaning (leap years
 * only), but ical.js (used by ical-expander and many clients) turns FREQ=YEARLY from 29 Feb into
 * 1 March in common years; the monthly form is read correctly everywhere.
 */
export function rruleFor(t: SeriesTiming): string | null {
  const rule = ruleOf(t);
  if (!rule) return null;
  const parts: string[] = [];
  const interval = (n: number) => {
    if (n > 1) parts.push(`INTERVAL=${n}`);
  };
  switch (rule.kind) {
    case 'daily':
      parts.push('FREQ=DAILY');
      interval(rule.interval);
      break;
    case 'weekly':
      parts.push('FREQ=WEEKLY');
      interval(rule.interval);
      parts.push(`BYDAY=${rule.days.map((d) => BYDAY[d]).join(',')}`);
      // WKST only changes anything when INTERVAL > 1; say it then, for readers with other defaults.
      if (rule.interval > 1) parts.push('WKST=MO');
      break;
    case 'monthly':
      parts.push('FREQ=MONTHLY');
      interval(rule.interval);
      if (rule.nth !== undefined) parts.push(`BYDAY=${rule.nth}${BYDAY[weekday(t.date)]}`);
      break;
    case 'yearly': {
      const { month, day } = dateParts(t.date, 'date');
      if (month === 2 && day === 29) {
        parts.push('FREQ=MONTHLY', `INTERVAL=${12 * rule.interval}`, 'BYMONTHDAY=29');
      } else {
        parts.push('FREQ=YEARLY');
        interval(rule.interval);
      }
      break;
    }
  }
  if (t.repeatUntil !== undefined) parts.push(`UNTIL=${t.repeatUntil.replaceAll('-', '')}`);
  return parts.join(';');
}

/** Length of every occurrence in days beyond its start (0 for a one-day event). */
export function spanDays(t: SeriesTiming): number {
  if (t.endDate === undefined) return 0;
  return Math.max(0, toDayNumber(t.endDate) - toDayNumber(t.date));
}

/**
 * Start dates of the occurrences whose span [start, start + length] overlaps the inclusive
 * window, ascending, lazily. Without `to` and repeatUntil a repeating series never ends: take
 * what you need. Each frequency jumps straight to the window (no walk from the series start),
 * so a one-year window of a daily series that began ten years ago costs one year of work.
 */
export function* occurrenceStarts(t: SeriesTiming, opts: OccurrenceWindow = {}): Generator<string> {
  const start = toDayNumber(t.date);
  const span = spanDays(t);
  // An occurrence starting on s overlaps [from, to] iff s <= to and s + span >= from.
  const lo = Math.max(start, opts.from === undefined ? start : toDayNumber(opts.from) - span);
  let hi = opts.to === undefined ? MAX_DAY : Math.min(MAX_DAY, toDayNumber(opts.to));
  const rule = ruleOf(t);
  if (!rule) {
    if (start >= lo && start <= hi) yield t.date;
    return;
  }
  if (t.repeatUntil !== undefined) hi = Math.min(hi, toDayNumber(t.repeatUntil));
  if (lo > hi) return;
  // DTSTART always counts; the rule's own days follow strictly after it.
  if (start >= lo) yield t.date;
  for (const day of ruleDays(rule, dateParts(t.date, 'date'), start, Math.max(lo, start + 1))) {
    if (day > hi) return;
    yield fromDayNumber(day);
  }
}

/** Whether `date` is the start of one of the series' occurrences. */
export function isOccurrenceStart(t: SeriesTiming, date: string): boolean {
  if (!parseCalendarDate(date)) return false;
  for (const s of occurrenceStarts({ ...t, endDate: undefined }, { from: date, to: date })) {
    if (s === date) return true;
  }
  return false;
}

/** Day numbers >= `min` produced by the rule itself (ascending, unbounded up to year 9999). */
function* ruleDays(
  rule: Rule,
  s: CalendarDateParts,
  start: number,
  min: number,
): Generator<number> {
  const k = rule.interval;
  switch (rule.kind) {
    case 'daily': {
      for (let day = start + Math.ceil((min - start) / k) * k; day <= MAX_DAY; day += k) yield day;
      return;
    }
    case 'weekly': {
      const monday0 = start - ((weekdayOfDayNumber(start) + 6) % 7); // Monday of the start's week
      const offsets = rule.days.map((d) => (d + 6) % 7); // Monday = 0 … Sunday = 6
      // First week at or after min's week whose distance from the start's week is a multiple of k.
      const week = Math.ceil(Math.floor((min - monday0) / 7) / k) * k;
      for (let monday = monday0 + week * 7; monday <= MAX_DAY; monday += 7 * k) {
        for (const o of offsets) if (monday + o >= min && monday + o <= MAX_DAY) yield monday + o;
      }
      return;
    }
    case 'monthly': {
      const base = s.year * 12 + (s.month - 1);
      const { year, month } = partsAfter(min);
      // The interval step at or just before min's month; earlier candidates are skipped below.
      let index = base + Math.max(0, Math.floor((year * 12 + month - 1 - base) / k)) * k;
      for (; index <= 9999 * 12 + 11; index += k) {
        const y = Math.floor(index / 12);
        const m = (index % 12) + 1;
        if (rule.nth !== undefined) {
          const day = nthWeekday(y, m, weekdayOfDayNumber(start), rule.nth);
          if (day !== null && day >= min) yield day;
          continue;
        }
        if (s.day > daysInMonth(y, m)) continue; // no 31 April: skipped, not moved
        const day = dayNumberOf(y, m, s.day);
        if (day >= min) yield day;
      }
      return;
    }
    case 'yearly': {
      const { year } = partsAfter(min);
      for (let y = s.year + Math.max(0, Math.floor((year - s.year) / k)) * k; y <= 9999; y += k) {
        if (s.month === 2 && s.day === 29 && !isLeapYear(y)) continue;
        const day = dayNumberOf(y, s.month, s.day);
        if (day >= min) yield day;
      }
      return;
    }
  }
}

/** The day number of the n-th (1..4, -1 = last) `wd` (0 = Sunday) of a month, or null (no 5th). */
export function nthWeekday(year: number, month: number, wd: number, nth: number): number | null {
  if (nth === -1) {
    const last = dayNumberOf(year, month, daysInMonth(year, month));
    return last - ((weekdayOfDayNumber(last) - wd + 7) % 7);
  }
  const first = dayNumberOf(year, month, 1);
  const day = first + ((wd - weekdayOfDayNumber(first) + 7) % 7) + (nth - 1) * 7;
  return day <= dayNumberOf(year, month, daysInMonth(year, month)) ? day : null;
}

/** Which n-th weekday of its month `date` is: 1..5 from the start, and whether it is the last. */
export function weekdayOrdinal(date: string): { nth: number; last: boolean } {
  const p = dateParts(date, 'date');
  return { nth: Math.ceil(p.day / 7), last: p.day + 7 > daysInMonth(p.year, p.month) };
}

/** Year and month of a day number (clamped to 9999-12-31, where expansion stops anyway). */
function partsAfter(day: number): CalendarDateParts {
  return partsOfDayNumber(Math.min(day, MAX_DAY));
}

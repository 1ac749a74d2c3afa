/**
 * An RRULE → the event's repeat fields (docs/caldav.md, "Events"): the parts the API can hold
 * map to them (COUNT becomes the matching repeatUntil); anything else is refused (403) naming it.
 */
import type ICAL from 'ical.js';
import { occurrenceStarts, BYDAY } from '../domain/calendar/recurrence.js';
import type { EventPatch } from '../domain/calendar/types.js';
import { addDays, instantToLocal, localToInstant } from '../domain/shared/time.js';
import { badCalendarData, unsupportedObject } from './errors.js';
import { MAX_YEAR, type Local, type Written } from './icalRead.js';

/** A BYMONTHDAY list other than the start's own day. */
function monthly(monthDays: number[], day: number | undefined): boolean {
  return monthDays.length > 1 || monthDays[0] !== day;
}

const WEEKDAY = new Map<string, number>(BYDAY.map((d, i) => [d, i]));
const ALLOWED_RULE_PARTS = new Set([
  'freq',
  'interval',
  'until',
  'count',
  'byday',
  'bymonthday',
  'bymonth',
  'wkst',
]);

function list(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => String(x).toUpperCase());
}

const refuse = (why: string) =>
  unsupportedObject(
    `RRULE ${why}: the household calendar cannot hold this rule, and changing it silently would move occurrences`,
  );

const OFF: EventPatch = {
  repeatFrequency: 'none',
  repeatInterval: null,
  repeatDays: null,
  repeatNthWeekday: null,
  repeatUntil: null,
};

/** An RRULE's parts as the mapping reads them. */
interface Rule {
  freq: string;
  interval: number;
  allDays: string[];
  /** Plain weekdays of BYDAY. */
  days: string[];
  /** The n of a monthly "n-th weekday" rule (-1: the last), else null. */
  monthlyNth: number | null;
  monthDays: number[];
  months: number[];
}

/** "The 2nd Tuesday" (BYDAY=2TU, -1 for the last) is held for monthly rules only. */
function monthlyNthOf(freq: string, allDays: string[], days: string[], s: Local): number | null {
  const positioned = allDays
    .map((d) => /^([+-]?\d{1,2})([A-Z]{2})$/.exec(d))
    .filter((m): m is RegExpExecArray => m !== null);
  const nth =
    freq === 'MONTHLY' &&
    positioned.length === 1 &&
    days.length === 0 &&
    WEEKDAY.get(positioned[0][2]) === new Date(`${s.date}T12:00:00Z`).getUTCDay()
      ? Number(positioned[0][1])
      : null;
  if (positioned.length && nth === null) {
    throw refuse(
      `BYDAY=${allDays.join(',')} repeats on positioned weekdays other than one monthly n-th weekday of the start's own weekday`,
    );
  }
  if (nth !== null && nth !== -1 && (nth < 1 || nth > 4)) {
    throw refuse(
      `BYDAY=${allDays.join(',')} names the ${nth}th weekday; the 1st to 4th or the last (-1) are held`,
    );
  }
  return nth;
}

/** The rule's parts, each checked: an unknown part, a bad INTERVAL or BYDAY → 403 naming it. */
function ruleOf(p: ICAL.JCalProperty, s: Local): Rule {
  const r = p[3] as Record<string, unknown>;
  if (typeof r !== 'object' || r === null) throw badCalendarData('RRULE could not be read');
  const extra = Object.keys(r).filter((k) => !ALLOWED_RULE_PARTS.has(k));
  if (extra.length) throw refuse(`uses ${extra.map((k) => k.toUpperCase()).join(', ')}`);
  const interval = r.interval === undefined ? 1 : Number(r.interval);
  if (!Number.isInteger(interval) || interval < 1 || interval > 1000)
    throw refuse('has an INTERVAL that is not a whole number from 1 to 1000');
  const allDays = list(r.byday);
  const days = allDays.filter((d) => !/^[+-]?\d/.test(d));
  if (days.some((d) => !WEEKDAY.has(d)))
    throw refuse(`BYDAY=${allDays.join(',')} names no weekday`);
  const freq = String(r.freq).toUpperCase();
  return {
    freq,
    interval,
    allDays,
    days,
    monthlyNth: monthlyNthOf(freq, allDays, days, s),
    monthDays: list(r.bymonthday).map(Number),
    months: list(r.bymonth).map(Number),
  };
}

/** The repeat fields of the rule's frequency, or 403 for what that frequency cannot hold. */
function frequencyFields(rule: Rule, s: Local): EventPatch {
  const { days, months, monthDays, monthlyNth, interval } = rule;
  const [, month, day] = s.date.split('-').map(Number);
  const fields: EventPatch = { ...OFF, repeatInterval: interval === 1 ? null : interval };
  switch (rule.freq) {
    case 'DAILY':
      if (monthDays.length || months.length)
        throw refuse('limits a daily rule by month or day of month');
      if (days.length) {
        if (interval !== 1) throw refuse('repeats every few days on chosen weekdays');
        fields.repeatFrequency = 'weekly';
        fields.repeatDays = days.map((d) => WEEKDAY.get(d)!);
      } else fields.repeatFrequency = 'daily';
      return fields;
    case 'WEEKLY':
      if (monthDays.length || months.length)
        throw refuse('limits a weekly rule by month or day of month');
      fields.repeatFrequency = 'weekly';
      if (days.length) fields.repeatDays = days.map((d) => WEEKDAY.get(d)!);
      return fields;
    case 'MONTHLY':
      if (
        days.length ||
        months.length ||
        (monthDays.length && (monthly(monthDays, day) || monthlyNth !== null))
      ) {
        throw refuse(
          "repeats monthly on other days than the start's day of the month or its n-th weekday",
        );
      }
      fields.repeatFrequency = 'monthly';
      if (monthlyNth !== null) fields.repeatNthWeekday = monthlyNth;
      return fields;
    case 'YEARLY':
      if (
        days.length ||
        (months.length && (months.length > 1 || months[0] !== month)) ||
        (monthDays.length && (monthDays.length > 1 || monthDays[0] !== day))
      ) {
        throw refuse("repeats yearly on other dates than the start's");
      }
      fields.repeatFrequency = 'yearly';
      return fields;
    default:
      throw refuse(`has FREQ=${rule.freq}; daily, weekly, monthly and yearly rules are held`);
  }
}

/** COUNT → the date of the last occurrence it lets through (the series' repeatUntil). */
function untilOfCount(count: number, fields: EventPatch, s: Local): string {
  if (count > 100_000) throw refuse('has a COUNT above 100000');
  let last = s.date;
  let n = 0;
  for (const d of occurrenceStarts({
    date: s.date,
    repeatFrequency: fields.repeatFrequency,
    ...(fields.repeatInterval ? { repeatInterval: fields.repeatInterval } : {}),
    ...(fields.repeatDays ? { repeatDays: fields.repeatDays } : {}),
    ...(fields.repeatNthWeekday ? { repeatNthWeekday: fields.repeatNthWeekday } : {}),
  })) {
    last = d;
    if (++n >= count) break;
  }
  return last > `${MAX_YEAR}-12-31` ? `${MAX_YEAR}-12-31` : last;
}

/** RRULE → repeat fields; anything the API cannot hold → 403 naming it. */
export function repeatOf(
  p: ICAL.JCalProperty | undefined,
  start: Written,
  s: Local,
  tz: string,
): EventPatch {
  if (!p) return { ...OFF };
  const fields = frequencyFields(ruleOf(p, s), s);
  const r = p[3] as Record<string, unknown>;
  if (r.until !== undefined && r.count !== undefined)
    throw badCalendarData('RRULE has both UNTIL and COUNT');
  if (r.until !== undefined)
    fields.repeatUntil = untilOf(
      typeof r.until === 'string' ? r.until : JSON.stringify(r.until),
      start,
      s,
      tz,
    );
  if (r.count !== undefined) {
    const count = Number(r.count);
    if (!Number.isInteger(count) || count < 1)
      throw badCalendarData('RRULE COUNT must be a positive whole number');
    fields.repeatUntil = untilOfCount(count, fields, s);
  }
  return fields;
}

/** UNTIL (a date, or a UTC date-time) → the last local date an occurrence may start on. */
function untilOf(v: string, start: Written, s: Local, tz: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2}):?(\d{2}):?(\d{2})(Z)?)?$/.exec(v);
  if (!m) throw badCalendarData(`RRULE UNTIL is not a date: ${v.slice(0, 30)}`);
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  // A rule running past the years held ends there (the same occurrences a client shows until then).
  if (Number(m[1]) > MAX_YEAR) return `${MAX_YEAR}-12-31`;
  if (m[4] === undefined || s.time === undefined) return date < s.date ? s.date : date;
  const untilMs = m[7]
    ? Date.parse(`${date}T${m[4]}:${m[5]}:${m[6]}Z`)
    : localToInstant(
        date,
        `${m[4]}:${m[5]}`,
        start.floating || !start.tz ? tz : start.tz,
      ).getTime();
  const local = instantToLocal(new Date(untilMs), tz);
  // An occurrence on the last day that starts after UNTIL is not part of the series.
  const lastDay =
    localToInstant(local.date, s.time, tz).getTime() > untilMs
      ? addDays(local.date, -1)
      : local.date;
  return lastDay < s.date ? s.date : lastDay;
}

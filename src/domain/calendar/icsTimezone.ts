/**
 * VTIMEZONE derivation for the ICS writer (ics.ts), from the runtime's tz data. Pure.
 *
 * The VTIMEZONE lists the zone's real transitions from the first year asked for; from the first
 * year after which the zone follows a stable yearly rule (checked 20 years ahead), transitions
 * are written once with an RRULE, which also covers open-ended series.
 */
import {
  dayNumberOf,
  daysInMonth,
  offsetSecondsAt,
  partsOfDayNumber,
  weekdayOfDayNumber,
  zoneTransitions,
  type ZoneTransition,
} from '../shared/time.js';
import { BYDAY } from './recurrence.js';

const RULE_HORIZON_YEARS = 20;

/** A transition as a VTIMEZONE observance sees it: local wall time in the offset before. */
interface LocalTransition extends ZoneTransition {
  year: number;
  month: number;
  day: number;
  /** Seconds since local midnight. */
  seconds: number;
}

/** A yearly rule such as "last Sunday of March at 02:00, +0100 → +0200". */
interface YearlyRule {
  month: number;
  nth: number; // 1..5, or -1 for the last
  weekday: number;
  seconds: number;
  offsetBefore: number;
  offsetAfter: number;
}

/** Generated VTIMEZONEs by zone and years: scanning 20+ years of a zone takes ~15 ms. */
const vtimezoneCache = new Map<string, string[]>();

/** The VTIMEZONE lines of `tz` covering firstYear..lastYear (unfolded). */
export function vtimezone(tz: string, firstYear: number, lastYear: number): string[] {
  const key = `${tz} ${firstYear} ${lastYear}`;
  let lines = vtimezoneCache.get(key);
  if (!lines) {
    if (vtimezoneCache.size >= 256) vtimezoneCache.clear(); // a bound, not a policy
    lines = buildVtimezone(tz, firstYear, lastYear);
    vtimezoneCache.set(key, lines);
  }
  return lines;
}

/**
 * A zone's transitions by year, kept for the life of the process: ranges that differ only in
 * their ends (an event from 1900, another from 1901) share every year they have in common, so
 * the zone data is scanned at most once per zone and year (about 3 ms a year, 0.5 s for the
 * 1900–2200 years an object may use), not once per range.
 */
const yearTransitions = new Map<string, LocalTransition[]>();

function transitionsIn(tz: string, year: number): LocalTransition[] {
  const key = `${tz} ${year}`;
  let ts = yearTransitions.get(key);
  if (!ts) {
    if (yearTransitions.size >= 100_000) yearTransitions.clear(); // a bound, not a policy
    const dayMs = 86_400_000;
    ts = zoneTransitions(
      tz,
      new Date((dayNumberOf(year, 1, 1) - 1) * dayMs),
      new Date(dayNumberOf(year + 1, 1, 2) * dayMs),
    )
      .map(localTransition)
      .filter((t) => t.year === year);
    yearTransitions.set(key, ts);
  }
  return ts;
}

function buildVtimezone(tz: string, firstYear: number, lastYear: number): string[] {
  const horizon = lastYear + RULE_HORIZON_YEARS;
  const all: LocalTransition[] = [];
  for (let y = firstYear; y <= horizon; y++) all.push(...transitionsIn(tz, y));
  const inYear = (y: number) => all.filter((t) => t.year === y);

  // Derive yearly rules from the last year in use and find the first year from which they hold.
  const rules = deriveRules(inYear(lastYear), lastYear, horizon, inYear);
  let ruleFrom = lastYear;
  if (rules) while (ruleFrom > firstYear && rulesHold(rules, ruleFrom - 1, inYear)) ruleFrom--;

  const out = ['BEGIN:VTIMEZONE', `TZID:${tz}`];
  if (inYear(firstYear).length === 0) {
    // Nothing changes in the first year: one observance states the offset in force then.
    const start = new Date(dayNumberOf(firstYear, 1, 1) * 86_400_000);
    const offset = offsetSecondsAt(start, tz);
    out.push(
      'BEGIN:STANDARD',
      `DTSTART:${firstYear}0101T000000`,
      `TZOFFSETFROM:${formatOffset(offset)}`,
      `TZOFFSETTO:${formatOffset(offset)}`,
      'END:STANDARD',
    );
  }
  const individual = rules ? all.filter((t) => t.year < ruleFrom) : all;
  for (const t of individual) out.push(...observance(t));
  if (rules) {
    for (const r of rules) {
      const first = inYear(ruleFrom).find(
        (t) => t.offsetBefore === r.offsetBefore && t.offsetAfter === r.offsetAfter,
      )!;
      out.push(
        ...observance(first, `FREQ=YEARLY;BYMONTH=${r.month};BYDAY=${r.nth}${BYDAY[r.weekday]}`),
      );
    }
  }
  out.push('END:VTIMEZONE');
  return out;
}

function observance(t: LocalTransition, rrule?: string): string[] {
  const kind = t.offsetAfter > t.offsetBefore ? 'DAYLIGHT' : 'STANDARD';
  const hh = Math.floor(t.seconds / 3600);
  const mm = Math.floor((t.seconds % 3600) / 60);
  const ss = t.seconds % 60;
  const stamp = `${String(t.year).padStart(4, '0')}${pad(t.month)}${pad(t.day)}T${pad(hh)}${pad(mm)}${pad(ss)}`;
  return [
    `BEGIN:${kind}`,
    `DTSTART:${stamp}`,
    ...(rrule ? [`RRULE:${rrule}`] : []),
    `TZOFFSETFROM:${formatOffset(t.offsetBefore)}`,
    `TZOFFSETTO:${formatOffset(t.offsetAfter)}`,
    `END:${kind}`,
  ];
}

function localTransition(t: ZoneTransition): LocalTransition {
  // Wall-clock seconds since 1970 in the offset before the change, split into day and time.
  const wall = Math.floor(t.instant.getTime() / 1000) + t.offsetBefore;
  const dayNumber = Math.floor(wall / 86_400);
  return { ...t, ...partsOfDayNumber(dayNumber), seconds: wall - dayNumber * 86_400 };
}

/** Rules for a year with exactly two transitions that repeat the same way through `horizon`. */
function deriveRules(
  year: LocalTransition[],
  from: number,
  horizon: number,
  inYear: (y: number) => LocalTransition[],
): YearlyRule[] | null {
  if (year.length !== 2) return null;
  const rules: YearlyRule[] = [];
  for (const t of year) {
    const wd = weekdayOfDayNumber(dayNumberOf(t.year, t.month, t.day));
    const last = t.day + 7 > daysInMonth(t.year, t.month);
    const candidates = [...(last ? [-1] : []), Math.ceil(t.day / 7)];
    const found = candidates
      .map((nth): YearlyRule => ({
        month: t.month,
        nth,
        weekday: wd,
        seconds: t.seconds,
        offsetBefore: t.offsetBefore,
        offsetAfter: t.offsetAfter,
      }))
      .find((r) => everyYear(from, horizon, (y) => ruleMatches(r, inYear(y), y)));
    if (!found) return null;
    rules.push(found);
  }
  return everyYear(from, horizon, (y) => inYear(y).length === 2) ? rules : null;
}

function rulesHold(
  rules: YearlyRule[],
  y: number,
  inYear: (y: number) => LocalTransition[],
): boolean {
  const ts = inYear(y);
  return ts.length === rules.length && rules.every((r) => ruleMatches(r, ts, y));
}

function everyYear(from: number, to: number, ok: (y: number) => boolean): boolean {
  for (let y = from; y <= to; y++) if (!ok(y)) return false;
  return true;
}

function ruleMatches(r: YearlyRule, ts: LocalTransition[], y: number): boolean {
  const day = ruleDay(r, y);
  return ts.some(
    (t) =>
      t.month === r.month &&
      t.day === day &&
      t.seconds === r.seconds &&
      t.offsetBefore === r.offsetBefore &&
      t.offsetAfter === r.offsetAfter,
  );
}

/** Day of month of the rule's nth (or last) weekday in year y. */
function ruleDay(r: YearlyRule, y: number): number {
  const dim = daysInMonth(y, r.month);
  if (r.nth < 0) {
    const lastWd = weekdayOfDayNumber(dayNumberOf(y, r.month, dim));
    return dim - ((lastWd - r.weekday + 7) % 7);
  }
  const firstWd = weekdayOfDayNumber(dayNumberOf(y, r.month, 1));
  const day = 1 + ((r.weekday - firstWd + 7) % 7) + 7 * (r.nth - 1);
  return day <= dim ? day : -1;
}

function formatOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const a = Math.abs(seconds);
  const s = a % 60;
  return `${sign}${pad(Math.floor(a / 3600))}${pad(Math.floor((a % 3600) / 60))}${s ? pad(s) : ''}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

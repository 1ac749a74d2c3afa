/**
 * Query-time expansion of a repeating feed event (docs/feeds.md): the feed's own RRULE, RDATEs and
 * DTSTART, walked with ical.js's rule iterator in the event's own wall clock and turned into
 * occurrences in the family's zone.
 *
 * Why not ical-expander's `between()` (which wraps the same iterator): it stops after
 * `maxIterations` steps counted from DTSTART (1,000 by default), so a daily series that began in
 * 2020 has nothing left by today; it reads only the first value of each EXDATE; it matches
 * overrides by exact instant and drops those without a master; and it reads floating times in
 * the process's zone. Here the walk is bounded by the window asked for, and overrides and
 * exclusions are applied by the calendar code (they are exceptions of the event record).
 *
 * Where ical.js itself goes wrong, this module corrects it:
 * - UNTIL is compared by this module, not by ical.js: ical.js compares a UTC UNTIL with the
 *   floating wall clock and drops the last occurrence of `UNTIL=…Z` series in zones east of UTC.
 * - A rule with no BY… part (BYDAY, BYMONTHDAY, …) keeps DTSTART's day: ical.js moves a monthly
 *   31st or a yearly 29 February to the next month instead of skipping it (RFC 5545 §3.3.10).
 * - ical.js's iterator can loop for ever on rules no date satisfies (FREQ=DAILY;BYMONTH=2;
 *   BYMONTHDAY=30): every inner step is counted and a rule that takes too many ends there.
 *
 * Occurrences are identified, like every calendar occurrence, by their local start date: a
 * rule that yields several starts on one local date (sub-daily rules) keeps the first.
 * Expansions are cached per recurrence object (records are immutable values) and grow only as
 * far as a query reaches.
 */
import ICAL from 'ical.js';
import { addDays, fromDayNumber, parseCalendarDate, toDayNumber } from '../shared/time.js';
import type { FeedRecurrence } from './types.js';
import { formatWall, msToLocal, parseWall, wallToMs } from './wall.js';

export interface FeedOccurrence {
  /** Original start in the series' own zone (`YYYY-MM-DDTHH:mm:ss`) or date (all-day). */
  wall: string;
  /**
   * Local start date and (timed) time, and inclusive end date and end time, in the family's zone.
   */
  date: string;
  time?: string;
  endDate: string;
  endTime?: string;
}

// ---- a step budget around ical.js's rule iterator --------------------------------------------

/** Inner steps one `next()` may take before the rule is taken as exhausted. */
const STEPS_PER_OCCURRENCE = 50_000;
/**
 * Rule steps taken per series at most: a daily series reaches 270 years; a FREQ=SECONDLY or
 * HOURLY rule from long ago ends here instead of costing seconds at every first listing.
 */
const MAX_CANDIDATES = 100_000;

class StepLimit extends Error {}
let budget = Infinity;

/**
 * ical.js has no bound of its own on the loops inside `next()`; counting calls of the methods
 * those loops go through gives one. The budget is finite only inside `guarded`, so any other
 * use of ical.js in the process is unaffected.
 */
const proto = (ICAL.RecurIterator as unknown as { prototype: Record<string, unknown> }).prototype;
for (const name of [
  'next_second',
  'next_minute',
  'next_hour',
  'next_day',
  'next_week',
  'next_month',
  'next_year',
  'increment_second',
  'increment_minute',
  'increment_hour',
  'increment_monthday',
  'increment_month',
  'increment_year',
  'next_weekday_by_week',
  'expand_year_days',
]) {
  const fn = proto[name];
  if (typeof fn !== 'function') continue;
  proto[name] = function (this: unknown, ...args: unknown[]) {
    if (--budget < 0) throw new StepLimit('recurrence rule exceeded its step budget');
    return (fn as (...a: unknown[]) => unknown).apply(this, args);
  };
}

function guarded<T>(fn: () => T): T {
  const saved = budget;
  budget = STEPS_PER_OCCURRENCE;
  try {
    return fn();
  } finally {
    budget = saved;
  }
}

// ---- the rule -------------------------------------------------------------------------------

interface Candidate {
  wall: string;
  /** Sort value: the instant (timed) or the day (all-day), in ms. */
  ms: number;
}

type Until =
  { kind: 'utc'; ms: number } | { kind: 'wall'; wall: string } | { kind: 'date'; date: string };

const UNTIL_RE = /(?:^|;)UNTIL=(\d{8})(?:T(\d{6})(Z)?)?(?=;|$)/i;

function dashed(d: string): string {
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
}

/** The rule without UNTIL (ical.js must not judge it) and UNTIL read as its value type says. */
function splitUntil(rrule: string): { rest: string; until: Until | null } {
  const m = UNTIL_RE.exec(rrule);
  if (!m) return { rest: rrule, until: null };
  const rest = rrule.replace(UNTIL_RE, '').replace(/^;/, '');
  const date = dashed(m[1]);
  if (!parseCalendarDate(date)) return { rest, until: null };
  if (!m[2]) return { rest, until: { kind: 'date', date } };
  const t = m[2];
  const wall = `${date}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}`;
  if (m[3]) return { rest, until: { kind: 'utc', ms: Date.parse(`${wall}Z`) } };
  return { rest, until: { kind: 'wall', wall } };
}

/**
 * Whether a start lies past UNTIL. A UTC UNTIL bounds instants; a floating one the wall clock; a
 * date (or any UNTIL of an all-day series) bounds the start date, that day included.
 */
function beyond(until: Until, c: Candidate, allDay: boolean): boolean {
  const date = c.wall.slice(0, 10);
  const untilDate =
    until.kind === 'date'
      ? until.date
      : until.kind === 'utc'
        ? new Date(until.ms).toISOString().slice(0, 10)
        : until.wall.slice(0, 10);
  if (allDay || until.kind === 'date') return date > untilDate;
  if (until.kind === 'utc') return c.ms > until.ms;
  return c.wall > until.wall;
}

function timeOf(r: FeedRecurrence): ICAL.Time {
  if (!r.tz) {
    const p = parseCalendarDate(r.start)!;
    return new ICAL.Time({ year: p.year, month: p.month, day: p.day, isDate: true });
  }
  const w = parseWall(r.start);
  const p = parseCalendarDate(w.date)!;
  return new ICAL.Time({
    year: p.year,
    month: p.month,
    day: p.day,
    hour: Math.floor(w.seconds / 3600),
    minute: Math.floor((w.seconds % 3600) / 60),
    second: w.seconds % 60,
    isDate: false,
  });
}

function wallOf(t: ICAL.Time, allDay: boolean): string | null {
  if (t.year < 1 || t.year > 9999) return null;
  const date = `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
  if (!parseCalendarDate(date)) return null;
  return allDay ? date : formatWall(date, t.hour * 3600 + t.minute * 60 + t.second);
}

function candidate(r: FeedRecurrence, wall: string): Candidate {
  if (!r.tz) return { wall, ms: toDayNumber(wall) * 86_400_000 };
  const w = parseWall(wall);
  return { wall, ms: wallToMs(w.date, w.seconds, r.tz) };
}

/** The rule's own starts, in order (DTSTART only when the rule produces it). */
function* ruleCandidates(r: FeedRecurrence): Generator<Candidate> {
  if (!r.rrule) return;
  const allDay = !r.tz;
  const { rest, until } = splitUntil(r.rrule);
  let recur: ICAL.Recur;
  let it: ICAL.RecurIterator;
  try {
    recur = ICAL.Recur.fromString(rest);
    const start = timeOf(r);
    it = guarded(() => recur.iterator(start));
  } catch {
    return; // a rule ical.js cannot read: the event keeps DTSTART and its RDATEs
  }
  // Without BY… parts a monthly or yearly rule repeats DTSTART's day (and month) only.
  const plain = !Object.keys(recur.parts ?? {}).some((k) => k.startsWith('BY'));
  const startDay = r.start.slice(8, 10);
  const startMonthDay = r.start.slice(5, 10);
  let lastDate = '';
  for (let n = 0; n < MAX_CANDIDATES; n++) {
    let t: ICAL.Time | null;
    try {
      t = guarded(() => it.next());
    } catch {
      return;
    }
    if (!t) return;
    const wall = wallOf(t, allDay);
    if (wall === null) return;
    if (plain && recur.freq === 'MONTHLY' && wall.slice(8, 10) !== startDay) continue;
    if (plain && recur.freq === 'YEARLY' && wall.slice(5, 10) !== startMonthDay) continue;
    // Sub-daily rules: only a day's first start can be an occurrence; skip the rest before any zone
    // math.
    if (wall.slice(0, 10) === lastDate) continue;
    lastDate = wall.slice(0, 10);
    const c = candidate(r, wall);
    if (until && beyond(until, c, allDay)) return;
    yield c;
  }
}

// ---- the expansion --------------------------------------------------------------------------

class Expansion {
  readonly list: FeedOccurrence[] = [];
  private done = false;
  private readonly rule: Generator<Candidate>;
  private ruleNext: Candidate | null | undefined;
  /** DTSTART and RDATEs, sorted; merged with the rule's starts. */
  private readonly extras: Candidate[];
  private lastMs = -Infinity;

  constructor(private readonly r: FeedRecurrence) {
    this.rule = ruleCandidates(r);
    const walls = [r.start, ...(r.rdates ?? [])];
    this.extras = walls.map((w) => candidate(r, w)).sort((a, b) => a.ms - b.ms);
  }

  /** Appends the next occurrence; false when the series has no more. */
  more(): boolean {
    for (let guard = 0; guard < MAX_CANDIDATES && !this.done; guard++) {
      if (this.ruleNext === undefined) {
        const n = this.rule.next();
        this.ruleNext = n.done ? null : n.value;
      }
      const extra = this.extras[0];
      let c: Candidate;
      if (this.ruleNext && (!extra || this.ruleNext.ms <= extra.ms)) {
        c = this.ruleNext;
        this.ruleNext = undefined;
      } else if (extra) {
        c = this.extras.shift()!;
      } else {
        this.done = true;
        return false;
      }
      if (c.ms <= this.lastMs) continue; // the same start twice (an RDATE on a rule date)
      this.lastMs = c.ms;
      const o = this.occurrence(c);
      const last = this.list[this.list.length - 1];
      if (last && last.date >= o.date) continue; // one occurrence per local date
      this.list.push(o);
      return true;
    }
    this.done = true;
    return false;
  }

  /** Computes occurrences until one starts after `date` (or the series ends). */
  ensure(date: string): void {
    while (!this.done) {
      const last = this.list[this.list.length - 1];
      if (last && last.date > date) return;
      if (!this.more()) return;
    }
  }

  private occurrence(c: Candidate): FeedOccurrence {
    const r = this.r;
    if (!r.tz) {
      const days = Math.max(1, r.days ?? 1);
      return { wall: c.wall, date: c.wall, endDate: addDays(c.wall, days - 1) };
    }
    const s = msToLocal(c.ms, r.zone);
    const e = msToLocal(c.ms + Math.max(0, r.durationSec ?? 0) * 1000, r.zone);
    return { wall: c.wall, date: s.date, time: s.time, endDate: e.date, endTime: e.time };
  }
}

const cache = new WeakMap<FeedRecurrence, Expansion>();

function expansion(r: FeedRecurrence): Expansion {
  let x = cache.get(r);
  if (!x) cache.set(r, (x = new Expansion(r)));
  return x;
}

/** How many days an occurrence may reach beyond its start date (local). */
export function spanDaysOf(r: FeedRecurrence): number {
  if (!r.tz) return Math.max(1, r.days ?? 1) - 1;
  return Math.ceil(Math.max(0, r.durationSec ?? 0) / 86_400) + 1;
}

function lowerBound(list: readonly FeedOccurrence[], date: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Occurrences whose span overlaps the inclusive window of local dates, in order, lazily.
 * Without `to` the walk goes on as long as the caller takes occurrences.
 */
export function* feedOccurrences(
  r: FeedRecurrence,
  window: { from?: string; to?: string } = {},
): Generator<FeedOccurrence> {
  const x = expansion(r);
  let i = 0;
  if (window.from) {
    const lo = fromDayNumber(toDayNumber(window.from) - spanDaysOf(r));
    x.ensure(lo);
    i = lowerBound(x.list, lo);
  }
  for (;;) {
    if (i >= x.list.length && !x.more()) return;
    const o = x.list[i++];
    if (window.to && o.date > window.to) return;
    if (window.from && o.endDate < window.from) continue;
    yield o;
  }
}

/** The occurrence that starts on local date `date`, if any. */
export function feedOccurrenceOn(r: FeedRecurrence, date: string): FeedOccurrence | undefined {
  const x = expansion(r);
  x.ensure(date);
  const o = x.list[lowerBound(x.list, date)];
  return o && o.date === date ? o : undefined;
}

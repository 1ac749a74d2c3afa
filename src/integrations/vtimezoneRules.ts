/**
 * A client's own VTIMEZONE read on a budget: the UTC offsets it gives within a few years,
 * without ical.js's `Timezone`, which expands every observance from its DTSTART to five years
 * from now on the caller's thread (60 STANDARD observances from 1900 repeating monthly held the
 * event loop 20 s; daily, 150 s and 3.2 GB).
 *
 * Only what calendar programs write is read, and only within the years asked for: STANDARD and
 * DAYLIGHT observances with a DTSTART, TZOFFSETFROM and TZOFFSETTO, RDATE lists, and a yearly
 * RRULE by month and day (`FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU`, `BYMONTHDAY=8,…,14;BYDAY=SU`, or
 * none: the DTSTART's month and day), with INTERVAL, UNTIL and COUNT. The onsets of one year are
 * computed directly, never by walking from the DTSTART, so a rule from 1900 costs what one from
 * last year does. Anything else (another frequency, BYSETPOS, BYHOUR, …), more than
 * VTIMEZONE_LIMITS.observances observances or more than VTIMEZONE_LIMITS.transitions onsets in
 * the years read is refused with a ZoneLimitError naming the limit (docs/caldav.md, "Limits").
 */
import type ICAL from 'ical.js';
import { dayNumberOf } from '../domain/shared/time.js';

export const VTIMEZONE_LIMITS = {
  /** STANDARD and DAYLIGHT components of one VTIMEZONE (tzurl's longest histories have ~100). */
  observances: 200,
  /** Onsets (rule dates and RDATEs) within the years read, over all observances. */
  transitions: 2_000,
} as const;

/** A VTIMEZONE beyond what this server reads; the message names the limit. */
export class ZoneLimitError extends Error {
  override readonly name = 'ZoneLimitError';
}

interface Wall {
  y: number;
  m: number;
  d: number;
  /** Seconds into the day. */
  s: number;
}

interface YearlyRule {
  interval: number;
  months: number[] | null;
  /** Weekdays with an ordinal (0 = any in the month): [ordinal, weekday 0=SU]. */
  days: [number, number][] | null;
  monthDays: number[] | null;
  /** Last onset allowed, UTC seconds (UNTIL). */
  until: number | null;
  count: number | null;
}

interface Observance {
  start: Wall;
  from: number;
  to: number;
  rdates: Wall[];
  rule: YearlyRule | null;
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z)?)?$/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})(?::?(\d{2}))?$/;
const RULE_PARTS = new Set([
  'freq',
  'interval',
  'bymonth',
  'byday',
  'bymonthday',
  'until',
  'count',
  'wkst',
]);

function refuse(why: string): never {
  throw new ZoneLimitError(`The VTIMEZONE ${why}`.slice(0, 300));
}

function wallOf(v: unknown): Wall & { utc: boolean } {
  const m = typeof v === 'string' ? DATE_TIME.exec(v) : null;
  if (!m) refuse(`has a date this server cannot read: ${JSON.stringify(String(v)).slice(0, 40)}`);
  const s = m[4] === undefined ? 0 : Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]);
  return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]), s, utc: m[7] === 'Z' };
}

const secondsOf = (w: Wall) => dayNumberOf(w.y, w.m, w.d) * 86_400 + w.s;

function offsetOf(v: unknown): number {
  const m = typeof v === 'string' ? OFFSET.exec(v) : null;
  if (!m) refuse('has an observance without a readable TZOFFSETFROM or TZOFFSETTO');
  const s = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -s : s;
}

const list = <T>(v: unknown, read: (x: unknown) => T): T[] | null =>
  v === undefined ? null : (Array.isArray(v) ? v : [v]).map(read);

function ruleOf(value: unknown, from: number): YearlyRule {
  const r = (value ?? {}) as Record<string, unknown>;
  const extra = Object.keys(r).find((k) => !RULE_PARTS.has(k));
  if (r.freq !== 'YEARLY' || extra)
    refuse(
      `has a rule this server does not read (${extra ? extra.toUpperCase() : `FREQ=${String(r.freq)}`}): observances repeat yearly by month and day (FREQ=YEARLY;BYMONTH=…;BYDAY=…), as calendar programs write them`,
    );
  const int = (x: unknown, lo: number, hi: number) => {
    const n = Number(x);
    if (!Number.isInteger(n) || n < lo || n > hi) refuse('has a rule with a value out of range');
    return n;
  };
  const days = list(r.byday, (x) => {
    const m = /^([+-]?[1-5])?(SU|MO|TU|WE|TH|FR|SA)$/.exec(String(x));
    if (!m) refuse('has a rule with a BYDAY this server does not read');
    return [m[1] ? Number(m[1]) : 0, WEEKDAYS.indexOf(m[2])] as [number, number];
  });
  let until: number | null = null;
  if (r.until !== undefined) {
    const w = wallOf(r.until);
    // A local UNTIL is on the clock the observance starts from.
    until = secondsOf(w) - (w.utc ? 0 : from);
  }
  return {
    interval: r.interval === undefined ? 1 : int(r.interval, 1, 1000),
    months: list(r.bymonth, (x) => int(x, 1, 12)),
    days,
    monthDays: list(r.bymonthday, (x) => int(x, -31, 31)),
    until,
    count: r.count === undefined ? null : int(r.count, 1, 100_000),
  };
}

function prop(c: ICAL.JCalComponent, name: string): ICAL.JCalProperty | undefined {
  return c[1].find((p) => p[0] === name);
}

function observanceOf(c: ICAL.JCalComponent): Observance {
  const dtstart = prop(c, 'dtstart');
  if (!dtstart) refuse('has an observance without DTSTART');
  const from = offsetOf(prop(c, 'tzoffsetfrom')?.[3]);
  const rules = c[1].filter((p) => p[0] === 'rrule');
  if (rules.length > 1) refuse('has an observance with more than one RRULE');
  const rdates: Wall[] = [];
  for (const p of c[1].filter((x) => x[0] === 'rdate'))
    for (const v of p.slice(3)) {
      if (rdates.length >= VTIMEZONE_LIMITS.transitions)
        refuse(`lists more than ${VTIMEZONE_LIMITS.transitions} RDATE values`);
      rdates.push(wallOf(typeof v === 'string' ? v : (v as { start?: unknown }).start));
    }
  return {
    start: wallOf(dtstart[3]),
    from,
    to: offsetOf(prop(c, 'tzoffsetto')?.[3]),
    rdates,
    rule: rules[0] ? ruleOf(rules[0][3], from) : null,
  };
}

/** Days of month `m` of year `y` that the rule names (none when it names none there). */
function ruleDays(rule: YearlyRule, y: number, m: number, startDay: number): number[] {
  const length = dayNumberOf(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) - dayNumberOf(y, m, 1);
  const weekdayOf = (d: number) => (((dayNumberOf(y, m, d) + 4) % 7) + 7) % 7; // 1970-01-01: TH
  const inMonth = (d: number) => (d < 0 ? length + 1 + d : d);
  let candidates = rule.monthDays
    ? rule.monthDays.map(inMonth).filter((d) => d >= 1 && d <= length)
    : null;
  if (rule.days) {
    const out: number[] = [];
    for (const [n, wd] of rule.days) {
      const all: number[] = [];
      for (let d = 1; d <= length; d++) if (weekdayOf(d) === wd) all.push(d);
      if (n === 0) out.push(...all.filter((d) => !candidates || candidates.includes(d)));
      else {
        const d = n > 0 ? all[n - 1] : all[all.length + n];
        if (d !== undefined && (!candidates || candidates.includes(d))) out.push(d);
      }
    }
    candidates = out;
  }
  return (candidates ?? (startDay <= length ? [startDay] : [])).sort((a, b) => a - b);
}

/** Onsets computed for one VTIMEZONE so far (every one counts, used or not). */
interface Budget {
  left: number;
  years: [number, number];
}

function spend(b: Budget, n: number): void {
  if ((b.left -= n) < 0)
    refuse(
      `changes its offset more than ${VTIMEZONE_LIMITS.transitions} times in the years ${b.years[0] - 1}–${b.years[1]}, the most this server reads`,
    );
}

/** Onsets of one observance in year `y` (local wall times on its TZOFFSETFROM clock). */
function onsetsIn(o: Observance, y: number, b: Budget): Wall[] {
  const out = o.rdates.filter((w) => w.y === y);
  if (o.start.y === y) out.push(o.start);
  const rule = o.rule;
  if (!rule || y < o.start.y || (y - o.start.y) % rule.interval !== 0) return out;
  const startAt = secondsOf(o.start);
  const inYear = (yy: number) =>
    (rule.months ?? [o.start.m]).flatMap((m) => {
      const days = ruleDays(rule, yy, m, o.start.d);
      spend(b, days.length);
      return days.map((d) => ({ y: yy, m, d, s: o.start.s }));
    });
  let before = 0;
  if (rule.count !== null) {
    // Onsets in the years before: each rule year gives as many as this one's shape, save those
    // before the DTSTART in its own year (the DTSTART is the first onset).
    const perYear = inYear(y).length;
    const years = (y - o.start.y) / rule.interval;
    const early = inYear(o.start.y).filter((w) => secondsOf(w) < startAt).length;
    before = years * perYear - early;
  }
  for (const w of inYear(y)) {
    const at = secondsOf(w);
    if (at < startAt || (at === startAt && out.includes(o.start))) continue;
    if (rule.until !== null && at - o.from > rule.until) continue;
    if (rule.count !== null && ++before > rule.count) continue;
    out.push(w);
  }
  return out;
}

/**
 * The latest onset of an observance in a year before `y0`: its DTSTART, an RDATE, or its rule's
 * last year (at its UNTIL or COUNT, or the year before `y0`), looked for in a few years only.
 */
function lastBefore(o: Observance, y0: number, b: Budget): Wall | null {
  let best: Wall | null = o.start.y < y0 ? o.start : null;
  const later = (w: Wall) => {
    if (w.y < y0 && (!best || secondsOf(w) > secondsOf(best))) best = w;
  };
  o.rdates.forEach(later);
  const rule = o.rule;
  if (!rule) return best;
  let top = y0 - 1;
  if (rule.until !== null)
    top = Math.min(top, Math.floor((rule.until + o.from) / 31_556_952) + 1970 + 1);
  if (rule.count !== null) top = Math.min(top, o.start.y + (rule.count + 1) * rule.interval);
  // The rule's years are those a whole number of intervals after the DTSTART's.
  top -= (((top - o.start.y) % rule.interval) + rule.interval) % rule.interval;
  for (let y = top; y >= Math.max(o.start.y, top - 4 * rule.interval); y -= rule.interval) {
    const ons = onsetsIn(o, y, b);
    if (ons.length) {
      ons.forEach(later);
      break;
    }
  }
  return best;
}

/**
 * The VTIMEZONE's offset (seconds east of UTC) at each of `instants` (UTC seconds, all within
 * `years`). Throws ZoneLimitError past a limit or on a rule it does not read.
 */
export function vtimezoneOffsets(
  vtimezone: ICAL.JCalComponent,
  years: [number, number],
  instants: number[],
): number[] {
  const comps = vtimezone[2].filter((c) => c[0] === 'standard' || c[0] === 'daylight');
  if (comps.length > VTIMEZONE_LIMITS.observances)
    refuse(
      `has more than ${VTIMEZONE_LIMITS.observances} STANDARD and DAYLIGHT observances, the most this server reads`,
    );
  if (!comps.length) refuse('has no STANDARD or DAYLIGHT observance');
  const observances = comps.map(observanceOf);
  const budget: Budget = { left: VTIMEZONE_LIMITS.transitions, years };
  spend(
    budget,
    observances.reduce((n, o) => n + o.rdates.length, 0),
  );
  const onsets: { at: number; to: number }[] = [];
  for (const o of observances) {
    // The offset in force when the years start, then every change within them.
    const prior = lastBefore(o, years[0], budget);
    if (prior) onsets.push({ at: secondsOf(prior) - o.from, to: o.to });
    for (let y = years[0]; y <= years[1]; y++)
      for (const w of onsetsIn(o, y, budget)) onsets.push({ at: secondsOf(w) - o.from, to: o.to });
  }
  onsets.sort((a, b) => a.at - b.at);
  // Before any onset: the earliest observance's TZOFFSETFROM (as ical.js reads it).
  const earliest = observances.reduce((a, b) => (secondsOf(b.start) < secondsOf(a.start) ? b : a));
  return instants.map((t) => {
    let offset = earliest.from;
    for (const o of onsets) {
      if (o.at > t) break;
      offset = o.to;
    }
    return offset;
  });
}

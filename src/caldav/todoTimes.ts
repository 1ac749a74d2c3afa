/**
 * When a to-do happens, for time-range filters and `expand` (RFC 4791 §9.9): the instances of a
 * served VTODO object — one, or one per start of its repeat rule (RRULE and RDATE from DTSTART,
 * less EXDATEs, changed occurrences in their own place) — each with its DTSTART, DUE, DURATION
 * and COMPLETED as instants, and whether it overlaps a range by the RFC's table for VTODO.
 *
 * The household does not advance repeating to-dos (docs/caldav.md, "To-dos"); a client's rule is
 * kept as sent, and read here with the same rule walk the calendar feeds use
 * (src/domain/feeds/expand.ts: bounded, lazy, remembered per rule).
 *
 * A DUE written as a date is due by the end of that day (a to-do due on the 10th is in a query
 * for the 10th), a DTSTART written as one starts with it.
 *
 * One decision the RFC leaves open: CREATED is not used. The server writes it (the entry's own
 * creation), so by the RFC a to-do without DTSTART, DUE or COMPLETED made today would match no
 * range in the past, while RFC 5545 §3.6.2 says such a to-do belongs to every day until it is
 * done: it matches every range, as clients (python-caldav's suite among them) expect.
 */
import { feedOccurrences } from '../domain/feeds/expand.js';
import type { FeedRecurrence } from '../domain/feeds/types.js';
import { wallToMs } from '../domain/feeds/wall.js';
import { instantToLocal, localInstantMs } from '../domain/shared/time.js';
import { durationSeconds } from './icalRead.js';
import { dayEnd, instantsOf, zonesOf, type ZoneOf } from './icalTimes.js';
import { firstProp, param, type IcalComp, type IcalProp } from './icalTree.js';
import type { Range } from './occurrences.js';

export interface TodoInstance {
  /** The component the instance's own properties come from (the to-do, or a changed occurrence). */
  comp: IcalComp;
  start?: number;
  due?: number;
  durationMs?: number;
  completed?: number;
  /** The original start of an instance of a repeating to-do (its RECURRENCE-ID). */
  recurrence?: { ms: number; date: boolean };
}

/** The to-do's time-range test (RFC 4791 §9.9, the VTODO table; CREATED left out, see above). */
export function instanceOverlaps(i: TodoInstance, r: Range): boolean {
  const { start, due, durationMs, completed } = i;
  if (start !== undefined && durationMs !== undefined)
    return r.start <= start + durationMs && (r.end > start || r.end >= start + durationMs);
  if (start !== undefined && due !== undefined)
    return (r.start < due || r.start <= start) && (r.end > start || r.end >= due);
  if (start !== undefined) return r.start <= start && r.end > start;
  if (due !== undefined) return r.start < due && r.end >= due;
  if (completed !== undefined) return r.start <= completed && r.end >= completed;
  return true;
}

/** The instant of a DATE/DATE-TIME property's first value, or undefined. */
function at(p: IcalProp | undefined, tz: string, zone: ZoneOf): number | undefined {
  return p ? instantsOf(p, tz, zone)[0]?.ms : undefined;
}

/** A DUE written as a date is due by the end of that day, on the family's clock. */
function dueAt(p: IcalProp | undefined, tz: string, zone: ZoneOf): number | undefined {
  const i = p ? instantsOf(p, tz, zone)[0] : undefined;
  if (!i) return undefined;
  return i.date ? (dayEnd(p!.value, tz) ?? i.ms) : i.ms;
}

/** One component's own times. */
function ownTimes(comp: IcalComp, tz: string, zone: ZoneOf): Omit<TodoInstance, 'recurrence'> {
  const start = at(firstProp(comp, 'DTSTART'), tz, zone);
  const due = dueAt(firstProp(comp, 'DUE'), tz, zone);
  const duration = durationSeconds(firstProp(comp, 'DURATION')?.value);
  const completed = at(firstProp(comp, 'COMPLETED'), tz, zone);
  return {
    comp,
    ...(start !== undefined ? { start } : {}),
    ...(due !== undefined ? { due } : {}),
    ...(duration !== null && start !== undefined ? { durationMs: duration * 1000 } : {}),
    ...(completed !== undefined ? { completed } : {}),
  };
}

/** What a repeating to-do is made of, read once per served object. */
interface Series {
  master?: IcalComp;
  own?: Omit<TodoInstance, 'recurrence'>;
  rule?: FeedRecurrence;
  excluded: Set<number>;
  /** Changed occurrences by their RECURRENCE-ID's instant. */
  changed: Map<number, IcalComp>;
}

const series = new WeakMap<IcalComp, Series>();

/** DTSTART as the rule walk takes it: a wall clock in a zone, or a date. */
function ruleOf(
  master: IcalComp,
  own: Omit<TodoInstance, 'recurrence'>,
  tz: string,
  zone: ZoneOf,
): FeedRecurrence | undefined {
  const dtstart = firstProp(master, 'DTSTART');
  const rrule = firstProp(master, 'RRULE')?.value;
  const rdates = master.props.filter((p) => p.name === 'RDATE');
  if (!dtstart || own.start === undefined || (!rrule && !rdates.length)) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(dtstart.value.trim());
  if (!m) return undefined;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  const tzid = param(dtstart, 'TZID');
  const ruleTz = m[7] ? 'UTC' : ((tzid ? zone(tzid) : null) ?? tz);
  const span = Math.max(0, (own.due ?? own.start) - own.start, own.durationMs ?? 0);
  const wallOf = (ms: number) => {
    const l = instantToLocal(new Date(ms), ruleTz);
    return m[4] === undefined
      ? l.date
      : `${l.date}T${l.time}:${String(new Date(ms).getUTCSeconds()).padStart(2, '0')}`;
  };
  return {
    start: m[4] === undefined ? date : `${date}T${m[4]}:${m[5]}:${m[6]}`,
    ...(m[4] === undefined
      ? { days: Math.max(1, Math.ceil(span / 86_400_000)) }
      : { tz: ruleTz, durationSec: Math.round(span / 1000) }),
    ...(rrule ? { rrule } : {}),
    rdates: rdates.flatMap((p) => instantsOf(p, tz, zone).map((i) => wallOf(i.ms))),
    zone: tz,
  };
}

function seriesOf(root: IcalComp, tz: string, now: Date): Series {
  let s = series.get(root);
  if (s) return s;
  const zone = zonesOf(root, now);
  const todos = root.comps.flatMap((cal) => cal.comps.filter((c) => c.name === 'VTODO'));
  const master = todos.find((c) => !firstProp(c, 'RECURRENCE-ID'));
  s = { excluded: new Set(), changed: new Map() };
  if (master) {
    s.master = master;
    s.own = ownTimes(master, tz, zone);
    s.rule = ruleOf(master, s.own, tz, zone);
    for (const p of master.props.filter((x) => x.name === 'EXDATE'))
      for (const i of instantsOf(p, tz, zone)) s.excluded.add(i.ms);
  }
  for (const c of todos) {
    const id = at(firstProp(c, 'RECURRENCE-ID'), tz, zone);
    if (id !== undefined) s.changed.set(id, c);
  }
  series.set(root, s);
  return s;
}

/** The instant of a rule's start (a wall clock in its zone, or a date on the family's clock). */
function startOf(rule: FeedRecurrence, wall: string, tz: string): number {
  if (!rule.tz) return localInstantMs(wall, '00:00', tz);
  const [date, time] = wall.split('T');
  const [h, mi, sec] = time.split(':').map(Number);
  return wallToMs(date, h * 3600 + mi * 60 + sec, rule.tz);
}

/**
 * The instances of a served VTODO object that overlap `r`, lazily: a to-do that does not repeat
 * is one instance; a repeating one gives the rule's starts in the range's dates (shifted DUE and
 * COMPLETED with them), less EXDATEs, with changed occurrences in their own place.
 */
export function* todoInstances(
  root: IcalComp,
  tz: string,
  now: Date,
  r: Range,
): Generator<TodoInstance> {
  const s = seriesOf(root, tz, now);
  const zone = zonesOf(root, now);
  for (const [ms, c] of s.changed) {
    const i: TodoInstance = { ...ownTimes(c, tz, zone), recurrence: { ms, date: false } };
    if (instanceOverlaps(i, r)) yield i;
  }
  if (!s.own) return;
  if (!s.rule) {
    if (instanceOverlaps(s.own, r)) yield s.own;
    return;
  }
  const own = s.own;
  const base = own.start!;
  const clamp = (ms: number) => Math.min(Math.max(ms, Date.UTC(1899, 0, 1)), Date.UTC(2201, 0, 1));
  const window = {
    ...(r.start > -8e15 ? { from: instantToLocal(new Date(clamp(r.start)), tz).date } : {}),
    ...(r.end < 8e15 ? { to: instantToLocal(new Date(clamp(r.end)), tz).date } : {}),
  };
  for (const o of feedOccurrences(s.rule, window)) {
    const start = startOf(s.rule, o.wall, tz);
    if (s.excluded.has(start) || s.changed.has(start)) continue;
    const shift = start - base;
    const i: TodoInstance = {
      ...own,
      start,
      ...(own.due !== undefined ? { due: own.due + shift } : {}),
      recurrence: { ms: start, date: !s.rule.tz },
    };
    if (instanceOverlaps(i, r)) yield i;
  }
}

/** Whether any instance of the to-do overlaps `r`. */
export function todoOverlaps(root: IcalComp, tz: string, now: Date, r: Range): boolean {
  return !todoInstances(root, tz, now, r).next().done;
}

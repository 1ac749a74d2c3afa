/**
 * Occurrence starts of any event: the household's own repeat fields (recurrence.ts), or the
 * feed's own rule of a repeating external-feed event (feeds/expand.ts, expanded at query time).
 * Listing, occurrence edits and the share feed ask here, so both kinds behave alike.
 */
import { feedOccurrenceOn, feedOccurrences } from '../feeds/expand.js';
import type { EntryStatus } from '../collections/types.js';
import { addDays, instantToLocal, localInstantMs } from '../shared/time.js';
import { resolveTimeZone } from '../shared/zones.js';
import {
  isOccurrenceStart,
  occurrenceStarts,
  spanDays,
  type OccurrenceWindow,
} from './recurrence.js';
import type { EventData, EventRecord, OccurrenceException } from './types.js';

/** Start dates of the occurrences overlapping the window, ascending, lazily. */
export function* seriesStarts(ev: EventRecord, window: OccurrenceWindow = {}): Generator<string> {
  const recur = ev.feed?.recur;
  if (!recur) {
    yield* occurrenceStarts(ev.data, window);
    return;
  }
  for (const o of feedOccurrences(recur, window)) yield o.date;
}

/** Whether `date` starts one of the event's occurrences. */
export function isSeriesStart(ev: EventRecord, date: string): boolean {
  const recur = ev.feed?.recur;
  return recur ? feedOccurrenceOn(recur, date) !== undefined : isOccurrenceStart(ev.data, date);
}

/**
 * The timing fields of a feed series' occurrence on `date` (in the family's zone) over the
 * series' other fields, or undefined when the event is not a feed series or has no such date.
 */
export function feedOccurrenceData(ev: EventRecord, date: string): EventData | undefined {
  const recur = ev.feed?.recur;
  if (!recur) return undefined;
  const o = feedOccurrenceOn(recur, date);
  if (!o) return undefined;
  const { date: _d, endDate: _e, time: _t, endTime: _et, allDay: _a, ...rest } = ev.data;
  return {
    ...rest,
    date: o.date,
    ...(o.endDate > o.date ? { endDate: o.endDate } : {}),
    ...(o.time !== undefined ? { time: o.time, endTime: o.endTime } : { allDay: true }),
  };
}

/**
 * The data of the occurrence that originally starts on `occurrenceDate`: the series' fields
 * moved to that date (keeping a multi-day length), then the occurrence's own changes on top.
 */
export function occurrenceData(
  ev: EventRecord,
  occurrenceDate: string,
  x: OccurrenceException | undefined = ev.exceptions?.[occurrenceDate],
): EventData {
  const span = spanDays(ev.data);
  // A feed's series computes each occurrence's timing (its own zone, its own length).
  const fromFeed = feedOccurrenceData(ev, occurrenceDate);
  const d: Record<string, unknown> = fromFeed
    ? { ...fromFeed }
    : { ...ev.data, date: occurrenceDate };
  if (!fromFeed && span > 0) d.endDate = addDays(occurrenceDate, span);
  for (const [k, v] of Object.entries(x?.data ?? {})) {
    if (v === null) delete d[k];
    else d[k] = v;
  }
  if (x?.data && 'date' in x.data && !('endDate' in x.data) && span > 0)
    d.endDate = addDays(d.date as string, span);
  return d as EventData;
}

// ---- zones and instants ---------------------------------------------------------------------
//
// An event's dates and times are written in its own zone (`timeZone`, absent = the family's),
// and REST shows them as written. Everything that needs the true moment of an occurrence
// (startsAt, excludeEnded, reminders, leave-by, coverage, checks, CalDAV time ranges, the share
// feed) asks here, and whatever shows an occurrence to the household (display, notification
// texts, plans, context) reads it on the family's clock through onFamilyClock.

/** What the zone functions read of event or occurrence data (stored, or as a view shows it). */
export interface Timing {
  date: string;
  time?: string | null;
  endDate?: string | null;
  endTime?: string | null;
  allDay?: boolean | null;
  durationMinutes?: number | null;
  timeZone?: string | null;
}

/** Stored zone names → the zone they name (null: none), remembered; there are few of them. */
const knownZones = new Map<string, string | null>();

/**
 * The zone an event's (or occurrence's) dates and times are written in: its `timeZone`, else
 * the family's. A stored name that names no zone (a custom data key of that name from before the
 * field existed, a hand-edited import) reads as the family's rather than failing every read.
 */
export function zoneOf(d: { timeZone?: string | null }, familyTz: string): string {
  const name = d.timeZone;
  if (!name) return familyTz;
  let zone = knownZones.get(name);
  if (zone === undefined) {
    if (knownZones.size >= 1000) knownZones.clear();
    zone = resolveTimeZone(name);
    knownZones.set(name, zone);
  }
  return zone ?? familyTz;
}

function allDayOf(d: Timing): boolean {
  return d.allDay === true || !d.time;
}

/**
 * The instant (epoch ms) an occurrence starts: its date and time in its zone; an all-day one at
 * the start (00:00) of its first day in its zone.
 */
export function startMs(d: Timing, familyTz: string): number {
  return localInstantMs(d.date, allDayOf(d) ? '00:00' : d.time!, zoneOf(d, familyTz));
}

/** startMs as the wire's ISO 8601 UTC instant (`startsAt`). */
export function startsAtOf(d: Timing, familyTz: string): string {
  return new Date(startMs(d, familyTz)).toISOString();
}

/**
 * The instant (epoch ms) an occurrence is over: its endDate/endTime, else start +
 * durationMinutes, else start + 60 minutes, else (no time) the end of its last day — in its
 * zone. A timed event with a later endDate but no endTime ends with that day.
 */
export function endMs(d: Timing, familyTz: string): number {
  const tz = zoneOf(d, familyTz);
  if (allDayOf(d)) return localInstantMs(addDays(d.endDate ?? d.date, 1), '00:00', tz);
  if (d.endTime) return localInstantMs(d.endDate ?? d.date, d.endTime, tz);
  if (d.endDate && d.endDate > d.date) return localInstantMs(addDays(d.endDate, 1), '00:00', tz);
  return localInstantMs(d.date, d.time!, tz) + (d.durationMinutes ?? 60) * 60_000;
}

/** An occurrence on the family's clock: the dates and times the household sees it at. */
export interface FamilyClock {
  date: string;
  /** `HH:mm` on the family's clock; null all day. */
  time: string | null;
  /** Inclusive last day (equals `date` for a one-day occurrence). */
  endDate: string;
  endTime: string | null;
  allDay: boolean;
}

/**
 * Where an occurrence falls on the family's clock (a 09:00 New York event is 15:00 for a Berlin
 * family). Events in the family's zone, and all-day events (a date is the same date everywhere),
 * are read as written. A timed event in another zone is moved by its instants: its start, and
 * its end when it states one (endTime, or a later endDate); without one it keeps to its start's
 * day, as a family-zone event without an end does.
 */
export function onFamilyClock(d: Timing, familyTz: string): FamilyClock {
  const allDay = allDayOf(d);
  const zone = zoneOf(d, familyTz);
  if (allDay || zone === familyTz) {
    return {
      date: d.date,
      time: allDay ? null : d.time!,
      endDate: d.endDate ?? d.date,
      endTime: allDay ? null : (d.endTime ?? null),
      allDay,
    };
  }
  const s = instantToLocal(new Date(localInstantMs(d.date, d.time!, zone)), familyTz);
  const out: FamilyClock = { date: s.date, time: s.time, endDate: s.date, endTime: null, allDay };
  if (d.endTime) {
    const e = instantToLocal(new Date(endMs(d, familyTz)), familyTz);
    out.endDate = e.date < s.date ? s.date : e.date;
    out.endTime = e.time;
  } else if (d.endDate && d.endDate > d.date) {
    // Ends with its last day in its own zone: the last minute before that, on the family's clock.
    out.endDate = instantToLocal(new Date(endMs(d, familyTz) - 60_000), familyTz).date;
  }
  return out;
}

// ---- occurrences in a span of instants ------------------------------------------------------

/** An occurrence placed in time. */
export interface TimedOccurrence {
  /** The occurrence's original start date, in the event's zone (its key among the exceptions). */
  date: string;
  /** The series' fields on that date with the occurrence's own changes (occurrenceData). */
  data: EventData;
  title: string;
  status: EntryStatus;
  /** startMs and endMs of `data`. */
  start: number;
  end: number;
}

/** A span of instants (epoch ms), end exclusive; open ends are ±8.64e15. */
export interface InstantRange {
  start: number;
  end: number;
}

/** The local dates a range touches, per zone, remembered per range object. */
const rangeDates = new WeakMap<InstantRange, Map<string, { from: string; to: string }>>();

function localDatesOf(r: InstantRange, tz: string): { from: string; to: string } {
  let byZone = rangeDates.get(r);
  if (!byZone) rangeDates.set(r, (byZone = new Map<string, { from: string; to: string }>()));
  let dates = byZone.get(tz);
  if (!dates) {
    // Clamped to the years events may have, so an open end stays a date.
    const clamp = (ms: number) =>
      Math.min(Math.max(ms, Date.UTC(1899, 0, 1)), Date.UTC(2201, 0, 1));
    dates = {
      from: instantToLocal(new Date(clamp(r.start)), tz).date,
      to: instantToLocal(new Date(clamp(r.end)), tz).date,
    };
    byZone.set(tz, dates);
  }
  return dates;
}

/**
 * The occurrences of `ev` that overlap the instants of `r` (removed ones left out, moved ones
 * where they now are), in start order, lazily: the one expansion by instants, for CalDAV time
 * ranges and whatever indexes occurrences. A caller with a budget stops when it is spent, so a
 * daily series over a century costs what the caller may take, not 36,500 occurrences. A
 * zero-length occurrence overlaps when it starts inside the range (RFC 4791 §9.9).
 *
 * The series' own dates come from its rule over the local dates (in the event's zone) the range
 * touches, a day earlier for occurrences that run past midnight; each date holds one occurrence
 * on that date, so they come in start order. Moved occurrences may land anywhere: they are
 * looked at first (as many as the record holds), sorted, and merged in.
 */
export function* occurrencesFrom(
  ev: EventRecord,
  familyTz: string,
  r: InstantRange,
): Generator<TimedOccurrence> {
  const { from, to } = localDatesOf(r, zoneOf(ev.data, familyTz));
  const at = (date: string, x: OccurrenceException | undefined): TimedOccurrence | null => {
    const data = occurrenceData(ev, date, x);
    if (data.date > to || addDays(data.endDate ?? data.date, 1) < from) return null;
    const start = startMs(data, familyTz);
    const end = endMs(data, familyTz);
    if (!(start < r.end && (end > r.start || (end === start && start >= r.start)))) return null;
    return { date, data, title: x?.title ?? ev.title, status: x?.status ?? ev.status, start, end };
  };
  const isMoved = (x: OccurrenceException | undefined) =>
    !!x && !x.removed && x.data?.date !== undefined;
  const moved: TimedOccurrence[] = [];
  for (const [date, x] of Object.entries(ev.exceptions ?? {})) {
    const o = isMoved(x) ? at(date, x) : null;
    if (o) moved.push(o);
  }
  moved.sort((a, b) => a.start - b.start);
  let m = 0;
  for (const date of seriesStarts(ev, { from: addDays(from, -1), to })) {
    const x = ev.exceptions?.[date];
    if (x?.removed || isMoved(x)) continue;
    const o = at(date, x);
    if (!o) continue;
    while (m < moved.length && moved[m].start <= o.start) yield moved[m++];
    yield o;
  }
  while (m < moved.length) yield moved[m++];
}

/** The first `max` of `occurrencesFrom` (all of them by default), as an array. */
export function occurrencesOverlapping(
  ev: EventRecord,
  familyTz: string,
  r: InstantRange,
  max = Infinity,
): TimedOccurrence[] {
  const out: TimedOccurrence[] = [];
  if (max <= 0) return out;
  for (const o of occurrencesFrom(ev, familyTz, r)) {
    out.push(o);
    if (out.length >= max) break;
  }
  return out;
}

/**
 * From parsed VEVENTs to feed items: the feed-owned part of each event record, in the family's
 * zone. Pure (the digest is a hash, not randomness). Runs where the feed was parsed, off the
 * daemon's main thread.
 *
 * - An event's identity is its UID plus its normalized RECURRENCE-ID ('' for a master). A UID
 *   used by several masters keeps its plain identity for the one with the highest SEQUENCE;
 *   the others add their start. A VEVENT without UID is named by its start and title.
 * - A master with RRULE or RDATE is a series: its rule is kept as written (`recur`) and expanded
 *   at query time; its EXDATEs (every value of every EXDATE, DATE or DATE-TIME) and the
 *   overrides that fall on one of its occurrences become exceptions keyed by the occurrence's
 *   local start date. An override of a one-off event on its own date replaces it.
 * - An override without a master, or one that matches none of its master's occurrences
 *   ("orphaned"), is an event of its own.
 * - STATUS:CANCELLED removes what it is on: a whole event, or one occurrence.
 * - All-day events: DTEND is exclusive; DTEND = DTSTART, no DTEND or a zero DURATION is one day.
 *   Timed events without DTEND or DURATION last zero minutes (RFC 5545 §3.6.1).
 */
import { createHash } from 'node:crypto';
import { NOTE_MAX, TITLE_MAX, WHERE_MAX } from '../calendar/types.js';
import { addDays, toDayNumber } from '../shared/time.js';
import { feedOccurrenceOn } from './expand.js';
import { isTimed, type FeedTime, type ParsedCalendar, type ParsedEvent } from './parsed.js';
import type { FeedData, FeedException, FeedItem, FeedRecurrence } from './types.js';
import { formatWall, msToLocal, msToWall, wallToMs } from './wall.js';

const NO_TITLE = '(no title)';
/** The event fields a feed owns that an occurrence of it may change. */
const OCCURRENCE_KEYS = [
  'date',
  'endDate',
  'time',
  'endTime',
  'allDay',
  'where',
  'description',
] as const;

function digest(s: string): string {
  return createHash('sha256').update(s).digest('base64url').slice(0, 32);
}

function instantOf(t: FeedTime): number {
  return isTimed(t) ? wallToMs(t.date, t.seconds, t.tz) : Date.parse(`${t.date}T00:00:00Z`);
}

/** RECURRENCE-ID normalized: a date, or the UTC instant (`2019-03-19T03:00:00Z`). */
export function normalizedRecurrenceId(t: FeedTime): string {
  return isTimed(t) ? new Date(instantOf(t)).toISOString().replace('.000Z', 'Z') : t.date;
}

function clip(s: string | null, max: number): string | undefined {
  if (s === null) return undefined;
  const t = s.trim();
  if (!t) return undefined;
  if (t.length <= max) return t; // UTF-16 units never undercount code points
  const cps = Array.from(t);
  return cps.length > max ? cps.slice(0, max).join('') : t;
}

interface Shape {
  title: string;
  data: FeedData;
  /** Wall start and length, for a series' recurrence. */
  allDay: boolean;
  startWall: string;
  tz?: string;
  durationSec: number;
  days: number;
}

/** When and where one VEVENT happens, in the family's zone. */
function shapeOf(ev: ParsedEvent, zone: string): Shape {
  const title = clip(ev.title, TITLE_MAX) ?? NO_TITLE;
  const where = clip(ev.location, WHERE_MAX);
  const description = clip(ev.description, NOTE_MAX);
  const place = { ...(where ? { where } : {}), ...(description ? { description } : {}) };
  const s = ev.start;
  if (!isTimed(s)) {
    let days = 1;
    if (ev.end) days = toDayNumber(ev.end.date) - toDayNumber(s.date);
    else if (ev.durationSec !== null) days = Math.ceil(ev.durationSec / 86_400);
    days = Math.max(1, days);
    const data: FeedData = {
      date: s.date,
      ...(days > 1 ? { endDate: addDays(s.date, days - 1) } : {}),
      allDay: true,
      ...place,
    };
    return { title, data, allDay: true, startWall: s.date, durationSec: 0, days };
  }
  const startMs = instantOf(s);
  let endMs = startMs;
  if (ev.end) endMs = isTimed(ev.end) ? instantOf(ev.end) : wallToMs(ev.end.date, 0, s.tz);
  else if (ev.durationSec !== null) endMs = startMs + ev.durationSec * 1000;
  if (endMs < startMs) endMs = startMs;
  const a = msToLocal(startMs, zone);
  const b = msToLocal(endMs, zone);
  const data: FeedData = {
    date: a.date,
    ...(b.date > a.date ? { endDate: b.date } : {}),
    time: a.time,
    endTime: b.time,
    ...place,
  };
  return {
    title,
    data,
    allDay: false,
    startWall: formatWall(s.date, s.seconds),
    tz: s.tz,
    durationSec: Math.round((endMs - startMs) / 1000),
    days: 0,
  };
}

/** The local date (family zone) of the occurrence a RECURRENCE-ID or EXDATE value names. */
function occurrenceDateOf(t: FeedTime, series: Shape, master: ParsedEvent, zone: string): string {
  if (series.allDay) return t.date;
  if (isTimed(t)) return msToLocal(instantOf(t), zone).date;
  // A DATE naming an occurrence of a timed series: that day at the series' start time.
  const seconds = isTimed(master.start) ? master.start.seconds : 0;
  return msToLocal(wallToMs(t.date, seconds, series.tz!), zone).date;
}

function rdateWall(t: FeedTime, series: Shape): string {
  if (series.allDay) return t.date;
  if (isTimed(t)) {
    const w = msToWall(instantOf(t), series.tz!);
    return formatWall(w.date, w.seconds);
  }
  return formatWall(
    t.date,
    Number(series.startWall.slice(11, 13)) * 3600 +
      Number(series.startWall.slice(14, 16)) * 60 +
      Number(series.startWall.slice(17, 19)),
  );
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function item(
  key: { uid: string; recurrenceId: string },
  shape: Shape,
  recur?: FeedRecurrence,
  exceptions?: Record<string, FeedException>,
): FeedItem {
  const ex = exceptions && Object.keys(exceptions).length ? exceptions : undefined;
  return {
    key: `${key.uid}\n${key.recurrenceId}`,
    uid: key.uid,
    recurrenceId: key.recurrenceId,
    title: shape.title,
    data: shape.data,
    ...(recur ? { recur } : {}),
    ...(ex ? { exceptions: ex } : {}),
    fingerprint: digest(JSON.stringify([shape.title, shape.data, recur ?? null, ex ?? null])),
  };
}

/** Keeps, per key, the VEVENT with the highest SEQUENCE (the later one on a tie). */
function newest(list: ParsedEvent[], keyOf: (e: ParsedEvent) => string): ParsedEvent[] {
  const by = new Map<string, ParsedEvent>();
  for (const e of list) {
    const k = keyOf(e);
    const had = by.get(k);
    if (!had || e.sequence >= had.sequence) by.set(k, e);
  }
  return Array.from(by.values());
}

/** What the feed says a series' occurrence on `date` looks like, against what the rule gives. */
function overrideException(
  series: Shape,
  recur: FeedRecurrence,
  date: string,
  ov: ParsedEvent,
  zone: string,
): FeedException | null {
  if (ov.cancelled) return { removed: true };
  const occ = feedOccurrenceOn(recur, date)!;
  const base: Record<string, unknown> = {
    date: occ.date,
    ...(occ.endDate > occ.date ? { endDate: occ.endDate } : {}),
    ...(occ.time !== undefined ? { time: occ.time, endTime: occ.endTime } : { allDay: true }),
    where: series.data.where,
    description: series.data.description,
  };
  const own = shapeOf(ov, zone);
  const mine = own.data as unknown as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  for (const k of OCCURRENCE_KEYS) {
    if (!same(base[k], mine[k])) data[k] = mine[k] ?? null;
  }
  const x: FeedException = {};
  if (own.title !== series.title) x.title = own.title;
  if (Object.keys(data).length) x.data = data;
  return Object.keys(x).length ? x : null;
}

/** Every event of a parsed feed as a feed item, in the family's zone `zone`. */
export function feedItems(cal: ParsedCalendar, zone: string): FeedItem[] {
  // Name the nameless first, so that every later step can group by UID.
  const events = cal.events.map((e) =>
    e.uid
      ? e
      : {
          ...e,
          uid: `nouid-${digest(`${normalizedRecurrenceId(e.start)}\n${e.title}`).slice(0, 16)}`,
        },
  );
  const masters = new Map<string, ParsedEvent[]>();
  const overrides = new Map<string, ParsedEvent[]>();
  for (const e of events) {
    const into = e.recurrenceId ? overrides : masters;
    let list = into.get(e.uid);
    if (!list) into.set(e.uid, (list = []));
    list.push(e);
  }

  const out: FeedItem[] = [];
  const standalone: ParsedEvent[] = [];
  for (const [uid, list] of masters) {
    // The master with the highest SEQUENCE keeps the UID's plain identity.
    const ranked = newest(list, (e) => normalizedRecurrenceId(e.start)).sort(
      (a, b) => b.sequence - a.sequence,
    );
    const ovs = newest(overrides.get(uid) ?? [], (e) => normalizedRecurrenceId(e.recurrenceId!));
    overrides.delete(uid);
    ranked.forEach((m, rank) => {
      const key = { uid, recurrenceId: rank === 0 ? '' : `#${normalizedRecurrenceId(m.start)}` };
      if (m.cancelled) return; // a cancelled event is not on the calendar; nor are its overrides
      const shape = shapeOf(m, zone);
      const repeats = m.rrule !== null || m.rdates.length > 0;
      const mine = rank === 0 ? ovs : [];
      if (!repeats) {
        // An override of a one-off on its own date replaces it; others stand alone.
        const own = mine.find(
          (o) => occurrenceDateOf(o.recurrenceId!, shape, m, zone) === shape.data.date,
        );
        for (const o of mine) if (o !== own) standalone.push(o);
        if (own?.cancelled) return;
        out.push(item(key, own ? shapeOf(own, zone) : shape));
        return;
      }
      const recur: FeedRecurrence = shape.allDay
        ? { start: shape.startWall, days: shape.days, zone }
        : { start: shape.startWall, tz: shape.tz!, durationSec: shape.durationSec, zone };
      if (m.rrule) recur.rrule = m.rrule;
      if (m.rdates.length) recur.rdates = m.rdates.map((t) => rdateWall(t, shape));
      const exceptions: Record<string, FeedException> = {};
      for (const o of mine) {
        const date = occurrenceDateOf(o.recurrenceId!, shape, m, zone);
        if (!feedOccurrenceOn(recur, date)) {
          standalone.push(o);
          continue;
        }
        const x = overrideException(shape, recur, date, o, zone);
        if (x) exceptions[date] = x;
      }
      for (const t of m.exdates) {
        const date = occurrenceDateOf(t, shape, m, zone);
        if (feedOccurrenceOn(recur, date)) exceptions[date] = { removed: true };
      }
      const sorted = Object.fromEntries(
        Object.entries(exceptions).sort(([a], [b]) => (a < b ? -1 : 1)),
      );
      out.push(item(key, shape, recur, sorted));
    });
  }
  for (const list of overrides.values())
    standalone.push(...newest(list, (e) => normalizedRecurrenceId(e.recurrenceId!)));
  for (const o of standalone) {
    if (o.cancelled) continue;
    out.push(
      item({ uid: o.uid, recurrenceId: normalizedRecurrenceId(o.recurrenceId!) }, shapeOf(o, zone)),
    );
  }
  // Identities are unique by construction; a map makes sure of it (the later item wins).
  return Array.from(new Map(out.map((i) => [i.key, i])).values());
}

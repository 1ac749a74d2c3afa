/**
 * Time ranges for REPORTs (RFC 4791 §9.9): a time-range or expand element read once per request,
 * and the occurrences of an event (or the day of a to-do) that overlap one, from the calendar's
 * own expansion with removed and moved occurrences where they really are.
 */
import { occurrenceData } from '../domain/calendar/events.js';
import { seriesStarts } from '../domain/calendar/series.js';
import type { EventData, OccurrenceException, EventRecord } from '../domain/calendar/types.js';
import { addDays, instantToLocal, localToInstant } from '../domain/shared/time.js';
import { CalDavError } from './errors.js';
import type { DavCollection, DavObject } from './objects.js';
import { CALDAV, type XmlElement } from './xml.js';

export interface Range {
  start: number;
  end: number;
  local?: { tz: string; from: string; to: string };
}

/** Parsed ranges by element, so a filter is read once per request, not once per object. */
const parsedRanges = new WeakMap<XmlElement, Range>();

/** A time-range or expand element's start/end (UTC, `YYYYMMDDTHHMMSSZ`); open ends allowed. */
export function range(e: XmlElement): Range {
  let r = parsedRanges.get(e);
  if (!r) {
    r = readRange(e);
    parsedRanges.set(e, r);
  }
  return r;
}

function readRange(e: XmlElement): Range {
  const parse = (v: string | undefined, fallback: number) => {
    if (v === undefined) return fallback;
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v.trim());
    if (!m)
      throw new CalDavError(
        400,
        `${e.local} needs UTC times like 20260101T000000Z, not ${v.slice(0, 30)}`,
        { ns: CALDAV, local: 'valid-filter' },
      );
    return Date.UTC(
      Number(m[1]),
      Number(m[2]) - 1,
      Number(m[3]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6]),
    );
  };
  const r = { start: parse(e.attrs.start, -8.64e15), end: parse(e.attrs.end, 8.64e15) };
  if (r.end <= r.start)
    throw new CalDavError(400, `${e.local} must end after it starts`, {
      ns: CALDAV,
      local: 'valid-filter',
    });
  return r;
}

export interface Occurrence {
  date: string;
  data: EventData;
  title: string;
  status: string;
  start: number;
  end: number;
}

/**
 * Local wall time → instant, remembered: the same occurrence dates come back in every REPORT,
 * and each fresh conversion asks Intl for two or three zone offsets.
 */
const instants = new Map<string, number>();
export function instant(date: string, time: string, tz: string): number {
  const key = `${tz}|${date}|${time}`;
  let ms = instants.get(key);
  if (ms === undefined) {
    if (instants.size >= 200_000) instants.clear();
    ms = localToInstant(date, time, tz).getTime();
    instants.set(key, ms);
  }
  return ms;
}

/** An occurrence's end instant (listing.ts's eventEnd, through the remembered conversion). */
function endOf(d: EventData, tz: string): number {
  const allDay = d.allDay === true || d.time === undefined;
  if (allDay) return instant(addDays(d.endDate ?? d.date, 1), '00:00', tz);
  if (d.endTime !== undefined) return instant(d.endDate ?? d.date, d.endTime, tz);
  if (d.endDate !== undefined && d.endDate > d.date)
    return instant(addDays(d.endDate, 1), '00:00', tz);
  return instant(d.date, d.time!, tz) + (d.durationMinutes ?? 60) * 60_000;
}

/** The local dates a UTC range touches, clamped to the years objects may have (remembered per range). */
function localDates(r: Range, tz: string): { from: string; to: string } {
  if (r.local?.tz === tz) return r.local;
  const clamp = (ms: number) => Math.min(Math.max(ms, Date.UTC(1899, 0, 1)), Date.UTC(2201, 0, 1));
  r.local = {
    tz,
    from: instantToLocal(new Date(clamp(r.start)), tz).date,
    to: instantToLocal(new Date(clamp(r.end)), tz).date,
  };
  return r.local;
}

/**
 * The event's occurrences that overlap `r` (removed ones left out, moved ones where they are),
 * in start order, lazily: a caller with a budget stops when it is spent, so a daily series over
 * a century costs what the caller may take, not 36,500 occurrences. The series' own dates are
 * walked from the range's start (a day earlier, for events that run past midnight); each date
 * has one occurrence at its own time, so they come in start order. Moved occurrences may land
 * anywhere: they are looked at first (there are as many as the record holds), sorted, and
 * merged in.
 */
export function* occurrencesOf(ev: EventRecord, r: Range, tz: string): Generator<Occurrence> {
  const { from, to } = localDates(r, tz);
  const at = (date: string, x: OccurrenceException | undefined): Occurrence | null => {
    const data = occurrenceData(ev, date, x);
    if (data.date > to || addDays(data.endDate ?? data.date, 1) < from) return null;
    const allDay = data.allDay === true || data.time === undefined;
    const start = instant(data.date, allDay ? '00:00' : data.time!, tz);
    const end = endOf(data, tz);
    // RFC 4791 §9.9: a zero-length event overlaps when it starts inside the range.
    if (!(start < r.end && (end > r.start || (end === start && start >= r.start)))) return null;
    return { date, data, title: x?.title ?? ev.title, status: x?.status ?? ev.status, start, end };
  };
  const isMoved = (x: OccurrenceException | undefined) =>
    !!x && !x.removed && x.data?.date !== undefined;
  const moved: Occurrence[] = [];
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

export function overlaps(obj: DavObject, col: DavCollection, r: Range, tz: string): boolean {
  if (col.component === 'VEVENT')
    return !occurrencesOf(obj.entry as EventRecord, r, tz).next().done;
  // A to-do with a DUE date occupies that day; one without matches every range (RFC 4791 §9.9).
  const due = /\r\nDUE;VALUE=DATE:(\d{4})(\d{2})(\d{2})/.exec(obj.ics);
  if (!due) return true;
  const day = `${due[1]}-${due[2]}-${due[3]}`;
  const start = localToInstant(day, '00:00', tz).getTime();
  return start < r.end && localToInstant(addDays(day, 1), '00:00', tz).getTime() > r.start;
}

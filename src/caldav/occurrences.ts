/**
 * Time ranges for REPORTs (RFC 4791 §9.9): a time-range or expand element read once per request,
 * and the occurrences of an event that overlap one, from the calendar's
 * own expansion with removed and moved occurrences where they really are, each in its event's
 * own zone.
 */
import {
  occurrencesFrom,
  type InstantRange,
  type TimedOccurrence,
} from '../domain/calendar/series.js';
import type { EventRecord } from '../domain/calendar/types.js';
import { localInstantMs } from '../domain/shared/time.js';
import { CalDavError } from './errors.js';
import { CALDAV, type XmlElement } from './xml.js';

export type Range = InstantRange;

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

export type Occurrence = TimedOccurrence;

/**
 * The event's occurrences that overlap `r` (removed ones left out, moved ones where they are),
 * in start order, lazily: the calendar's own expansion by instants
 * (src/domain/calendar/series.ts), each occurrence placed in its event's own zone, so a caller
 * with a budget stops when it is spent. `tz` is the family's zone.
 */
export function occurrencesOf(ev: EventRecord, r: Range, tz: string): Generator<Occurrence> {
  return occurrencesFrom(ev, tz, r);
}

/**
 * Local wall time → instant, remembered (the calendar's own conversion, shared with listings and
 * reminders): the same occurrence dates come back in every REPORT.
 */
export function instant(date: string, time: string, tz: string): number {
  return localInstantMs(date, time, tz);
}

/** Whether an event has an occurrence overlapping `r` (to-dos: todoTimes.ts). */
export function overlaps(ev: EventRecord, r: Range, tz: string): boolean {
  return !occurrencesOf(ev, r, tz).next().done;
}

/**
 * Time ranges for REPORTs (RFC 4791 §9.9): a time-range or expand element read once per request,
 * and the occurrences of an event that overlap one, from the calendar's own expansion with removed and moved occurrences where they really are, each in its event's
 * own zone.
 *
 * The occurrences come from the family's occurrence index (src/domain/calendar/occurrenceIndex.ts)
 * when the report took a window over that range in the read that took its snapshot
 * (takeWindows): a query with a window never asked before then reads the month buckets the
 * window touches instead of expanding every series again. Otherwise each event is expanded
 * lazily, as the index itself would.
 */
import {
  occurrenceWindow,
  type OccurrenceRun,
  type OccurrenceWindow,
} from '../domain/calendar/occurrenceIndex.js';
import {
  occurrencesFrom,
  type InstantRange,
  type TimedOccurrence,
} from '../domain/calendar/series.js';
import type { FamilyState } from '../domain/shared/state.js';
import type { EventRecord } from '../domain/calendar/types.js';
import { localInstantMs } from '../domain/shared/time.js';
import { CalDavError } from './errors.js';
import type { DavCollection } from './objects.js';
import { CALDAV, DAV, type XmlElement } from './xml.js';

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
export function occurrencesOf(ev: EventRecord, r: Range, tz: string): Iterable<Occurrence> {
  const w = windows.get(r);
  return w && w.tz === tz ? w.window.occurrences(ev) : occurrencesFrom(ev, tz, r);
}

/**
 * The same occurrences as runs of the index's lists (occurrenceIndex.ts), or null when the
 * report took no window over `r` or the index cannot answer for this record.
 */
export function occurrenceRuns(
  ev: EventRecord,
  r: Range,
  tz: string,
): readonly OccurrenceRun[] | null {
  const w = windows.get(r);
  return w && w.tz === tz ? w.window.runs(ev) : null;
}

/** Whether any occurrence of the event overlaps `r`. */
function anyOccurrence(ev: EventRecord, r: Range, tz: string): boolean {
  const w = windows.get(r);
  return w && w.tz === tz ? w.window.any(ev) : !occurrencesFrom(ev, tz, r).next().done;
}

/**
 * Windows over the index, by the range (one object per element of one request body, see range):
 * only the request that took one can ask with its range, and only while the range is alive.
 */
const windows = new WeakMap<Range, { tz: string; window: OccurrenceWindow }>();

/** Ranges one report may ask about; more are answered by the lazy walk. */
const WINDOWS_MAX = 8;

/**
 * Takes windows over the family's occurrence index for every time range a REPORT body holds (its
 * time-range filters and calendar-data's expand): call it in the read
 * that takes the report's snapshot, so the occurrences served are those of the records served.
 * A range that is not valid is left for the report to refuse.
 */
export function takeWindows(state: FamilyState, col: DavCollection, body: XmlElement): void {
  if (col.component !== 'VEVENT') return;
  const tz = state.family.timezone;
  let taken = 0;
  const visit = (e: XmlElement, depth: number): void => {
    for (const c of e.children) {
      if (taken >= WINDOWS_MAX) return;
      if (c.ns === CALDAV && (c.local === 'time-range' || c.local === 'expand')) {
        let r: Range;
        try {
          r = range(c);
        } catch {
          continue;
        }
        if (!windows.has(r)) {
          windows.set(r, { tz, window: occurrenceWindow(state, col.collection.key, r) });
          taken++;
        }
      } else if (depth < 6 && (c.ns === CALDAV || c.ns === DAV)) visit(c, depth + 1);
    }
  };
  visit(body, 0);
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
  return anyOccurrence(ev, r, tz);
}

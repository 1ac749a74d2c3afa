/**
 * Which occurrence of an event context search shows: the first one that overlaps the coming
 * days (today included, in the family's time zone — an event in a zone of its own by where it
 * falls on the family's clock), however long ago its series began. Removed and archived
 * occurrences are skipped; an occurrence moved by an exception counts at its new date.
 */
import { isSeries, occurrenceData } from '../calendar/events.js';
import { occurrenceStarts } from '../calendar/recurrence.js';
import { onFamilyClock, zoneOf } from '../calendar/series.js';
import { addDays } from '../shared/time.js';
import type { EventData, EventRecord, OccurrenceException } from '../calendar/types.js';
import type { EntryStatus } from '../collections/types.js';

export interface Occurrence {
  /** The original start date of the occurrence (the series' own date for a one-off). */
  occurrenceDate: string;
  data: EventData;
  title: string;
  status: EntryStatus;
}

function moves(x: OccurrenceException | undefined): boolean {
  return !!x?.data && ('date' in x.data || 'endDate' in x.data);
}

function overlaps(d: EventData, from: string, to: string, tz: string): boolean {
  const at = onFamilyClock(d, tz);
  return at.date <= to && at.endDate >= from;
}

function occurrence(ev: EventRecord, date: string, x: OccurrenceException | undefined): Occurrence {
  return {
    occurrenceDate: date,
    data: occurrenceData(ev, date, x),
    title: x?.title ?? ev.title,
    status: x?.status ?? ev.status,
  };
}

function compute(ev: EventRecord, from: string, to: string, tz: string): Occurrence | null {
  if (!isSeries(ev)) {
    return ev.status !== 'archived' && overlaps(ev.data, from, to, tz)
      ? { occurrenceDate: ev.data.date, data: ev.data, title: ev.title, status: ev.status }
      : null;
  }
  // In another zone the series' own dates may lie up to two days beside the family's.
  const slack = zoneOf(ev.data, tz) === tz ? 0 : 2;
  let best: Occurrence | null = null;
  for (const date of occurrenceStarts(ev.data, {
    from: addDays(from, -slack),
    to: addDays(to, slack),
  })) {
    const x = ev.exceptions?.[date];
    if (x?.removed || moves(x)) continue;
    if ((x?.status ?? ev.status) === 'archived') continue;
    const o = occurrence(ev, date, x);
    if (slack && !overlaps(o.data, from, to, tz)) continue;
    best = o;
    break;
  }
  const first = (o: Occurrence) => onFamilyClock(o.data, tz).date;
  for (const [date, x] of Object.entries(ev.exceptions ?? {})) {
    if (x.removed || !moves(x) || (x.status ?? ev.status) === 'archived') continue;
    const o = occurrence(ev, date, x);
    if (overlaps(o.data, from, to, tz) && (!best || first(o) < first(best))) best = o;
  }
  return best;
}

const cache = new WeakMap<
  EventRecord,
  { from: string; to: string; tz: string; value: Occurrence | null }
>();

/**
 * The first occurrence of `ev` overlapping the family's days [from, to] (inclusive dates; `tz`
 * the family's zone), or null. Cached per event record, window and zone: records are immutable
 * values, so an edit is a new record.
 */
export function nextOccurrence(
  ev: EventRecord,
  from: string,
  to: string,
  tz: string,
): Occurrence | null {
  const hit = cache.get(ev);
  if (hit && hit.from === from && hit.to === to && hit.tz === tz) return hit.value;
  const value = compute(ev, from, to, tz);
  cache.set(ev, { from, to, tz, value });
  return value;
}

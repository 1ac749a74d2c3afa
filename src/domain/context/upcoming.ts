/**
 * Which occurrence of an event context search shows: the first one that overlaps the coming
 * days (today included, in the family's time zone), however long ago its series began.
 * Removed and archived occurrences are skipped; an occurrence moved by an exception counts at
 * its new date.
 */
import { isSeries, occurrenceData } from '../calendar/events.js';
import { occurrenceStarts } from '../calendar/recurrence.js';
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

function overlaps(d: EventData, from: string, to: string): boolean {
  return d.date <= to && (d.endDate ?? d.date) >= from;
}

function occurrence(ev: EventRecord, date: string, x: OccurrenceException | undefined): Occurrence {
  return {
    occurrenceDate: date,
    data: occurrenceData(ev, date, x),
    title: x?.title ?? ev.title,
    status: x?.status ?? ev.status,
  };
}

function compute(ev: EventRecord, from: string, to: string): Occurrence | null {
  if (!isSeries(ev)) {
    return ev.status !== 'archived' && overlaps(ev.data, from, to)
      ? { occurrenceDate: ev.data.date, data: ev.data, title: ev.title, status: ev.status }
      : null;
  }
  let best: Occurrence | null = null;
  for (const date of occurrenceStarts(ev.data, { from, to })) {
    const x = ev.exceptions?.[date];
    if (x?.removed || moves(x)) continue;
    if ((x?.status ?? ev.status) === 'archived') continue;
    best = occurrence(ev, date, x);
    break;
  }
  for (const [date, x] of Object.entries(ev.exceptions ?? {})) {
    if (x.removed || !moves(x) || (x.status ?? ev.status) === 'archived') continue;
    const o = occurrence(ev, date, x);
    if (overlaps(o.data, from, to) && (!best || o.data.date < best.data.date)) best = o;
  }
  return best;
}

const cache = new WeakMap<EventRecord, { from: string; to: string; value: Occurrence | null }>();

/**
 * The first occurrence of `ev` overlapping [from, to] (inclusive dates), or null. Cached per
 * event record and window: records are immutable values, so an edit is a new record.
 */
export function nextOccurrence(ev: EventRecord, from: string, to: string): Occurrence | null {
  const hit = cache.get(ev);
  if (hit && hit.from === from && hit.to === to) return hit.value;
  const value = compute(ev, from, to);
  cache.set(ev, { from, to, value });
  return value;
}

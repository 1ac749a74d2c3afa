/**
 * The items the event listing (listing.ts) sorts and merges: the sort key, one item per event or
 * occurrence, every calendar event in unexpanded order with the moved occurrences (cached per
 * write), and the occurrences of one event overlapping a window.
 *
 * Windows and order are the family's days: an occurrence is placed by where it falls on the
 * family's clock (series.ts, onFamilyClock), so a 20:00 New York event is on the next day of a
 * Berlin family's listing, at 02:00. Each series' occurrences still come in key order (a later
 * start date in its own zone is a later instant), which the listing's merge relies on.
 */
import { calendarCollections } from '../collections/collections.js';
import { entriesOf } from '../collections/listing.js';
import type { EntryStatus } from '../collections/types.js';
import type { FamilyState } from '../shared/state.js';
import { addDays } from '../shared/time.js';
import { isSeries, occurrenceData } from './events.js';
import { isSeriesStart, onFamilyClock, seriesStarts, zoneOf, type FamilyClock } from './series.js';
import type { EventData, EventRecord } from './types.js';

/** Sort key: date, all-day (0) before timed (1), time, folded title, id, occurrence date. */
export type Key = [string, number, string, string, string, string];

export interface Item {
  ev: EventRecord;
  /** The occurrence's original start date ('' for an unexpanded event). */
  occurrenceDate: string;
  /** As written, in the event's zone. */
  data: EventData;
  /** Where it falls on the family's clock: what windows and the sort key read. */
  at: FamilyClock;
  title: string;
  status: EntryStatus;
  key: Key;
}

export function compare(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/** `tz`: the family's zone. */
export function item(
  ev: EventRecord,
  occurrenceDate: string,
  data: EventData,
  title: string,
  status: EntryStatus,
  tz: string,
): Item {
  const at = onFamilyClock(data, tz);
  return {
    ev,
    occurrenceDate,
    data,
    at,
    title,
    status,
    key: [at.date, at.allDay ? 0 : 1, at.time ?? '', title.toLowerCase(), ev.id, occurrenceDate],
  };
}

export function occurrenceItem(ev: EventRecord, date: string, tz: string): Item {
  const x = ev.exceptions?.[date];
  return item(
    ev,
    date,
    x ? occurrenceData(ev, date, x) : occurrenceData(ev, date, undefined),
    x?.title ?? ev.title,
    x?.status ?? ev.status,
    tz,
  );
}

/**
 * Whether an exception moves its occurrence out of its series' order: another start date or
 * length; for a series in another zone also a switch to or from all-day (an all-day occurrence
 * is placed by its own date, a timed one by its instant on the family's clock).
 */
export function moves(ev: EventRecord, date: string, tz: string): boolean {
  const x = ev.exceptions?.[date];
  if (!x?.data) return false;
  if ('date' in x.data || 'endDate' in x.data) return true;
  return 'allDay' in x.data && zoneOf(ev.data, tz) !== tz;
}

/** Whether an item falls on the family's days [from, to] (either bound open). */
export function within(it: Item, from: string | undefined, to: string | undefined): boolean {
  return !(to !== undefined && it.at.date > to) && !(from !== undefined && it.at.endDate < from);
}

/**
 * Days to look beyond a window of the family's days in the event's own dates: 2 for an event in
 * another zone (two zones' clocks are at most 26 hours apart), else none.
 */
export function slack(ev: EventRecord, tz: string): number {
  return zoneOf(ev.data, tz) === tz ? 0 : 2;
}

export interface Prepared {
  /** Every event of every calendar, in unexpanded sort order. */
  events: EventRecord[];
  /** Moved occurrences of all series, sorted. */
  moved: Item[];
}

/** Every calendar event in unexpanded order, and the moved occurrences (cached per write). */
export function prepared(state: FamilyState): Prepared {
  return state.derived('calendar:prepared', () => {
    const tz = state.family.timezone;
    const events: EventRecord[] = [];
    for (const c of calendarCollections(state))
      events.push(...(entriesOf(state, c.key) as EventRecord[]));
    const keyed = events.map((ev) => ({
      ev,
      key: item(ev, '', ev.data, ev.title, ev.status, tz).key,
    }));
    keyed.sort((a, b) => compare(a.key, b.key));
    const moved: Item[] = [];
    for (const ev of events) {
      if (!isSeries(ev) || !ev.exceptions) continue;
      for (const date of Object.keys(ev.exceptions)) {
        if (!ev.exceptions[date].removed && moves(ev, date, tz))
          moved.push(occurrenceItem(ev, date, tz));
      }
    }
    moved.sort((a, b) => compare(a.key, b.key));
    return { events: keyed.map((k) => k.ev), moved };
  });
}

/**
 * Occurrences of one event overlapping the family's days [from, to], in key order (moved ones
 * left out). `tz`: the family's zone.
 */
export function* occurrencesOf(
  ev: EventRecord,
  from: string,
  to: string,
  tz: string,
): Generator<Item> {
  if (!isSeries(ev)) {
    const it = item(ev, ev.data.date, ev.data, ev.title, ev.status, tz);
    if (within(it, from, to)) yield it;
    return;
  }
  const extra = slack(ev, tz);
  const window = extra ? { from: addDays(from, -extra), to: addDays(to, extra) } : { from, to };
  for (const date of seriesStarts(ev, window)) {
    const x = ev.exceptions?.[date];
    if (x && (x.removed || moves(ev, date, tz))) continue;
    const it = occurrenceItem(ev, date, tz);
    if (!extra || within(it, from, to)) yield it;
  }
}

/**
 * The changed occurrences of a series overlapping the family's days [from, to], in key order
 * (removed and moved ones left out): what a listing looks at of a series whose own fields do
 * not pass its filter. Costs one look per change, not per occurrence.
 */
export function* changedOccurrencesOf(
  ev: EventRecord,
  from: string,
  to: string,
  tz: string,
): Generator<Item> {
  const extra = slack(ev, tz);
  const dates = Object.keys(ev.exceptions ?? {})
    .filter((d) => d <= addDays(to, extra))
    .sort();
  for (const date of dates) {
    const x = ev.exceptions![date];
    if (x.removed || moves(ev, date, tz) || !isSeriesStart(ev, date)) continue;
    const it = occurrenceItem(ev, date, tz);
    if (within(it, from, to)) yield it;
  }
}

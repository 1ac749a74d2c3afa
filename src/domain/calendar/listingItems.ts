/**
 * The items the event listing (listing.ts) sorts and merges: the sort key, one item per event or
 * occurrence, every calendar event in unexpanded order with the moved occurrences (cached per
 * write), and the occurrences of one event overlapping a window.
 */
import { calendarCollections } from '../collections/collections.js';
import { entriesOf } from '../collections/listing.js';
import type { EntryStatus } from '../collections/types.js';
import type { FamilyState } from '../shared/state.js';
import { isSeries, occurrenceData } from './events.js';
import { seriesStarts } from './series.js';
import type { EventData, EventRecord } from './types.js';

/** Sort key: date, all-day (0) before timed (1), time, folded title, id, occurrence date. */
export type Key = [string, number, string, string, string, string];

export interface Item {
  ev: EventRecord;
  /** The occurrence's original start date ('' for an unexpanded event). */
  occurrenceDate: string;
  data: EventData;
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

export function item(
  ev: EventRecord,
  occurrenceDate: string,
  data: EventData,
  title: string,
  status: EntryStatus,
): Item {
  const allDay = data.allDay === true || data.time === undefined;
  return {
    ev,
    occurrenceDate,
    data,
    title,
    status,
    key: [
      data.date,
      allDay ? 0 : 1,
      allDay ? '' : data.time!,
      title.toLowerCase(),
      ev.id,
      occurrenceDate,
    ],
  };
}

export function occurrenceItem(ev: EventRecord, date: string): Item {
  const x = ev.exceptions?.[date];
  return item(
    ev,
    date,
    x ? occurrenceData(ev, date, x) : occurrenceData(ev, date, undefined),
    x?.title ?? ev.title,
    x?.status ?? ev.status,
  );
}

/** Whether an exception moves its occurrence (another start date or length). */
export function moves(ev: EventRecord, date: string): boolean {
  const x = ev.exceptions?.[date];
  return !!x?.data && ('date' in x.data || 'endDate' in x.data);
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
    const events: EventRecord[] = [];
    for (const c of calendarCollections(state))
      events.push(...(entriesOf(state, c.key) as EventRecord[]));
    const keyed = events.map((ev) => ({ ev, key: item(ev, '', ev.data, ev.title, ev.status).key }));
    keyed.sort((a, b) => compare(a.key, b.key));
    const moved: Item[] = [];
    for (const ev of events) {
      if (!isSeries(ev) || !ev.exceptions) continue;
      for (const date of Object.keys(ev.exceptions)) {
        if (!ev.exceptions[date].removed && moves(ev, date)) moved.push(occurrenceItem(ev, date));
      }
    }
    moved.sort((a, b) => compare(a.key, b.key));
    return { events: keyed.map((k) => k.ev), moved };
  });
}

/** Occurrences of one event overlapping [from, to], in key order (moved ones left out). */
export function* occurrencesOf(ev: EventRecord, from: string, to: string): Generator<Item> {
  if (!isSeries(ev)) {
    const end = ev.data.endDate ?? ev.data.date;
    if (ev.data.date <= to && end >= from)
      yield item(ev, ev.data.date, ev.data, ev.title, ev.status);
    return;
  }
  for (const date of seriesStarts(ev, { from, to })) {
    const x = ev.exceptions?.[date];
    if (x && (x.removed || moves(ev, date))) continue;
    yield occurrenceItem(ev, date);
  }
}

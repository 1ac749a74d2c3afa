/**
 * Occurrence starts of any event: the household's own repeat fields (recurrence.ts), or the
 * feed's own rule of a repeating external-feed event (feeds/expand.ts, expanded at query time).
 * Listing, occurrence edits and the share feed ask here, so both kinds behave alike.
 */
import { feedOccurrenceOn, feedOccurrences } from '../feeds/expand.js';
import { isOccurrenceStart, occurrenceStarts, type OccurrenceWindow } from './recurrence.js';
import type { EventData, EventRecord } from './types.js';

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

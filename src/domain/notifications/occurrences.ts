/**
 * The upcoming occurrences of an event as the notifications see them: each with its own data
 * (series fields plus that occurrence's changes), its status and its start instant, read in the
 * event's own zone (its `timeZone`, else the family's). An all-day occurrence "starts" at 09:00
 * on its date in that zone (docs/notifications.md), for reminders, leave-by and the coverage
 * window alike.
 */
import { isSeries, occurrenceData } from '../calendar/events.js';
import { seriesStarts, zoneOf } from '../calendar/series.js';
import type { EventData, EventRecord } from '../calendar/types.js';
import type { EntryStatus } from '../collections/types.js';
import { addDays, localInstantMs, todayIn } from '../shared/time.js';

export interface Occurrence {
  /** The occurrence's original start date (its key among the series' exceptions). */
  date: string;
  data: EventData;
  title: string;
  status: EntryStatus;
  /** Start instant in ms. */
  start: number;
}

export const ALL_DAY_START = '09:00';

export function isAllDay(d: EventData): boolean {
  return d.allDay === true || d.time === undefined;
}

/** The instant an occurrence starts for notifications; `tz`: the family's zone. */
export function startOf(d: EventData, tz: string): number {
  return localInstantMs(d.date, isAllDay(d) ? ALL_DAY_START : d.time!, zoneOf(d, tz));
}

function occurrence(ev: EventRecord, date: string, tz: string): Occurrence {
  const x = ev.exceptions?.[date];
  const data = isSeries(ev) ? occurrenceData(ev, date, x) : ev.data;
  return {
    date,
    data,
    title: x?.title ?? ev.title,
    status: x?.status ?? ev.status,
    start: startOf(data, tz),
  };
}

/**
 * The occurrences of a series moved to another date, by record (records are replaced, never
 * changed): every reminder of the event, the leave-by and the coverage alert ask for them on
 * each change, and each costs a zone conversion (50 reminders × 100 moved occurrences made a
 * CalDAV PUT spend 80 ms here).
 */
const movedByRecord = new WeakMap<EventRecord, { tz: string; list: Occurrence[] }>();

function movedOccurrences(ev: EventRecord, tz: string): Occurrence[] {
  const hit = movedByRecord.get(ev);
  if (hit && hit.tz === tz) return hit.list;
  const list: Occurrence[] = [];
  for (const [date, x] of Object.entries(ev.exceptions ?? {}))
    if (!x.removed && x.data && 'date' in x.data) list.push(occurrence(ev, date, tz));
  movedByRecord.set(ev, { tz, list });
  return list;
}

/** How far a search walks a series before giving up (every occurrence already done, say). */
const MAX_WALK = 2_000;

/**
 * The occurrence for which `dueOf` answers the earliest time, among those starting after
 * `now`. `dueOf` must grow with the start (start minus a fixed lead, or clamped to now), so
 * the walk over a series stops at the first occurrence that qualifies; occurrences moved to
 * another date by an exception are looked at separately.
 */
export function nextOccurrence(
  ev: EventRecord,
  tz: string,
  now: Date,
  dueOf: (o: Occurrence) => number | null,
): { occurrence: Occurrence; dueAt: number } | null {
  const t = now.getTime();
  let best: { occurrence: Occurrence; dueAt: number } | null = null;
  const consider = (o: Occurrence): boolean => {
    if (o.start <= t) return false;
    const due = dueOf(o);
    if (due === null) return false;
    if (!best || due < best.dueAt) best = { occurrence: o, dueAt: due };
    return true;
  };
  if (!isSeries(ev)) {
    consider(occurrence(ev, ev.data.date, tz));
    return best;
  }
  const moved = (date: string) => {
    const data = ev.exceptions?.[date]?.data;
    return !!data && 'date' in data;
  };
  for (const o of movedOccurrences(ev, tz)) consider(o);
  let walked = 0;
  // Yesterday in the event's own zone: an occurrence started before then has started.
  const from = addDays(todayIn(zoneOf(ev.data, tz), now), -1);
  for (const date of seriesStarts(ev, { from })) {
    if (++walked > MAX_WALK) break;
    const x = ev.exceptions?.[date];
    if (x?.removed || moved(date)) continue;
    const o = occurrence(ev, date, tz);
    if (best && o.start > (best as { dueAt: number }).dueAt + 400 * 86_400_000) break;
    if (consider(o)) break;
  }
  return best;
}

/** One occurrence by its original date, if it still exists (not removed). */
export function occurrenceOn(ev: EventRecord, date: string, tz: string): Occurrence | null {
  if (!isSeries(ev)) return ev.data.date === date ? occurrence(ev, date, tz) : null;
  if (ev.exceptions?.[date]?.removed) return null;
  return occurrence(ev, date, tz);
}

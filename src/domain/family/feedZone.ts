/**
 * Events of external feeds when the family's zone changes: they keep their instants (a school
 * feed's 08:00 UTC assembly is still 08:00 UTC), so their local dates and times, the dates their
 * occurrences are keyed by, and the once-per-occurrence marks of those dates are moved to the
 * new zone in the same decision as the zone. Each feed is also read again at once in the new
 * zone (its `zone` stays the old one, which makes the refresh skip the validators, docs/feeds.md),
 * so whatever this conversion cannot know (a floating time, a sub-daily rule) comes right too.
 * A family's own events are not touched: their local dates and times are the truth.
 */
import type { EventRecord, OccurrenceException } from '../calendar/types.js';
import { getEvent } from '../calendar/events.js';
import { ENTRIES } from '../collections/types.js';
import { feedOccurrenceOn } from '../feeds/expand.js';
import { scheduleNow } from '../feeds/schedule.js';
import { FEEDS, type CalendarFeed } from '../feeds/types.js';
import { parseWall, wallToMs } from '../feeds/wall.js';
import { MARKS } from '../notifications/types.js';
import type { AgendaChange, FamilyState, RecordChange } from '../shared/state.js';
import { instantToLocal, localToInstant } from '../shared/time.js';

type Data = Record<string, unknown>;

/**
 * Timed local fields (date/time, endDate/endTime) read in `from` and written in `to`. An
 * occurrence's changes may leave the date out (it is the occurrence's own, `on`); the date is
 * then written only when the new zone puts the start on another day than `onAfter`.
 */
function shiftData<T extends Data>(
  d: T,
  from: string,
  to: string,
  on?: { before: string; after: string },
): T {
  const date = typeof d.date === 'string' ? d.date : on?.before;
  if (date === undefined || typeof d.time !== 'string') return d;
  const out: Data = { ...d };
  const start = instantToLocal(localToInstant(date, d.time, from), to);
  if (typeof d.date === 'string' || start.date !== on?.after) out.date = start.date;
  out.time = start.time;
  if (typeof d.endTime === 'string') {
    const end = instantToLocal(
      localToInstant(typeof d.endDate === 'string' ? d.endDate : date, d.endTime, from),
      to,
    );
    out.endTime = end.time;
    if (end.date !== start.date) out.endDate = end.date;
    else delete out.endDate;
  }
  return out as T;
}

/** The new key of occurrence date `date` of a feed series (its start instant's date in `to`). */
function shiftKey(ev: EventRecord, date: string, to: string): string {
  const recur = ev.feed?.recur;
  if (!recur?.tz) return date; // all-day: dates are dates in every zone
  const o = feedOccurrenceOn(recur, date);
  if (!o) return date;
  const w = parseWall(o.wall);
  return instantToLocal(new Date(wallToMs(w.date, w.seconds, recur.tz)), to).date;
}

/** One feed event in zone `to`, and how its occurrence dates map (old → new). */
function shiftEvent(
  ev: EventRecord,
  from: string,
  to: string,
): { next: EventRecord; dates: Map<string, string> } {
  const dates = new Map<string, string>();
  const next: EventRecord = { ...ev, data: shiftData(ev.data, from, to) };
  if (ev.data.date !== next.data.date) dates.set(ev.data.date, next.data.date);
  if (ev.feed?.recur) {
    next.feed = { ...ev.feed, recur: { ...ev.feed.recur, zone: to } };
    const exceptions: Record<string, OccurrenceException> = {};
    for (const [date, x] of Object.entries(ev.exceptions ?? {})) {
      const key = shiftKey(ev, date, to);
      if (key !== date) dates.set(date, key);
      exceptions[key] = x.data
        ? { ...x, data: shiftData(x.data, from, to, { before: date, after: key }) }
        : x;
    }
    if (ev.exceptions) next.exceptions = exceptions;
  }
  return { next, dates };
}

/** Mark ids end in `:<date>` or `:<date>:<index>` after `<kind>:<eventId>`. */
const MARK_RE = /^([a-z]+):([^:]+):(\d{4}-\d{2}-\d{2})((?::\d+)?)$/;

/**
 * Every change a zone change from `from` to `to` makes to feed events (records and marks),
 * and a refresh due now for each feed.
 */
export function shiftFeedEvents(
  state: FamilyState,
  from: string,
  to: string,
  now: Date,
): { changes: RecordChange[]; agenda: AgendaChange[] } {
  const changes: RecordChange[] = [];
  const agenda: AgendaChange[] = [];
  const feeds = state.table<CalendarFeed>(FEEDS);
  if (feeds.size === 0) return { changes, agenda };
  const moved = new Map<string, { ev: EventRecord; dates: Map<string, string> }>();
  for (const [id, entry] of state.table<EventRecord>(ENTRIES)) {
    if (!entry.sourceId) continue;
    const ev = getEvent(state, id);
    if (!ev) continue;
    const { next, dates } = shiftEvent(ev, from, to);
    moved.set(id, { ev: next, dates });
    if (JSON.stringify(next) !== JSON.stringify(ev))
      changes.push({ table: ENTRIES, id, value: next });
  }
  for (const [id, value] of state.table<unknown>(MARKS)) {
    const m = MARK_RE.exec(id);
    const date = m ? moved.get(m[2])?.dates.get(m[3]) : undefined;
    if (!m || !date) continue;
    changes.push(
      { table: MARKS, id, value: null },
      { table: MARKS, id: `${m[1]}:${m[2]}:${date}${m[4]}`, value },
    );
  }
  for (const feed of feeds.values()) agenda.push(scheduleNow(feed.id, now));
  return { changes, agenda };
}

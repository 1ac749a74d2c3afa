/**
 * Listing calendar events.
 *
 * With both `from` and `to`, series are expanded into the occurrences that overlap the
 * inclusive window and everything is sorted by (date, all-day first, time, title, id,
 * occurrenceDate). Each series yields its occurrences lazily in that order, and a k-way merge
 * over all series takes only as many as the page needs (limit + 1 to know whether more follow),
 * so a one-year window of hundreds of series costs a page, not a year. A text query and a status
 * are applied to each series before it is expanded (its changed occurrences each on their own),
 * so a page looks at what matches, not at every occurrence of the window: it answers
 * min(limit, matches in the window), whatever else the calendar holds. A page that would still
 * look at more than SCAN_BUDGET is refused, naming the window. Occurrences moved to
 * another date by an exception do not fit their series' order and form one extra sorted stream.
 *
 * The sort key and items, and the cached unexpanded order, are in listingItems.ts.
 *
 * Pages are cached per family state (dropped by the next write); a page that depends on the
 * clock (excludeEnded) is kept only until the first of its events ends.
 */
import { matchesTerms, normalizeText, queryTerms } from '../collections/search.js';
import type { EntryStatus } from '../collections/types.js';
import { Invalid } from '../shared/errors.js';
import { PAGE_LIMIT } from '../shared/paging.js';
import type { FamilyState } from '../shared/state.js';
import { addDays, todayIn } from '../shared/time.js';
import { eventView, isSeries, occurrenceData, occurrenceView } from './events.js';
import { endMs, seriesStarts } from './series.js';
import {
  compare,
  item,
  changedOccurrencesOf,
  occurrencesOf,
  prepared,
  slack,
  within,
  type Item,
  type Key,
} from './listingItems.js';
import type { EventData, EventRecord } from './types.js';
import { arrayFrom, Heap } from './listingMerge.js';
import { PageFill, decodeCursor, type Computed, type EventPage } from './listingPage.js';

export { SCAN_BUDGET, type EventPage } from './listingPage.js';
import { collectText } from '../shared/text.js';

export interface EventListQuery {
  from?: string;
  to?: string;
  query?: string;
  status?: EntryStatus;
  excludeEnded?: boolean;
  limit?: number;
  cursor?: string;
  /**
   * In-process callers only (the display): a further test of an event's or occurrence's data
   * and calendar, applied as the words are (to a series before it is expanded, to a changed
   * occurrence on its own), so the page stays complete. It must read no date or time field;
   * `key` names it in the page cache.
   */
  only?: { key: string; test: (data: EventData, calendarKey: string) => boolean };
}

/**
 * When an event (or occurrence) is over (series.ts, endMs): its endDate/endTime, else start +
 * durationMinutes, else start + 60 minutes, else (no time) the end of its last day — in its own
 * zone (`tz`, the family's, when it has none).
 */
export function eventEnd(d: EventData, tz: string): Date {
  return new Date(endMs(d, tz));
}

/**
 * The earliest of the family's days an occurrence still going on at `now` can be on: the day
 * before yesterday (an all-day occurrence is placed by its own date, which in a zone far to the
 * west can be two of the family's days behind).
 */
function notEndedFrom(tz: string, now: number): string {
  return addDays(todayIn(tz, new Date(now)), -2);
}

// ---- filters --------------------------------------------------------------------------------

const texts = new WeakMap<object, string>();

const collect = (value: unknown, out: string[]): void => collectText(value, out);

/**
 * Title and data values but the dates, folded (cached per stored record). Every unchanged
 * occurrence of a series has the series' own (holder `ev`); a changed one its exception's.
 */
function textOf(holder: object, title: string, data: EventData): string {
  let t = texts.get(holder);
  if (t === undefined) {
    const parts = [title];
    const { date: _d, endDate: _e, time: _t, endTime: _et, ...rest } = data;
    collect(rest, parts);
    t = normalizeText(parts.join('\n'));
    texts.set(holder, t);
  }
  return t;
}

function searchText(it: Item): string {
  const exception = it.occurrenceDate ? it.ev.exceptions?.[it.occurrenceDate] : undefined;
  return exception ? textOf(exception, it.title, it.data) : textOf(it.ev, it.ev.title, it.ev.data);
}

interface Filter {
  status?: EntryStatus;
  only?: EventListQuery['only'];
  terms: string[];
  /** Only events ending after this instant (excludeEnded). */
  after?: number;
  tz: string;
}

/** Whether a status, a text and data pass the filter's `status`, words and `only`. */
function fieldsPass(
  status: EntryStatus,
  text: () => string,
  f: Filter,
  data: EventData,
  calendarKey: string,
): boolean {
  if (f.status ? status !== f.status : status === 'archived') return false;
  if (f.terms.length && !matchesTerms(text(), f.terms)) return false;
  return !f.only || f.only.test(data, calendarKey);
}

/**
 * Whether a series' own fields pass: then so does every occurrence it has not changed, and only
 * its changed ones need a look of their own; otherwise only changed ones can pass.
 */
function seriesPasses(ev: EventRecord, f: Filter): boolean {
  return fieldsPass(ev.status, () => textOf(ev, ev.title, ev.data), f, ev.data, ev.collectionKey);
}

/** Whether the item passes; for excludeEnded also its end (the page's expiry). */
function passes(it: Item, f: Filter): { ok: boolean; end?: number } {
  if (!fieldsPass(it.status, () => searchText(it), f, it.data, it.ev.collectionKey))
    return { ok: false };
  if (f.after !== undefined) {
    const end = endMs(it.data, f.tz);
    return { ok: end > f.after, end };
  }
  return { ok: true };
}

// ---- the merge ------------------------------------------------------------------------------

function expanded(
  state: FamilyState,
  from: string,
  to: string,
  limit: number,
  after: Key | undefined,
  f: Filter,
): Computed {
  const p = prepared(state);
  // Occurrences starting before the cursor's date sort before it: start the walk there.
  let walkFrom = after && after[0] > from ? after[0] : from;
  // With excludeEnded, whatever lies only before that day has ended.
  if (f.after !== undefined) {
    const earliest = notEndedFrom(f.tz, f.after);
    if (earliest > walkFrom) walkFrom = earliest;
  }
  if (walkFrom > to) walkFrom = to;
  const heap = new Heap();
  const farTo = addDays(to, 2); // the latest own start date an event in another zone may have
  for (const ev of p.events) {
    if (ev.data.date > (slack(ev, f.tz) ? farTo : to)) continue;
    // A series that does not pass on its own fields is looked at only where it was changed.
    if (seriesPasses(ev, f)) heap.push(occurrencesOf(ev, walkFrom, to, f.tz));
    else if (isSeries(ev) && ev.exceptions) heap.push(changedOccurrencesOf(ev, walkFrom, to, f.tz));
  }
  const moved = p.moved.filter(
    (it) =>
      within(it, from, to) &&
      fieldsPass(it.status, () => searchText(it), f, it.data, it.ev.collectionKey),
  );
  heap.push(arrayFrom(moved, 0));
  const fill = new PageFill<Item>(limit, { from, to });
  while (heap.size) {
    const it = heap.pop();
    if (after && compare(it.key, after) <= 0) continue;
    if (!fill.offer(it, it.key, () => passes(it, f))) break;
  }
  return fill.page((it) => occurrenceView(state, it.ev, it.occurrenceDate));
}

/**
 * Whether a series or event has an occurrence overlapping the open-ended bounds (the family's
 * days) that is not removed.
 */
function meets(
  ev: EventRecord,
  from: string | undefined,
  to: string | undefined,
  f: Filter,
): { ok: boolean; end?: number } {
  const inBounds = (d: EventData, date: string) =>
    within(item(ev, date, d, ev.title, ev.status, f.tz), from, to);
  if (!isSeries(ev)) {
    if (!inBounds(ev.data, ev.data.date)) return { ok: false };
    if (f.after === undefined) return { ok: true };
    const end = endMs(ev.data, f.tz);
    return { ok: end > f.after, end };
  }
  const extra = slack(ev, f.tz);
  const window = {
    ...(from ? { from: addDays(from, -extra) } : {}),
    ...(to ? { to: addDays(to, extra) } : {}),
  };
  let seen = 0;
  for (const date of seriesStarts(ev, window)) {
    const x = ev.exceptions?.[date];
    if (x?.removed) continue;
    if (extra && !inBounds(occurrenceData(ev, date, x), date)) continue;
    if (f.after === undefined) return { ok: true };
    const end = endMs(occurrenceData(ev, date, x), f.tz);
    if (end > f.after) return { ok: true, end };
    // Ended: walk on towards the present, but not forever (a daily series of many years).
    if (++seen > 10_000) break;
  }
  return { ok: false };
}

/** An unexpanded event against the filter and the open-ended bounds. */
function passesUnexpanded(
  it: Item,
  from: string | undefined,
  to: string | undefined,
  f: Filter,
): { ok: boolean; end?: number } {
  return meets(it.ev, from, to, f);
}

function unexpanded(
  state: FamilyState,
  q: EventListQuery,
  limit: number,
  after: Key | undefined,
  f: Filter,
): Computed {
  const p = prepared(state);
  // With excludeEnded, whatever lies only before that day has ended: start there.
  let from = q.from;
  if (f.after !== undefined) {
    const earliest = notEndedFrom(f.tz, f.after);
    if (!from || from < earliest) from = earliest;
  }
  // The events are in key order: the page starts right after the cursor's.
  let lo = 0;
  let hi = p.events.length;
  while (after && lo < hi) {
    const mid = (lo + hi) >> 1;
    const ev = p.events[mid];
    if (compare(item(ev, '', ev.data, ev.title, ev.status, f.tz).key, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  const fill = new PageFill<Item>(limit, {
    ...(from ? { from } : {}),
    ...(q.to ? { to: q.to } : {}),
  });
  for (let i = lo; i < p.events.length; i++) {
    const ev = p.events[i];
    // Status and words first, at no cost to the page's budget: only the bounds cost a walk.
    if (!seriesPasses(ev, f)) continue;
    const it = item(ev, '', ev.data, ev.title, ev.status, f.tz);
    if (!fill.offer(it, it.key, () => passesUnexpanded(it, from, q.to, f))) break;
  }
  return fill.page((it) => eventView(state, it.ev));
}

/** One page of the family's calendar events; `now` matters only for excludeEnded. */
export function listEvents(state: FamilyState, q: EventListQuery, now: Date): EventPage {
  if (q.from && q.to && q.from > q.to) {
    throw new Invalid(`query.from ${q.from} is after query.to ${q.to}`, [
      { path: ['query', 'from'], message: `must not be after to (${q.to})` },
    ]);
  }
  const cacheKey = JSON.stringify([
    q.from,
    q.to,
    q.query,
    q.status,
    !!q.excludeEnded,
    q.limit,
    q.cursor,
    q.only?.key,
  ]);
  const cache = state.derived('calendar:pages', () => new Map<string, Computed>());
  const hit = cache.get(cacheKey);
  const t = now.getTime();
  if (hit && t < hit.validUntil) return hit.page;
  const limit = q.limit ?? PAGE_LIMIT.default;
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const f: Filter = {
    terms: queryTerms(q.query),
    tz: state.family.timezone,
    ...(q.status ? { status: q.status } : {}),
    ...(q.only ? { only: q.only } : {}),
    ...(q.excludeEnded ? { after: t } : {}),
  };
  const computed =
    q.from && q.to
      ? expanded(state, q.from, q.to, limit, after, f)
      : unexpanded(state, q, limit, after, f);
  if (cache.size >= 500) cache.clear();
  cache.set(cacheKey, computed);
  return computed.page;
}

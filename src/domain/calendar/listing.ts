/**
 * Listing calendar events.
 *
 * With both `from` and `to`, series are expanded into the occurrences that overlap the
 * inclusive window and everything is sorted by (date, all-day first, time, title, id,
 * occurrenceDate). Each series yields its occurrences lazily in that order, and a k-way merge
 * over all series takes only as many as the page needs (limit + 1 to know whether more follow),
 * so a one-year window of hundreds of series costs a page, not a year; a page also looks at
 * no more than SCAN_BUDGET of them, so a filter that matches little cannot make it walk a
 * century (the page then ends early with a cursor). Occurrences moved to
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
import { eventView, isSeries, occurrenceData, occurrenceView, type EventView } from './events.js';
import { endMs, seriesStarts } from './series.js';
import {
  compare,
  item,
  occurrencesOf,
  prepared,
  slack,
  within,
  type Item,
  type Key,
} from './listingItems.js';
import type { EventData, EventRecord } from './types.js';
import { collectText } from '../shared/text.js';

export interface EventListQuery {
  from?: string;
  to?: string;
  query?: string;
  status?: EntryStatus;
  excludeEnded?: boolean;
  limit?: number;
  cursor?: string;
}

export interface EventPage {
  events: EventView[];
  nextCursor?: string;
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

// ---- cursor ---------------------------------------------------------------------------------

function encodeCursor(k: Key): string {
  return Buffer.from(JSON.stringify(k), 'utf8').toString('base64url');
}

function decodeCursor(s: string): Key {
  try {
    const k = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(k) &&
      k.length === 6 &&
      typeof k[1] === 'number' &&
      k.every((v, i) => i === 1 || typeof v === 'string')
    )
      return k as Key;
  } catch {
    /* answered below */
  }
  throw Invalid.at(['query', 'cursor'], 'is not a cursor this list gave out');
}

// ---- filters --------------------------------------------------------------------------------

const texts = new WeakMap<object, string>();

const collect = (value: unknown, out: string[]): void => collectText(value, out);

/** Title and data values, folded (cached per stored record for unchanged occurrences). */
function searchText(it: Item): string {
  const exception = it.occurrenceDate ? it.ev.exceptions?.[it.occurrenceDate] : undefined;
  const holder: object = exception ?? it.ev;
  let t = texts.get(holder);
  if (t === undefined) {
    const parts = [it.title];
    const { date: _d, endDate: _e, time: _t, endTime: _et, ...rest } = it.data;
    collect(rest, parts);
    t = normalizeText(parts.join('\n'));
    texts.set(holder, t);
  }
  return t;
}

interface Filter {
  status?: EntryStatus;
  terms: string[];
  /** Only events ending after this instant (excludeEnded). */
  after?: number;
  tz: string;
}

/** Whether the item passes; for excludeEnded also its end (the page's expiry). */
function passes(it: Item, f: Filter): { ok: boolean; end?: number } {
  if (f.status ? it.status !== f.status : it.status === 'archived') return { ok: false };
  if (f.terms.length && !matchesTerms(searchText(it), f.terms)) return { ok: false };
  if (f.after !== undefined) {
    const end = endMs(it.data, f.tz);
    return { ok: end > f.after, end };
  }
  return { ok: true };
}

/**
 * Events and occurrences one page looks at, at most. A filter that matches little (a query, a
 * status) over a long window of many daily series would otherwise walk every occurrence of the
 * window (a century of a hundred daily series is 3.6 million) before answering; past this the
 * page ends early, perhaps short or empty, with a `nextCursor` after the last one looked at.
 * About 10–20 ms of work on a busy two-core machine (docs/performance.md).
 */
export const SCAN_BUDGET = 10_000;

/**
 * A page being filled: candidates in key order are offered one by one; those that pass are
 * kept up to `limit`, and no more than SCAN_BUDGET are looked at. The next page starts after the
 * last one listed, or, when the budget ran out first, after the last one looked at.
 */
class PageFill<T> {
  private readonly out: { item: T; key: Key }[] = [];
  private validUntil = Infinity;
  private resume: Key | undefined;
  private looked: Key | undefined;
  private examined = 0;

  constructor(private readonly limit: number) {}

  /** Looks at one candidate; false when the page is done (full, or out of budget). */
  offer(item: T, key: Key, check: () => { ok: boolean; end?: number }): boolean {
    if (++this.examined > SCAN_BUDGET) {
      this.resume = this.looked;
      return false;
    }
    const r = check();
    if (r.ok && this.out.length === this.limit) {
      this.resume = this.out[this.out.length - 1].key;
      return false;
    }
    this.looked = key;
    if (!r.ok) return true;
    if (r.end !== undefined) this.validUntil = Math.min(this.validUntil, r.end);
    this.out.push({ item, key });
    return true;
  }

  page(view: (item: T) => EventView): Computed {
    return {
      page: {
        events: this.out.map((o) => view(o.item)),
        ...(this.resume ? { nextCursor: encodeCursor(this.resume) } : {}),
      },
      validUntil: this.validUntil,
    };
  }
}

// ---- the merge ------------------------------------------------------------------------------

class Heap {
  private a: { it: Item; src: Iterator<Item> }[] = [];
  get size(): number {
    return this.a.length;
  }
  push(src: Iterator<Item>): void {
    const n = src.next();
    if (n.done) return;
    const a = this.a;
    a.push({ it: n.value, src });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compare(a[p].it.key, a[i].it.key) <= 0) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): Item {
    const a = this.a;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && compare(a[l].it.key, a[m].it.key) < 0) m = l;
        if (r < a.length && compare(a[r].it.key, a[m].it.key) < 0) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    this.push(top.src);
    return top.it;
  }
}

function* arrayFrom<T>(list: readonly T[], start: number): Generator<T> {
  for (let i = start; i < list.length; i++) yield list[i];
}

interface Computed {
  page: EventPage;
  validUntil: number;
}

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
    heap.push(occurrencesOf(ev, walkFrom, to, f.tz));
  }
  const moved = p.moved.filter((it) => within(it, from, to));
  heap.push(arrayFrom(moved, 0));
  const fill = new PageFill<Item>(limit);
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
  if (f.status ? it.status !== f.status : it.status === 'archived') return { ok: false };
  if (f.terms.length && !matchesTerms(searchText(it), f.terms)) return { ok: false };
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
  const fill = new PageFill<Item>(limit);
  for (let i = lo; i < p.events.length; i++) {
    const ev = p.events[i];
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

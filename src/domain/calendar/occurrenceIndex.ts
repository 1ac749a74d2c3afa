/**
 * An index of expanded occurrences, per family, in month buckets: for one calendar and one UTC
 * month, every event's occurrences that overlap the month, with their instants (series.ts,
 * occurrencesFrom). A question over a time range (a CalDAV calendar-query, its `expand`) then
 * reads the few buckets the range touches instead of expanding every series again: the work of a
 * query no longer depends on how new its window is, only on what it answers.
 *
 * It is derived state of the family (FamilyState.followed), kept beside the records it comes
 * from:
 * - **never stale**: it follows the state's change journal, so the first read after a commit
 *   brings it up to date with exactly the records that commit applied, event by event (a
 *   changed event is expanded again into the buckets held, a deleted one leaves them); a change
 *   of the family's zone, of a collection, or more changes than the journal holds drop it, and
 *   buckets are built again as they are asked for.
 * - **never read before durable**: the actor applies a batch to the state only once it is
 *   durable for readers (reads wait while a batch is written), and the index is read and
 *   followed only inside such reads.
 * - **a consistent snapshot**: a window taken in one read answers what that read saw even
 *   when later parts of a long answer run after another write: each bucket records the state
 *   version that last changed it, and a bucket changed after the window was taken is not used
 *   (the window expands that event itself, as without the index).
 * - **bounded**: windows of up to INDEX_LIMITS.windowMonths months are served from buckets,
 *   longer or open ones by the lazy walk; a family keeps at most INDEX_LIMITS.buckets buckets and
 *   INDEX_LIMITS.occurrences occurrences, the least recently used going first, and a month with
 *   more than INDEX_LIMITS.bucketOccurrences occurrences is not held at all.
 *
 * Whatever the index answers equals occurrencesFrom for the same event, zone and range:
 * an occurrence overlapping the range overlaps one of the months it touches, each month holds
 * its occurrences in start order, and one that runs from one month into the next is taken from
 * the earlier month only.
 */
import { isCalendar, getCollection } from '../collections/collections.js';
import { entriesOf } from '../collections/listing.js';
import { COLLECTIONS, ENTRIES, type Entry } from '../collections/types.js';
import type { FamilyState, RecordChange } from '../shared/state.js';
import {
  occurrencesFrom,
  occurrencesOverlapping,
  type InstantRange,
  type TimedOccurrence,
} from './series.js';
import type { EventRecord } from './types.js';

export const INDEX_LIMITS = {
  /** The longest range (in months it touches) served from buckets: a year and its edges. */
  windowMonths: 14,
  /** Buckets one family keeps (over all its calendars). */
  buckets: 48,
  /** Occurrences one family keeps in all its buckets together. */
  occurrences: 60_000,
  /** A month of one calendar holding more than this is not kept (expanded per query instead). */
  bucketOccurrences: 20_000,
  /** Changed events followed one by one; past this in one catch-up the index starts again. */
  followedEvents: 256,
} as const;

/** An event's occurrences in one bucket, and the record they were expanded from. */
interface Held {
  ev: EventRecord;
  list: TimedOccurrence[];
}

interface Bucket {
  collectionKey: string;
  /** Months since January 1970 (UTC). */
  month: number;
  /** The month's instants; the same object for the bucket's life (series.ts keys its dates by it). */
  range: InstantRange;
  /** Events with at least one occurrence in the month, by id; null: too many to keep. */
  byEvent: Map<string, Held> | null;
  count: number;
  /** The state version that built or last changed it. */
  changedAt: number;
  usedAt: number;
}

interface Index {
  tz: string;
  buckets: Map<string, Bucket>;
  count: number;
  tick: number;
}

const KEY = 'calendar:occurrenceIndex';

const bucketKey = (collectionKey: string, month: number) => `${collectionKey}|${month}`;

function monthOf(ms: number): number {
  const d = new Date(ms);
  return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
}

/** Date.UTC normalizes any month number, before 1970 and past December alike. */
const monthStart = (month: number) => Date.UTC(1970, month, 1);

/** Instants the index holds months for: the years events may have (series.ts clamps to them). */
const FIRST = Date.UTC(1900, 0, 1);
const LAST = Date.UTC(2200, 0, 1);

function indexOf(state: FamilyState): Index {
  const idx = state.followed<Index>(
    KEY,
    () => ({ tz: state.family.timezone, buckets: new Map(), count: 0, tick: 0 }),
    (value, changes) => follow(state, value, changes),
  );
  return idx;
}

/**
 * Brings the index up to the state after `changes`: each changed event leaves every bucket and
 * is expanded again into the buckets held for its calendar. False (start again) on a zone
 * change, a changed collection, or too many changed events.
 */
function follow(state: FamilyState, idx: Index, changes: readonly RecordChange[]): boolean {
  if (idx.tz !== state.family.timezone) return false;
  const held = new Set<string>();
  for (const b of idx.buckets.values()) held.add(b.collectionKey);
  let events = 0;
  for (const c of changes) {
    if (c.table === COLLECTIONS) return false;
    if (c.table !== ENTRIES) continue;
    const entry = c.value as Entry | null | undefined;
    // An entry of a list, or of a calendar nobody asked about (events only move between calendars).
    if (entry && !held.has(entry.collectionKey)) continue;
    if (++events > INDEX_LIMITS.followedEvents) return false;
    for (const [key, b] of idx.buckets) refollow(state, idx, b, key, c.id, entry);
  }
  evict(idx);
  return true;
}

/** One changed (or deleted: null) entry in one bucket. */
function refollow(
  state: FamilyState,
  idx: Index,
  b: Bucket,
  key: string,
  id: string,
  entry: Entry | null | undefined,
): void {
  const sameCalendar = entry?.collectionKey === b.collectionKey;
  if (!b.byEvent) {
    // A month too full to keep may fit now: it is looked at again when next asked.
    if (sameCalendar) idx.buckets.delete(key);
    return;
  }
  const before = b.byEvent.get(id);
  if (before) {
    b.byEvent.delete(id);
    b.count -= before.list.length;
    idx.count -= before.list.length;
    b.changedAt = state.version;
  }
  if (!entry || !sameCalendar) return;
  const ev = entry as EventRecord;
  const list = occurrencesOverlapping(ev, idx.tz, b.range);
  if (!list.length) return;
  b.byEvent.set(id, { ev, list });
  b.count += list.length;
  idx.count += list.length;
  b.changedAt = state.version;
}

function build(state: FamilyState, idx: Index, collectionKey: string, month: number): Bucket {
  const range = { start: monthStart(month), end: monthStart(month + 1) };
  const b: Bucket = {
    collectionKey,
    month,
    range,
    byEvent: new Map(),
    count: 0,
    changedAt: state.version,
    usedAt: 0,
  };
  for (const e of entriesOf(state, collectionKey)) {
    const ev = e as EventRecord;
    const list = occurrencesOverlapping(ev, idx.tz, range);
    if (!list.length) continue;
    b.byEvent!.set(ev.id, { ev, list });
    b.count += list.length;
    if (b.count > INDEX_LIMITS.bucketOccurrences) {
      b.byEvent = null;
      b.count = 0;
      break;
    }
  }
  idx.count += b.count;
  return b;
}

/** Drops the least recently used buckets until the family is within its limits. */
function evict(idx: Index): void {
  if (idx.buckets.size <= INDEX_LIMITS.buckets && idx.count <= INDEX_LIMITS.occurrences) return;
  const byUse = [...idx.buckets].sort((a, b) => a[1].usedAt - b[1].usedAt);
  for (const [key, b] of byUse) {
    if (idx.buckets.size <= INDEX_LIMITS.buckets && idx.count <= INDEX_LIMITS.occurrences) break;
    idx.buckets.delete(key);
    idx.count -= b.count;
  }
}

/** The occurrences of events in one range of one calendar, as one read of the family saw them. */
export interface OccurrenceWindow {
  readonly range: InstantRange;
  /**
   * The event's occurrences that overlap the range, in start order (removed ones left out,
   * moved ones where they are): what occurrencesFrom answers, from the index when it can.
   */
  occurrences(ev: EventRecord): Iterable<TimedOccurrence>;
  /** Whether any occurrence of the event overlaps the range. */
  any(ev: EventRecord): boolean;
  /**
   * The same occurrences as runs of the index's own lists (`list[from]` up to, not including,
   * `list[to]`), or null when the window does not answer from the index for this event. The
   * lists live as long as the bucket holds the record, so a caller may keep what it derives from
   * one (its text, say) by the list.
   */
  runs(ev: EventRecord): readonly OccurrenceRun[] | null;
}

/** A stretch of one bucket's list of an event's occurrences. */
export interface OccurrenceRun {
  readonly list: readonly TimedOccurrence[];
  readonly from: number;
  readonly to: number;
}

/**
 * A window over the occurrences of calendar `collectionKey` in `r`, taken now: the buckets it
 * needs are built (or found) at once, so take it in the same read as the records it will be
 * asked about. Ranges the index does not serve (too long, open, not a calendar) give a window
 * that expands each event itself.
 */
export function occurrenceWindow(
  state: FamilyState,
  collectionKey: string,
  r: InstantRange,
): OccurrenceWindow {
  const tz = state.family.timezone;
  const buckets = bucketsFor(state, collectionKey, r);
  return buckets ? new Indexed(tz, r, buckets, state.version) : new Walked(tz, r);
}

function bucketsFor(state: FamilyState, collectionKey: string, r: InstantRange): Bucket[] | null {
  if (r.start < FIRST || r.end > LAST || r.end <= r.start) return null;
  const first = monthOf(r.start);
  const last = monthOf(r.end - 1);
  if (last - first + 1 > INDEX_LIMITS.windowMonths) return null;
  const c = getCollection(state, collectionKey);
  if (!c || !isCalendar(c)) return null;
  const idx = indexOf(state);
  const out: Bucket[] = [];
  for (let m = first; m <= last; m++) {
    const key = bucketKey(collectionKey, m);
    let b = idx.buckets.get(key);
    if (!b) idx.buckets.set(key, (b = build(state, idx, collectionKey, m)));
    b.usedAt = ++idx.tick;
    out.push(b);
  }
  evict(idx);
  return out;
}

/** Overlap as series.ts decides it: a zero-length occurrence overlaps where it starts. */
function overlaps(o: TimedOccurrence, r: InstantRange): boolean {
  return o.start < r.end && (o.end > r.start || (o.end === o.start && o.start >= r.start));
}

class Walked implements OccurrenceWindow {
  constructor(
    private readonly tz: string,
    readonly range: InstantRange,
  ) {}
  occurrences(ev: EventRecord): Iterable<TimedOccurrence> {
    return occurrencesFrom(ev, this.tz, this.range);
  }
  any(ev: EventRecord): boolean {
    return !occurrencesFrom(ev, this.tz, this.range).next().done;
  }
  runs(_ev: EventRecord): readonly OccurrenceRun[] | null {
    return null;
  }
}

class Indexed extends Walked {
  constructor(
    tz: string,
    range: InstantRange,
    private readonly buckets: Bucket[],
    private readonly version: number,
  ) {
    super(tz, range);
  }

  /** The event's lists per bucket, or null when a bucket cannot answer for this record. */
  private lists(ev: EventRecord): (TimedOccurrence[] | undefined)[] | null {
    const out: (TimedOccurrence[] | undefined)[] = [];
    for (const b of this.buckets) {
      if (!b.byEvent || b.changedAt > this.version) return null;
      const held = b.byEvent.get(ev.id);
      if (held && held.ev !== ev) return null;
      out.push(held?.list);
    }
    return out;
  }

  override runs(ev: EventRecord): readonly OccurrenceRun[] | null {
    const lists = this.lists(ev);
    if (!lists) return null;
    const { start, end } = this.range;
    const out: OccurrenceRun[] = [];
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i];
      if (!list) continue;
      // One that began in the month before is that month's (it was taken there).
      const begin = i === 0 ? -Infinity : this.buckets[i].range.start;
      const n = list.length;
      let from = -1;
      let k = 0;
      // In start order: past the range's end, nothing later overlaps it. overlaps() is spelled
      // out here: this runs for every occurrence a query looks at.
      for (; k < n; k++) {
        const o = list[k];
        if (o.start >= end) break;
        const inside =
          o.start >= begin && (o.end > start || (o.end === o.start && o.start >= start));
        if (inside && from < 0) from = k;
        else if (!inside && from >= 0) {
          out.push({ list, from, to: k });
          from = -1;
        }
      }
      if (from >= 0) out.push({ list, from, to: k });
    }
    return out;
  }

  override occurrences(ev: EventRecord): Iterable<TimedOccurrence> {
    const runs = this.runs(ev);
    if (!runs) return super.occurrences(ev);
    const out: TimedOccurrence[] = [];
    for (const { list, from, to } of runs) for (let k = from; k < to; k++) out.push(list[k]);
    return out;
  }

  override any(ev: EventRecord): boolean {
    const lists = this.lists(ev);
    if (!lists) return super.any(ev);
    const r = this.range;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i];
      if (!list) continue;
      const inside = this.buckets[i].range.start >= r.start && this.buckets[i].range.end <= r.end;
      if (inside || list.some((o) => overlaps(o, r))) return true;
    }
    return false;
  }
}

/** How much the family's index holds (for tests and the bench). */
export function occurrenceIndexSize(state: FamilyState): { buckets: number; occurrences: number } {
  const idx = indexOf(state);
  return { buckets: idx.buckets.size, occurrences: idx.count };
}

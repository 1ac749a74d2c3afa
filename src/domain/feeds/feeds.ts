/**
 * Linking, changing and removing external calendar feeds, and asking for a refresh
 * (docs/feeds.md). The feed was fetched and parsed before any of these run: commands carry the
 * result (no I/O inside a command).
 *
 * Change log: linking logs `collection.created` (the feed's read-only calendar) and
 * `external_calendar.created` with the event count — not one record per event; removing logs
 * `collection.deleted` and `external_calendar.deleted` (plans log their unlinks); a refresh
 * that changed something logs `external_calendar.updated` (refresh.ts).
 */
import { collectionView, decideCreateCollection } from '../collections/collections.js';
import { entriesOf } from '../collections/listing.js';
import { COLLECTIONS, ENTRIES, type Collection } from '../collections/types.js';
import { Conflict } from '../shared/errors.js';
import { applyPatch, cleanSent, type CreateOf } from '../shared/record.js';
import type {
  CommandContext,
  Decision,
  FamilyState,
  LogEvent,
  RecordChange,
} from '../shared/state.js';
import { mergeFeedItems } from './merge.js';
import { refreshJobId, scheduleNext, scheduleNow } from './schedule.js';
import {
  FEEDS,
  FEED_FIELDS,
  FEED_NAME_MAX,
  type CalendarFeed,
  type FeedSnapshot,
} from './types.js';
import type { FeedAddress } from './url.js';
import { feedView, listFeeds, requireFeed, type FeedView } from './views.js';
import { noChange } from '../shared/decision.js';

function defaultName(snapshot: FeedSnapshot, address: FeedAddress): string {
  const name = snapshot.calendarName?.trim() || new URL(address.url).hostname;
  return Array.from(name).slice(0, FEED_NAME_MAX).join('');
}

/** The fields a link sends (its URL read into `address`), and what the fetch brought. */
export type LinkFeedInput = Omit<CreateOf<typeof FEED_FIELDS>, 'url'> & {
  address: FeedAddress;
  snapshot: FeedSnapshot;
  /** `calendarFeeds.refreshMinutes`. */
  refreshMinutes: number;
};

export interface LinkedFeed {
  feed: CalendarFeed;
  view: FeedView;
}

/**
 * Links a feed that was just fetched and parsed: its read-only calendar (`category: calendar`,
 * `sourceId`), its events, and its first scheduled refresh. The calendar's name is the feed's
 * name, so a name another collection already has answers 409, as creating a collection does.
 */
export function decideLinkFeed(
  state: FamilyState,
  input: LinkFeedInput,
  ctx: CommandContext,
): Decision<LinkedFeed> {
  const sent = cleanSent(FEED_FIELDS, { name: input.name, hint: input.hint });
  const name = sent.name ?? defaultName(input.snapshot, input.address);
  const id = ctx.newId('src');
  const made = decideCreateCollection(
    state,
    { name, category: 'calendar', ...(input.color ? { color: input.color } : {}) },
    ctx,
  );
  const calendar: Collection = { ...made.result, sourceId: id };
  const at = ctx.now.toISOString();
  const snap = input.snapshot;
  const merged = mergeFeedItems(state, { id, calendarKey: calendar.key }, snap.items, ctx);
  const feed: CalendarFeed = {
    id,
    name: calendar.name,
    color: calendar.color,
    hint: sent.hint ?? null,
    url: input.address.url,
    credentials: input.address.credentials,
    calendarKey: calendar.key,
    eventCount: merged.count,
    calendarName: snap.calendarName,
    lastSyncedAt: at,
    lastError: null,
    lastErrorAt: null,
    etag: snap.etag,
    lastModified: snap.lastModified,
    bodyHash: snap.bodyHash,
    ttlMinutes: snap.ttlMinutes,
    zone: snap.zone,
    createdAt: at,
    updatedAt: at,
  };
  const next = scheduleNext(feed, ctx.now, input.refreshMinutes);
  const view = feedView(state, feed, 'put' in next ? next.put.dueAt : null);
  return {
    result: { feed, view },
    changes: [
      { table: COLLECTIONS, id: calendar.key, value: calendar },
      { table: FEEDS, id, value: feed },
      ...merged.changes,
    ],
    events: [
      { type: 'collection.created', object: collectionView(calendar) },
      { type: 'external_calendar.created', object: { ...view, skippedEvents: snap.skipped } },
    ],
    agenda: [next, ...merged.agenda],
  };
}

/** PATCH: only the hint may change (null or blank clears it). */
export function decideUpdateFeedHint(
  state: FamilyState,
  id: string,
  hint: string | null,
  ctx: CommandContext,
): Decision<FeedView> {
  const before = requireFeed(state, id);
  const { next, changed } = applyPatch(FEED_FIELDS, before, { hint });
  if (!changed) return noChange(feedView(state, before));
  next.updatedAt = ctx.now.toISOString();
  const view = feedView(state, next);
  return {
    result: view,
    changes: [{ table: FEEDS, id, value: next }],
    events: [
      { type: 'external_calendar.updated', object: view, previous: feedView(state, before) },
    ],
  };
}

export interface RemovedFeed {
  view: FeedView;
  deletedEvents: number;
}

/** Removes the feed, its calendar and its events; plans drop their links to them. */
export function decideDeleteFeed(
  state: FamilyState,
  id: string,
  ctx: CommandContext,
): Decision<RemovedFeed> {
  const feed = requireFeed(state, id);
  const calendar = state.get<Collection>(COLLECTIONS, feed.calendarKey);
  const ids = entriesOf(state, feed.calendarKey).map((e) => e.id);
  const changes: RecordChange[] = [{ table: FEEDS, id, value: null }];
  const events: LogEvent[] = [];
  if (calendar) {
    changes.push({ table: COLLECTIONS, id: calendar.key, value: null });
    events.push({
      type: 'collection.deleted',
      object: { ...collectionView(calendar), deletedEntries: ids.length },
    });
  }
  for (const e of ids) changes.push({ table: ENTRIES, id: e, value: null });
  const more = ctx.react.eventsRemoved(state, ids, ctx);
  const view = feedView(state, feed, null);
  events.push(
    { type: 'external_calendar.deleted', object: { ...view, deletedEvents: ids.length } },
    ...more.events,
  );
  return {
    result: { view, deletedEvents: ids.length },
    changes: [...changes, ...more.changes],
    events,
    agenda: [{ remove: refreshJobId(id) }, ...(more.agenda ?? [])],
  };
}

/** Queues a refresh now; the scheduler runs it (the answer does not wait for it). */
export function decideRequestRefresh(
  state: FamilyState,
  id: string,
  ctx: CommandContext,
): Decision<FeedView> {
  const feed = requireFeed(state, id);
  const now = scheduleNow(id, ctx.now);
  const view = feedView(state, feed, ctx.now.getTime());
  return {
    result: view,
    changes: [],
    events: [{ type: 'external_calendar.refresh_requested', object: view }],
    agenda: [now],
  };
}

/**
 * 409 when a feed's calendar name would clash; used by link before fetching (a cheap early answer).
 */
export function assertNameFree(state: FamilyState, name: string): void {
  const folded = name.trim().toLowerCase();
  for (const c of state.table<Collection>(COLLECTIONS).values()) {
    if (c.name.toLowerCase() === folded)
      throw new Conflict(
        `A collection named ${JSON.stringify(c.name)} already exists (key ${c.key})`,
        [{ path: ['name'], message: 'is already taken' }],
      );
  }
}

export { listFeeds };

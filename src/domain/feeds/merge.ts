/**
 * Laying a feed's events over the stored ones (link and every refresh).
 *
 * Each feed item maps to the record with its stable id. An item whose fingerprint matches the
 * stored record changes nothing — the feed's DTSTAMP never enters the fingerprint, so a feed
 * that only re-stamps its events writes nothing. A new or changed item replaces the feed-owned
 * fields and keeps the family's overlay: every other event field (note, people, attendance,
 * reminders, travel plan…), the status, and the family's own changes to single occurrences.
 * Records the feed no longer has are deleted, and plans drop their links in the same decision.
 */
import { entriesOf } from '../collections/listing.js';
import { ENTRIES } from '../collections/types.js';
import { FEED_OWNED, type EventRecord, type OccurrenceException } from '../calendar/types.js';
import type {
  CommandContext,
  FamilyState,
  LogEvent,
  RecordChange,
  AgendaChange,
} from '../shared/state.js';
import { feedOccurrenceOn } from './expand.js';
import { feedEventId } from './identity.js';
import type { FeedItem } from './types.js';

export interface MergeOutcome {
  changes: RecordChange[];
  /** Log events of other areas (plans unlinking removed events). */
  events: LogEvent[];
  /**
   * Jobs of other areas: reminders, checks and alerts of changed events move, of removed ones go.
   */
  agenda: AgendaChange[];
  added: EventRecord[];
  changed: EventRecord[];
  removed: string[];
  /** Records of the feed after the merge. */
  count: number;
  /**
   * An id named unchanged that the store does not hold with that fingerprint (the snapshot was
   * taken against other records): the caller forgets the feed's validators so the next refresh
   * reads it in full again.
   */
  stale: boolean;
}

/** The family's own fields of event data: everything the feed does not own. */
function overlay(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data ?? {})) if (!FEED_OWNED.has(k)) out[k] = v;
  return out;
}

function occursOn(item: FeedItem, date: string): boolean {
  return item.recur ? feedOccurrenceOn(item.recur, date) !== undefined : item.data.date === date;
}

/**
 * The feed's exceptions, with the family's own occurrence changes laid on top where they still
 * apply.
 */
function exceptionsOf(
  item: FeedItem,
  before: EventRecord | undefined,
  at: string,
): Record<string, OccurrenceException> | undefined {
  const out: Record<string, OccurrenceException> = {};
  for (const [date, x] of Object.entries(item.exceptions ?? {}))
    out[date] = { ...x, updatedAt: at };
  for (const [date, x] of Object.entries(before?.exceptions ?? {})) {
    const mine = overlay(x.data);
    const family: Partial<OccurrenceException> = {
      ...(x.status !== undefined ? { status: x.status } : {}),
      ...(Object.keys(mine).length ? { data: mine } : {}),
    };
    if (!Object.keys(family).length || !occursOn(item, date)) continue;
    const feed = out[date];
    out[date] = {
      ...(feed ?? {}),
      ...family,
      ...(feed?.data || family.data
        ? { data: { ...(feed?.data ?? {}), ...(family.data ?? {}) } }
        : {}),
      updatedAt: feed ? at : x.updatedAt,
    };
  }
  return Object.keys(out).length
    ? Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)))
    : undefined;
}

function record(
  item: FeedItem,
  id: string,
  sourceId: string,
  calendarKey: string,
  before: EventRecord | undefined,
  at: string,
): EventRecord {
  const exceptions = exceptionsOf(item, before, at);
  return {
    id,
    collectionKey: calendarKey,
    title: item.title,
    status: before?.status ?? 'active',
    data: { ...item.data, ...overlay(before?.data) },
    ...(exceptions ? { exceptions } : {}),
    sourceId,
    feed: {
      uid: item.uid,
      recurrenceId: item.recurrenceId,
      fingerprint: item.fingerprint,
      ...(item.recur ? { recur: item.recur } : {}),
    },
    createdAt: before?.createdAt ?? at,
    updatedAt: at,
  };
}

/**
 * The changes that make the feed's calendar hold exactly `items` plus the `unchanged` ids (those
 * a refresh found equal to what is stored).
 */
export function mergeFeedItems(
  state: FamilyState,
  feed: { id: string; calendarKey: string },
  items: readonly FeedItem[],
  ctx: CommandContext,
  unchanged: readonly string[] = [],
): MergeOutcome {
  const at = ctx.now.toISOString();
  const stored = new Map<string, EventRecord>();
  for (const e of entriesOf(state, feed.calendarKey) as readonly EventRecord[]) stored.set(e.id, e);
  const seen = new Set<string>();
  const out: MergeOutcome = {
    changes: [],
    events: [],
    agenda: [],
    added: [],
    changed: [],
    removed: [],
    count: 0,
    stale: false,
  };
  for (const id of unchanged) {
    if (stored.get(id)?.feed) seen.add(id);
    else out.stale = true;
  }
  for (const item of items) {
    const id = item.id ?? feedEventId(feed.id, item.key);
    if (seen.has(id)) continue;
    seen.add(id);
    const before = stored.get(id);
    if (before?.feed?.fingerprint === item.fingerprint) continue;
    const next = record(item, id, feed.id, feed.calendarKey, before, at);
    out.changes.push({ table: ENTRIES, id, value: next });
    (before ? out.changed : out.added).push(next);
    // A changed event's reminders, leave-by, checks and coverage alert follow its new times (a
    // new one has no family fields yet, so nothing of it is scheduled).
    if (before) {
      const r = ctx.react.eventChanged(state, next, ctx);
      out.changes.push(...r.changes);
      out.events.push(...r.events);
      if (r.agenda) out.agenda.push(...r.agenda);
    }
  }
  for (const id of stored.keys()) {
    if (seen.has(id)) continue;
    out.removed.push(id);
    out.changes.push({ table: ENTRIES, id, value: null });
  }
  const more = ctx.react.eventsRemoved(state, out.removed, ctx);
  out.changes.push(...more.changes);
  out.events.push(...more.events);
  if (more.agenda) out.agenda.push(...more.agenda);
  out.count = seen.size;
  return out;
}

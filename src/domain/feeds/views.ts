/**
 * Reading feeds: lookups and the view the API and the change log show. The URL appears only
 * masked, the credentials never.
 */
import { entriesOf } from '../collections/listing.js';
import type { EventRecord } from '../calendar/types.js';
import { AGENDA_TABLE } from '../shared/agenda.js';
import { NotFound } from '../shared/errors.js';
import type { AgendaJob, FamilyState } from '../shared/state.js';
import { refreshJobId } from './schedule.js';
import { FEEDS, type CalendarFeed } from './types.js';
import { maskedUrl } from './url.js';

export interface FeedView {
  sourceId: string;
  name: string;
  color: CalendarFeed['color'];
  hint: string | null;
  calendarKey: string;
  eventCount: number;
  lastSyncedAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Scheme and host; path and query masked. */
  url: string;
  calendarName: string | null;
  /** The feed's own REFRESH-INTERVAL / X-PUBLISHED-TTL (minutes), when it states one. */
  ttlMinutes: number | null;
  nextRefreshAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function getFeed(state: FamilyState, id: string): CalendarFeed | undefined {
  return state.get<CalendarFeed>(FEEDS, id);
}

export function requireFeed(state: FamilyState, id: string): CalendarFeed {
  const f = getFeed(state, id);
  if (!f) throw new NotFound(`No external calendar ${id} in this family`);
  return f;
}

/** Feeds, oldest first. */
export function listFeeds(state: FamilyState): CalendarFeed[] {
  return Array.from(state.table<CalendarFeed>(FEEDS).values());
}

/**
 * The feed as the API shows it. A decision that moves the refresh job passes the new due time
 * (`dueAt`), since its own agenda change is not in the state yet.
 */
export function feedView(state: FamilyState, f: CalendarFeed, dueAt?: number | null): FeedView {
  const due =
    dueAt !== undefined
      ? dueAt
      : (state.get<AgendaJob>(AGENDA_TABLE, refreshJobId(f.id))?.dueAt ?? null);
  return {
    sourceId: f.id,
    name: f.name,
    color: f.color,
    hint: f.hint,
    calendarKey: f.calendarKey,
    eventCount: f.eventCount,
    lastSyncedAt: f.lastSyncedAt,
    lastError: f.lastError,
    lastErrorAt: f.lastErrorAt,
    url: maskedUrl(f.url),
    calendarName: f.calendarName,
    ttlMinutes: f.ttlMinutes,
    nextRefreshAt: due === null ? null : new Date(due).toISOString(),
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

/** Fingerprints of the feed's stored events by id: a refresh's reader compares against them. */
export function feedFingerprints(state: FamilyState, f: CalendarFeed): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entriesOf(state, f.calendarKey) as readonly EventRecord[])
    if (e.feed) out[e.id] = e.feed.fingerprint;
  return out;
}

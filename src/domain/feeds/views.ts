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
import { FEEDS, FEED_FIELDS, type CalendarFeed } from './types.js';
import { viewFields, type Derived, type ViewOf } from '../shared/record.js';
import { maskedUrl } from './url.js';

/** Fields of the answer that are not stored as they are shown (record.ts, `Derived`). */
interface ViewContext {
  /** When the feed's next refresh is due (ms), or null. */
  due: number | null;
}

/** The answer's `sourceId`, the URL masked, and the next refresh (the agenda's). */
export const FEED_DERIVED: Record<string, Derived<CalendarFeed, ViewContext>> = {
  sourceId: {
    after: 'id',
    schema: { type: 'string', pattern: '^src_[0-9a-z]{20}$' },
    of: (f) => f.id,
  },
  url: {
    after: 'url',
    schema: {
      type: 'string',
      description: 'Scheme and host; path and query masked (private feed URLs are secrets)',
    },
    of: (f) => maskedUrl(f.url),
  },
  nextRefreshAt: {
    after: 'ttlMinutes',
    schema: { type: ['string', 'null'], format: 'date-time' },
    of: (_f, { due }) => (due === null ? null : new Date(due).toISOString()),
  },
};

/** The feed as the API shows it and as `external_calendar.*` records carry it. */
export type FeedView = ViewOf<typeof FEED_FIELDS> & {
  sourceId: string;
  /** Scheme and host; path and query masked. */
  url: string;
  nextRefreshAt: string | null;
};

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
  return viewFields(FEED_FIELDS, f, FEED_DERIVED, { due }) as FeedView;
}

/** Fingerprints of the feed's stored events by id: a refresh's reader compares against them. */
export function feedFingerprints(state: FamilyState, f: CalendarFeed): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entriesOf(state, f.calendarKey) as readonly EventRecord[])
    if (e.feed) out[e.id] = e.feed.fingerprint;
  return out;
}

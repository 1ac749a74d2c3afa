/**
 * Records of the external-calendar area (docs/feeds.md).
 *
 * A linked feed is one record in table `calendar_feeds` plus a read-only calendar collection
 * (`sourceId` set) whose entries are the feed's events. A feed event is an ordinary calendar
 * event record with `sourceId` and `feed` set: its feed-owned fields (title, timing, place,
 * description, recurrence) are rewritten by every refresh, everything else is the family's
 * overlay and stays. A repeating feed event keeps the feed's own rule in `feed.recur` and is
 * expanded at query time; the feed's moved and cancelled occurrences are exceptions on it,
 * keyed like every other exception by the occurrence's original local start date.
 */
import { NAMED_COLORS } from '../collections/types.js';
import { field, timestamp, type RecordOf } from '../shared/record.js';
import { S } from '../shared/schema.js';

export const FEEDS = 'calendar_feeds';

/** What a refresh brought that the household asked to hear about (intake.ts). */
export interface IntakeUpdate {
  sourceId: string;
  feedName: string;
  /** The matching events' titles, in feed order, each once. */
  titles: string[];
  eventIds: string[];
  /** The plain text of the notification: "New in <feed name>: <titles>". */
  title: string;
}

/** Agenda job kind of a feed's scheduled (or requested) refresh. */
export const FEED_REFRESH = 'feed.refresh';

/** Feed limits the parser enforces itself (bytes and time are the fetch's). */
export const MAX_FEED_EVENTS = 20_000;
export const HINT_MAX = 500;
export const FEED_NAME_MAX = 100;
export const FEED_URL_MAX = 2048;
/** A feed's REFRESH-INTERVAL may lengthen the refresh interval, but not past a day. */
export const MAX_FEED_TTL_MINUTES = 1440;

export interface FeedCredentials {
  username: string;
  password: string;
}

const own = { create: 'never', patch: 'never', view: 'always' } as const;
const hidden = { create: 'never', patch: 'never', view: 'never' } as const;
const nullableText = S.string();

/**
 * Every field of a linked feed, once (src/domain/shared/record.ts), in the answer's order. The
 * answer names the id `sourceId` and shows the URL masked (both `FEED_DERIVED`, views.ts); the
 * credentials and the refresh's validators are never shown.
 */
export const FEED_FIELDS = {
  id: field(S.string(), hidden),
  /** Default (a link without one): the feed's X-WR-CALNAME, else its host. */
  name: field(
    S.string({
      min: 1,
      max: FEED_NAME_MAX,
      description:
        "Name of the feed and its calendar; default the feed's X-WR-CALNAME, else its host",
    }),
    {
      create: 'optional',
      patch: 'never',
      view: 'always',
      clean: (v) => v.trim(),
      check: (v) => v !== '' || 'must not be blank',
    },
  ),
  /** Its calendar's colour; a link without one leaves it unset. */
  color: field(S.enums(NAMED_COLORS), {
    create: 'optional',
    patch: 'never',
    nullable: 'patch',
    view: 'always',
  }),
  hint: field(
    S.string({
      max: HINT_MAX,
      description:
        "Words that make a refresh notify (intake_update) when a new or changed event's title or description contains one; null or blank clears",
    }),
    {
      create: 'optional',
      patch: 'value',
      nullable: true,
      view: 'always',
      clean: (v) => v.trim() || null,
      check: (v) => Array.from(v).length <= HINT_MAX || `must be at most ${HINT_MAX} characters`,
    },
  ),
  calendarKey: field(S.string(), {
    ...own,
    response: {
      type: 'string',
      description: "The read-only calendar collection holding the feed's events",
    },
  }),
  eventCount: field(S.integer(0), own),
  /** Last fetch that succeeded (also when nothing had changed). */
  lastSyncedAt: field(timestamp, {
    ...own,
    nullable: true,
    response: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Last successful fetch (also when nothing had changed)',
    },
  }),
  lastError: field(nullableText, {
    ...own,
    nullable: true,
    response: {
      type: ['string', 'null'],
      description: 'Why the last refresh failed; null after a good one. The last good events stay.',
    },
  }),
  lastErrorAt: field(timestamp, { ...own, nullable: true }),
  /** What is fetched: http or https (webcal read as https), without credentials. */
  url: field(
    S.string({
      min: 1,
      max: FEED_URL_MAX,
      description:
        'http, https or webcal (read as https); user:password@ in the URL is sent as Basic auth and never shown again',
    }),
    { create: 'required', patch: 'never', view: 'never' },
  ),
  /** X-WR-CALNAME (or NAME) of the last good fetch. */
  calendarName: field(nullableText, {
    ...own,
    nullable: true,
    response: { type: ['string', 'null'], description: "The feed's own X-WR-CALNAME" },
  }),
  /** The feed's own REFRESH-INTERVAL / X-PUBLISHED-TTL in minutes, when it states one. */
  ttlMinutes: field(S.integer(), {
    ...own,
    nullable: true,
    response: {
      type: ['integer', 'null'],
      description:
        "The feed's REFRESH-INTERVAL / X-PUBLISHED-TTL; it may lengthen the refresh interval",
    },
  }),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
  /** From the URL's user-info; sent as Basic auth, never shown. */
  credentials: field(S.object({ username: S.string(), password: S.string() }), {
    ...hidden,
    nullable: true,
  }),
  /** Validators and body hash of the last good fetch, for conditional and skipped refreshes. */
  etag: field(nullableText, { ...hidden, nullable: true }),
  lastModified: field(nullableText, { ...hidden, nullable: true }),
  bodyHash: field(nullableText, { ...hidden, nullable: true }),
  /** The family's zone the events were read in; another zone means reading them again. */
  zone: field(S.string(), hidden),
};

export type CalendarFeed = RecordOf<typeof FEED_FIELDS>;

/**
 * The recurrence of a repeating feed event, as the feed wrote it. Local dates of occurrences
 * are computed in `zone` (the family's zone when the feed was read) at query time.
 */
export interface FeedRecurrence {
  /** Wall-clock start: `YYYY-MM-DD` (all-day) or `YYYY-MM-DDTHH:mm:ss` in `tz`. */
  start: string;
  /** IANA zone of the wall clock (timed events only). */
  tz?: string;
  /** Length of each occurrence in seconds (timed) … */
  durationSec?: number;
  /** … or in days (all-day, at least 1). */
  days?: number;
  /** The RRULE value as written (UNTIL included), if any. */
  rrule?: string;
  /** RDATE starts: wall clock in `tz` (timed) or dates (all-day). */
  rdates?: string[];
  /** The zone local dates and times are computed in. */
  zone: string;
}

/** What a feed event record carries besides the event fields. */
export interface FeedEventSource {
  uid: string;
  /** Normalized RECURRENCE-ID of an override kept as an event of its own; '' for the others. */
  recurrenceId: string;
  /** Digest of every feed-owned part: an unchanged digest means an unchanged event. */
  fingerprint: string;
  recur?: FeedRecurrence;
}

/** The event fields a feed owns, in the family's zone (of a series: its first occurrence). */
export interface FeedData {
  date: string;
  endDate?: string;
  time?: string;
  endTime?: string;
  allDay?: true;
  where?: string;
  description?: string;
}

/** A feed's change to one occurrence: removed (EXDATE, cancelled) or moved/retitled. */
export interface FeedException {
  removed?: true;
  title?: string;
  /** Feed-owned fields that differ from the series on that date (null: unset there). */
  data?: Record<string, unknown>;
}

/** One event as a refresh delivers it, ready to be laid over the stored record. */
export interface FeedItem {
  /** Identity within the feed: UID and normalized RECURRENCE-ID. */
  key: string;
  /** The record id (feedEventId of the feed and `key`), when the reader already knew the feed. */
  id?: string;
  uid: string;
  recurrenceId: string;
  title: string;
  data: FeedData;
  recur?: FeedRecurrence;
  /** Keyed by the occurrence's original local start date. */
  exceptions?: Record<string, FeedException>;
  fingerprint: string;
}

/** A fetched and parsed feed, ready for a command. */
export interface FeedSnapshot {
  calendarName: string | null;
  ttlMinutes: number | null;
  /**
   * The feed's events — on a refresh only those new or changed since the fingerprints it was given.
   */
  items: FeedItem[];
  /**
   * On a refresh: ids of events the feed still has, unchanged against the stored fingerprints
   * (so they need not be copied back from the reader's thread).
   */
  unchanged?: string[];
  /** VEVENTs in the body (the cap counts these). */
  eventCount: number;
  /** VEVENTs left out because they could not be read (no DTSTART…). */
  skipped: number;
  bodyHash: string;
  etag: string | null;
  lastModified: string | null;
  /** The zone the snapshot was read in. */
  zone: string;
}

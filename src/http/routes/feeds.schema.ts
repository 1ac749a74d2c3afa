/**
 * Request structs and response schemas of the external calendar endpoints (docs/feeds.md).
 */
import { COLORS } from '../../domain/collections/types.js';
import { FEED_NAME_MAX, FEED_URL_MAX, HINT_MAX } from '../../domain/feeds/types.js';
import { S, type Infer, type JsonSchema } from '../../door/schema.js';
import { withExamples } from './collections.schema.js';

const url = S.string({
  min: 1,
  max: FEED_URL_MAX,
  description:
    'http, https or webcal (read as https); user:password@ in the URL is sent as Basic auth and never shown again',
});
const hint = S.nullable(
  S.string({
    max: HINT_MAX,
    description:
      "Words that make a refresh notify (intake_update) when a new or changed event's title or description contains one; null or blank clears",
  }),
);

export const LinkFeedBody = withExamples(
  S.object({
    name: S.optional(
      S.string({
        min: 1,
        max: FEED_NAME_MAX,
        description:
          "Name of the feed and its calendar; default the feed's X-WR-CALNAME, else its host",
      }),
    ),
    url,
    color: S.optional(S.enums(COLORS)),
    hint: S.optional(hint),
  }),
  {
    name: 'School',
    url: 'webcal://school.example/calendar.ics',
    color: 'blue',
    hint: 'trip, closed',
  },
);
export type LinkFeedBody = Infer<typeof LinkFeedBody>;

export const ProbeFeedBody = withExamples(S.object({ url }), {
  url: 'https://school.example/calendar.ics',
});
export type ProbeFeedBody = Infer<typeof ProbeFeedBody>;

export const UpdateFeedBody = withExamples(
  S.object({ hint }, 'Only the hint can be changed; other fields answer 400'),
  { hint: 'trip, closed, concert' },
);
export type UpdateFeedBody = Infer<typeof UpdateFeedBody>;

const nullableString = { type: ['string', 'null'] };

export const FEED_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'sourceId',
    'name',
    'color',
    'hint',
    'calendarKey',
    'eventCount',
    'lastSyncedAt',
    'lastError',
    'url',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    sourceId: { type: 'string', pattern: '^src_[0-9a-z]{20}$' },
    name: { type: 'string' },
    color: { anyOf: [{ type: 'string', enum: [...COLORS] }, { type: 'null' }] },
    hint: nullableString,
    calendarKey: {
      type: 'string',
      description: "The read-only calendar collection holding the feed's events",
    },
    eventCount: { type: 'integer', minimum: 0 },
    lastSyncedAt: {
      ...nullableString,
      format: 'date-time',
      description: 'Last successful fetch (also when nothing had changed)',
    },
    lastError: {
      ...nullableString,
      description: 'Why the last refresh failed; null after a good one. The last good events stay.',
    },
    lastErrorAt: { ...nullableString, format: 'date-time' },
    url: {
      type: 'string',
      description: 'Scheme and host; path and query masked (private feed URLs are secrets)',
    },
    calendarName: { ...nullableString, description: "The feed's own X-WR-CALNAME" },
    ttlMinutes: {
      type: ['integer', 'null'],
      description:
        "The feed's REFRESH-INTERVAL / X-PUBLISHED-TTL; it may lengthen the refresh interval",
    },
    nextRefreshAt: { ...nullableString, format: 'date-time' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE = {
  sourceId: 'src_01kaq5m2v8x3c4d5e6f7',
  name: 'School',
  color: 'blue',
  hint: 'trip, closed',
  calendarKey: 'school',
  eventCount: 42,
  lastSyncedAt: '2026-11-22T08:30:00.000Z',
  lastError: null,
  lastErrorAt: null,
  url: 'https://school.example/***',
  calendarName: 'Springfield Elementary',
  ttlMinutes: null,
  nextRefreshAt: '2026-11-22T09:33:00.000Z',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-22T08:30:00.000Z',
};

export const FEED_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'feeds'],
  properties: { ok: { const: true }, feeds: { type: 'array', items: FEED_SCHEMA } },
  examples: [{ ok: true, feeds: [EXAMPLE] }],
};

export const FEED_LINKED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'eventCount', 'sourceId', 'calendarKey', 'feed'],
  properties: {
    ok: { const: true },
    eventCount: { type: 'integer', minimum: 0, description: "Events now on the feed's calendar" },
    sourceId: { type: 'string' },
    calendarKey: { type: 'string' },
    feed: FEED_SCHEMA,
  },
  examples: [
    { ok: true, eventCount: 42, sourceId: EXAMPLE.sourceId, calendarKey: 'school', feed: EXAMPLE },
  ],
};

export const FEED_PROBE_RESPONSE: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['ok', 'eventCount', 'calendarName'],
      properties: {
        ok: { const: true },
        eventCount: { type: 'integer', minimum: 0 },
        calendarName: nullableString,
      },
    },
    {
      type: 'object',
      required: ['ok', 'error'],
      properties: {
        ok: { const: false },
        error: { type: 'string', description: 'Why the feed cannot be read' },
      },
    },
  ],
  examples: [
    { ok: true, eventCount: 42, calendarName: 'Springfield Elementary' },
    { ok: false, error: 'the feed answered HTTP 404' },
  ],
};

export const FEED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'feed'],
  properties: { ok: { const: true }, feed: FEED_SCHEMA },
  examples: [{ ok: true, feed: EXAMPLE }],
};

export const FEED_DELETED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'sourceId', 'deletedEvents'],
  properties: {
    ok: { const: true },
    sourceId: { type: 'string' },
    deletedEvents: { type: 'integer', minimum: 0 },
    feed: FEED_SCHEMA,
  },
  examples: [{ ok: true, sourceId: EXAMPLE.sourceId, deletedEvents: 42, feed: EXAMPLE }],
};

export const FEED_REFRESH_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'sourceId', 'queued'],
  properties: {
    ok: { const: true },
    sourceId: { type: 'string' },
    queued: {
      const: true,
      description: "The refresh runs shortly; the feed's lastSyncedAt / lastError tell how it went",
    },
    feed: FEED_SCHEMA,
  },
  examples: [{ ok: true, sourceId: EXAMPLE.sourceId, queued: true, feed: EXAMPLE }],
};

/**
 * Request structs and response schemas of the external calendar endpoints (docs/feeds.md).
 */
import { FEED_FIELDS } from '../../domain/feeds/types.js';
import { FEED_DERIVED } from '../../domain/feeds/views.js';
import { createStruct, recordSchema } from '../../domain/shared/record.js';
import { S, named, type Infer, type JsonSchema } from '../../door/schema.js';
import { withExamples } from './collections.schema.js';

// Built from the table (FEED_FIELDS, FEED_DERIVED): a field is added there, not here.
export const LinkFeedBody = withExamples(createStruct(FEED_FIELDS), {
  name: 'School',
  url: 'webcal://school.example/calendar.ics',
  color: 'blue',
  hint: 'trip, closed',
});
export type LinkFeedBody = Infer<typeof LinkFeedBody>;

export const ProbeFeedBody = withExamples(S.object({ url: FEED_FIELDS.url.struct }), {
  url: 'https://school.example/calendar.ics',
});
export type ProbeFeedBody = Infer<typeof ProbeFeedBody>;

/** The hint is the one field a PATCH changes, so it must be sent (`{}` is refused naming it). */
export const UpdateFeedBody = withExamples(
  S.object(
    { hint: S.nullable(FEED_FIELDS.hint.struct) },
    'Only the hint can be changed; other fields answer 400',
  ),
  { hint: 'trip, closed, concert' },
);
export type UpdateFeedBody = Infer<typeof UpdateFeedBody>;

const nullableString = { type: ['string', 'null'] };

export const FEED_SCHEMA: JsonSchema = recordSchema(FEED_FIELDS, FEED_DERIVED);

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

// Published once in the OpenAPI document, as components/schemas/<name>.
named('ExternalCalendar', FEED_SCHEMA);
named('LinkFeedBody', LinkFeedBody);
named('UpdateFeedBody', UpdateFeedBody);

/**
 * Response schemas of the plans endpoints that the larger ones are built from: the timing, a
 * linked event, a note, a poll and its options, and body() that wraps a response's fields with
 * `ok: true` (their OpenAPI names are given in plans.schema.ts).
 */
import type { JsonSchema } from '../../door/schema.js';
import { EVENT_TIMING, NOTE_DERIVED } from '../../domain/plans/views.js';
import { NOTE_FIELDS } from '../../domain/plans/types.js';
import { recordSchema } from '../../domain/shared/record.js';

export const str = { type: 'string' };
export const strOrNull = { type: ['string', 'null'] };
export const ok = { const: true };
export const instant = { type: 'string', format: 'date-time' };
export const date = { type: 'string', format: 'date' };

/** Described once with the view's type (src/domain/plans/views.ts). */
export const TIMING_SCHEMA: JsonSchema = EVENT_TIMING.schema;

export const EVENT_ITEM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['eventId', 'title', 'location', 'showDetailsOnShare', 'showLocationOnShare', 'timing'],
  properties: {
    eventId: str,
    title: str,
    location: { ...strOrNull, description: "The event's where" },
    showDetailsOnShare: {
      type: 'boolean',
      description: 'The shared page shows the title (else only the time)',
    },
    showLocationOnShare: { type: 'boolean', description: 'The shared page shows the location' },
    timing: TIMING_SCHEMA,
    status: { type: 'string', enum: ['active', 'done', 'archived'] },
    calendarKey: str,
    planId: { ...str, description: 'Only in change-log records' },
  },
};

/** Built from the note's table (NOTE_FIELDS, NOTE_DERIVED). */
export const NOTE_SCHEMA: JsonSchema = recordSchema(NOTE_FIELDS, NOTE_DERIVED);

export const OPTION_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['optionId', 'label', 'date', 'endDate', 'time', 'endTime', 'votes'],
  properties: {
    optionId: str,
    label: strOrNull,
    date: { type: ['string', 'null'], format: 'date' },
    endDate: { type: ['string', 'null'], format: 'date' },
    time: { ...strOrNull, description: 'Local time text such as 3:30 PM' },
    endTime: { ...strOrNull, description: 'Local time text such as 6:00 PM' },
    votes: { type: 'integer', minimum: 0 },
  },
};

export const POLL_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['pollId', 'question', 'status', 'settledOptionId', 'options', 'myVoteOptionId'],
  properties: {
    pollId: str,
    question: str,
    status: { type: 'string', enum: ['open', 'settled'] },
    settledOptionId: strOrNull,
    settledEventId: {
      ...strOrNull,
      description: 'The calendar event settling created, while it exists',
    },
    options: { type: 'array', items: OPTION_SCHEMA },
    myVoteOptionId: { ...strOrNull, description: "The option the calling key's person voted for" },
    voteCount: { type: 'integer', minimum: 0 },
    createdAt: instant,
    updatedAt: instant,
  },
};

export function body(
  required: string[],
  properties: Record<string, unknown>,
  example?: unknown,
): JsonSchema {
  return {
    type: 'object',
    required: ['ok', ...required],
    properties: { ok, ...properties },
    ...(example ? { examples: [example] } : {}),
  };
}

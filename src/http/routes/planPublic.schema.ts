/**
 * The schema of a shared plan page's JSON (its OpenAPI name is given in plans.schema.ts).
 */
import type { JsonSchema } from '../../door/schema.js';
import { PHASES } from '../../domain/plans/timing.js';
import { TIMING_SCHEMA, body, str, strOrNull } from './planObjects.schema.js';

/** The public page's JSON (`Accept: application/json`): what the HTML shows, nothing more. */
export const PUBLIC_PLAN_SCHEMA: JsonSchema = body(
  ['title', 'prose', 'when', 'phase', 'timezone', 'events', 'notes', 'polls'],
  {
    title: str,
    prose: strOrNull,
    when: str,
    phase: { type: 'string', enum: [...PHASES] },
    timezone: {
      ...str,
      description:
        "The family's IANA zone: the times are in it, 12-hour for zones of the United States, else 24-hour",
    },
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['title', 'when', 'timing'],
        properties: {
          title: { ...strOrNull, description: "null when the event's details are not shared" },
          when: str,
          timing: TIMING_SCHEMA,
          location: { ...str, description: 'Only when the location is shared' },
        },
      },
    },
    notes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['body', 'author'],
        properties: { body: str, author: str },
      },
    },
    polls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['question', 'status', 'options'],
        properties: {
          question: str,
          status: { type: 'string', enum: ['open', 'settled'] },
          options: {
            type: 'array',
            items: {
              type: 'object',
              required: ['label', 'when', 'votes', 'chosen'],
              properties: {
                label: strOrNull,
                when: strOrNull,
                votes: { type: 'integer' },
                chosen: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
  },
);

/**
 * Request struct and response schema of `POST /checks` (docs/notifications.md).
 */
import { type Infer, type JsonSchema } from '../../door/schema.js';
import { CHECK_FIELDS } from '../../domain/notifications/types.js';
import { createStruct } from '../../domain/shared/record.js';
import { withExamples } from './collections.schema.js';

// Built from the table (CHECK_FIELDS): a field is added there, not here.
export const CreateCheckBody = withExamples(
  createStruct(
    CHECK_FIELDS,
    "Runs leadHours (0..720, fractions allowed) before the event's next start; channels default [in_app]",
  ),
  {
    eventId: 'ent_01kaq5m2v8x3c4d5e6f7',
    leadHours: 24,
    task: 'Pack the swimming bag',
    channels: ['in_app', 'push'],
  },
);
export type CreateCheckBody = Infer<typeof CreateCheckBody>;

export const CHECK_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'eventId', 'triggerId', 'leadHours', 'runAt'],
  properties: {
    ok: { const: true },
    eventId: { type: 'string' },
    triggerId: {
      type: 'string',
      description: "The check's id (trg_…); its notification carries it",
    },
    leadHours: { type: 'number' },
    runAt: {
      type: 'string',
      format: 'date-time',
      description: 'When it runs; now when the event starts sooner than leadHours',
    },
    occurrenceDate: {
      type: 'string',
      format: 'date',
      description: 'The occurrence it is ahead of',
    },
    task: { type: 'string' },
  },
  examples: [
    {
      ok: true,
      eventId: 'ent_01kaq5m2v8x3c4d5e6f7',
      triggerId: 'trg_01kaq5m2v8x3c4d5e6g8',
      leadHours: 24,
      runAt: '2026-11-27T15:00:00.000Z',
      occurrenceDate: '2026-11-28',
      task: 'Pack the swimming bag',
    },
  ],
};

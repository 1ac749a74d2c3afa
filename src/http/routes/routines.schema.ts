/**
 * Request structs and response schemas of the notification routines (docs/notifications.md).
 */
import { S, type Infer, type JsonSchema } from '../../door/schema.js';
import { CHANNELS, ROUTINE_INTENTS, ROUTINE_MODES } from '../../domain/notifications/types.js';
import { withExamples } from './collections.schema.js';
import { BODY_MAX, channels, TITLE_MAX } from './notifications.schema.js';

const timezone = {
  min: 1,
  max: 64,
  description:
    "IANA time zone; left out (or null on a change): the family's, following it when it changes",
};
const fields = {
  channels: S.optional(channels),
  cron: S.optional(
    S.string({
      min: 1,
      max: 100,
      description:
        'Cron pattern (five fields, or six with seconds; @daily and friends), in `timezone`',
    }),
  ),
  intent: S.optional(S.enums(ROUTINE_INTENTS)),
  isEnabled: S.optional(S.boolean()),
  mode: S.optional(S.enums(ROUTINE_MODES)),
  timezone: S.optional(S.string(timezone)),
  title: S.optional(
    S.nullable(
      S.string({
        max: TITLE_MAX,
        description:
          "Extension: the notification's title (default by intent: Morning briefing, Digest, Reminder)",
      }),
    ),
  ),
  message: S.optional(
    S.nullable(
      S.string({
        max: BODY_MAX,
        description: 'Extension: the text of a plain routine; put before a contextual one',
      }),
    ),
  ),
};

export const CreateRoutineBody = withExamples(
  S.object(
    fields,
    "All optional: cron `0 7 * * *`, intent briefing, mode plain, channels [in_app], enabled, the family's time zone",
  ),
  { cron: '30 6 * * 1-5', intent: 'briefing', mode: 'contextual', channels: ['in_app', 'push'] },
);
export type CreateRoutineBody = Infer<typeof CreateRoutineBody>;

export const UpdateRoutineBody = withExamples(
  S.refine(
    S.object({ ...fields, timezone: S.optional(S.nullable(S.string(timezone))) }),
    'nonEmpty',
    (v) => Object.keys(v).length > 0 || 'must change at least one field',
    'Only the fields to change',
  ),
  { isEnabled: false },
);
export type UpdateRoutineBody = Infer<typeof UpdateRoutineBody>;

export const ROUTINE_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'cron',
    'timezone',
    'followsFamilyZone',
    'intent',
    'mode',
    'channels',
    'isEnabled',
    'title',
    'message',
    'nextRunAt',
    'lastRunAt',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string', description: 'The trigger id (trg_…)' },
    cron: { type: 'string' },
    timezone: {
      type: 'string',
      description: "The zone it runs in: its own, or the family's when it follows the family",
    },
    followsFamilyZone: {
      type: 'boolean',
      description:
        "Extension: made (or changed) without a zone, it runs in the family's zone and follows it when the family's zone changes",
    },
    intent: { type: 'string', enum: [...ROUTINE_INTENTS] },
    mode: { type: 'string', enum: [...ROUTINE_MODES] },
    channels: { type: 'array', items: { type: 'string', enum: [...CHANNELS] } },
    isEnabled: { type: 'boolean' },
    title: { type: ['string', 'null'] },
    message: { type: ['string', 'null'] },
    nextRunAt: { type: ['string', 'null'], format: 'date-time', description: 'Null when disabled' },
    lastRunAt: { type: ['string', 'null'], format: 'date-time' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE = {
  id: 'trg_01kaq5m2v8x3c4d5e6f7',
  cron: '30 6 * * 1-5',
  timezone: 'Europe/Berlin',
  followsFamilyZone: true,
  intent: 'briefing',
  mode: 'contextual',
  channels: ['in_app', 'push'],
  isEnabled: true,
  title: null,
  message: null,
  nextRunAt: '2026-11-23T05:30:00.000Z',
  lastRunAt: null,
  createdAt: '2026-11-22T08:30:00.000Z',
  updatedAt: '2026-11-22T08:30:00.000Z',
};

export const ROUTINE_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'routine'],
  properties: { ok: { const: true }, routine: ROUTINE_SCHEMA },
  examples: [{ ok: true, routine: EXAMPLE }],
};

export const ROUTINES_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'routines'],
  properties: {
    ok: { const: true },
    routines: { type: 'array', items: ROUTINE_SCHEMA, description: 'Oldest first' },
  },
  examples: [{ ok: true, routines: [EXAMPLE] }],
};

export const ROUTINE_DELETE_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'routineId'],
  properties: { ok: { const: true }, routineId: { type: 'string' } },
  examples: [{ ok: true, routineId: EXAMPLE.id }],
};

/**
 * Request structs and response schemas of the notification routines (docs/notifications.md).
 */
import { named, type Infer, type JsonSchema } from '../../door/schema.js';
import { ROUTINE_FIELDS } from '../../domain/notifications/types.js';
import { ROUTINE_DERIVED } from '../../domain/notifications/routines.js';
import { createStruct, patchStruct, recordSchema } from '../../domain/shared/record.js';
import { withExamples } from './collections.schema.js';

// Built from the table (ROUTINE_FIELDS): a field is added there, not here.
export const CreateRoutineBody = withExamples(
  createStruct(
    ROUTINE_FIELDS,
    "All optional: cron `0 7 * * *`, intent briefing, mode plain, channels [in_app], enabled, the family's time zone",
  ),
  { cron: '30 6 * * 1-5', intent: 'briefing', mode: 'contextual', channels: ['in_app', 'push'] },
);
export type CreateRoutineBody = Infer<typeof CreateRoutineBody>;

export const UpdateRoutineBody = withExamples(patchStruct(ROUTINE_FIELDS), { isEnabled: false });
export type UpdateRoutineBody = Infer<typeof UpdateRoutineBody>;

export const ROUTINE_SCHEMA: JsonSchema = recordSchema(ROUTINE_FIELDS, ROUTINE_DERIVED);

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

// Published once in the OpenAPI document, as components/schemas/<name>.
named('NotificationRoutine', ROUTINE_SCHEMA);
named('CreateRoutineBody', CreateRoutineBody);
named('UpdateRoutineBody', UpdateRoutineBody);

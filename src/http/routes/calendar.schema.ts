/**
 * Request structs and response schemas of the calendar events endpoints, their event fields from
 * calendarFields.schema.ts; the published OpenAPI document (`/api/v1/openapi.json`) is generated
 * from them.
 */
import { S, named, type Infer, type JsonSchema, type SomeStruct } from '../../door/schema.js';
import { ENTRY_STATUSES } from '../../domain/collections/types.js';
import { PAGE_LIMIT } from '../../domain/shared/paging.js';
import {
  REPEAT_KEYS,
  SHOWN_ALWAYS,
  TITLE_MAX,
  type EventInput,
  type EventPatch,
} from '../../domain/calendar/types.js';
import { withExamples } from './collections.schema.js';
import { FIELD_NAMES, fieldShape, responseSchema, type Shape } from './calendarFields.schema.js';

const title = S.string({ min: 1, max: TITLE_MAX });
const status = S.enums(ENTRY_STATUSES);
const editScope = S.enums(['occurrence', 'series'] as const);

/**
 * A body: the envelope's `title` first, then the event fields with its `calendarKey` and `data`
 * before the repeat fields (where the published document has always listed them), `more` last.
 */
function bodyShape(
  fields: Shape,
  envelope: { title: SomeStruct; calendarKey: SomeStruct; data: SomeStruct },
  more: Shape = {},
): Shape {
  const out: Shape = { title: envelope.title };
  for (const [k, struct] of Object.entries(fields)) {
    if (k === REPEAT_KEYS[0])
      Object.assign(out, { calendarKey: envelope.calendarKey, data: envelope.data });
    out[k] = struct;
  }
  return { ...out, ...more };
}

const calendarKey = S.optional(S.string({ min: 1, max: 100 }));
const data = S.optional(S.record(S.any()));

// The shapes are built from the tables, so superstruct cannot infer their types: they are the
// domain's, which the tables are checked against field by field.
export const CreateEventBody = withExamples(
  S.object(bodyShape(fieldShape('create'), { title, calendarKey, data })),
  {
    title: 'Swimming lessons',
    date: '2026-11-24',
    time: '16:30',
    durationMinutes: 45,
    where: 'City pool',
    repeatFrequency: 'weekly',
    reminders: [{ offsetMinutes: 60 }],
    travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
  },
) as unknown as SomeStruct<EventInput>;
export type CreateEventBody = Infer<typeof CreateEventBody>;

export const UpdateEventBody = withExamples(
  S.object(
    bodyShape(
      fieldShape('patch'),
      { title: S.optional(title), calendarKey, data },
      {
        clearAttendance: S.optional(S.boolean()),
        clearTravelPlan: S.optional(S.boolean()),
        editScope: S.optional(editScope),
        occurrenceDate: S.optional(S.date()),
        status: S.optional(status),
      },
    ),
    'Only the fields to change. null unsets an optional field (extension); attendance is merged per person (null drops one answer) after clearAttendance empties it; data is merged key by key.',
  ),
  { attendance: { person_01kaq5m2v8x3c4d5e6f7: 'going' } },
  { editScope: 'occurrence', occurrenceDate: '2026-12-01', time: '17:00' },
) as unknown as SomeStruct<EventPatch>;
export type UpdateEventBody = Infer<typeof UpdateEventBody>;

export const ListEventsQuery = S.object({
  from: S.optional(S.date()),
  to: S.optional(S.date()),
  query: S.optional(
    S.string({
      max: 200,
      description:
        'Matches titles and data values, ignoring case and accents; every word must match',
    }),
  ),
  status: S.optional(status),
  excludeEnded: S.optional(S.boolean()),
  limit: S.optional(
    S.integer(PAGE_LIMIT.min, PAGE_LIMIT.max, {
      default: PAGE_LIMIT.default,
      description: 'Items per page, counted after expansion',
    }),
  ),
  cursor: S.optional(
    S.string({
      min: 1,
      max: 1000,
      description: 'The nextCursor of the previous page (same other parameters)',
    }),
  ),
});
export type ListEventsQuery = Infer<typeof ListEventsQuery>;

export const DeleteEventQuery = S.object({
  editScope: S.optional(editScope),
  occurrenceDate: S.optional(S.date()),
});
export type DeleteEventQuery = Infer<typeof DeleteEventQuery>;

export const EVENT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['id', 'title', 'status', 'calendarKey', 'data', 'startsAt', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string', description: 'The event (series) id; occurrences of a series share it' },
    occurrenceDate: {
      type: 'string',
      format: 'date',
      description:
        "Listings with from and to, and occurrence edits: the occurrence's original start date",
    },
    title: { type: 'string' },
    status: { type: 'string', enum: [...ENTRY_STATUSES] },
    calendarKey: { type: 'string' },
    sourceId: { type: 'string', description: 'The external feed the event comes from' },
    feed: {
      type: 'object',
      required: ['uid'],
      description:
        "Events of external feeds: the feed's UID (and RECURRENCE-ID of an override kept on its own) and, for a repeating event, the feed's own RRULE and the zone it repeats in",
      properties: {
        uid: { type: 'string' },
        recurrenceId: { type: 'string' },
        rrule: { type: 'string' },
        timezone: { type: 'string' },
      },
    },
    data: {
      type: 'object',
      additionalProperties: true,
      required: [...SHOWN_ALWAYS],
      properties: Object.fromEntries(FIELD_NAMES.map((k) => [k, responseSchema(k)])),
      description: 'Every event field that is set, then custom data keys',
    },
    startsAt: {
      type: 'string',
      format: 'date-time',
      description:
        'The instant it starts, UTC (a series: its first occurrence; a listed occurrence: that one). An all-day event starts at 00:00 of its first day in its zone. Computed from date, time and timeZone, so no client has to convert.',
    },
    exceptions: {
      type: 'array',
      description: 'Changed or removed occurrences of a series',
      items: {
        type: 'object',
        required: ['occurrenceDate'],
        properties: {
          occurrenceDate: { type: 'string', format: 'date' },
          removed: { const: true },
          title: { type: 'string' },
          status: { type: 'string', enum: [...ENTRY_STATUSES] },
          data: { type: 'object', additionalProperties: true },
        },
      },
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE_EVENT = {
  id: 'ent_01kaq5m2v8x3c4d5e6f7',
  title: 'Swimming lessons',
  status: 'active',
  calendarKey: 'calendar',
  data: {
    date: '2026-11-24',
    time: '16:30',
    endDate: null,
    endTime: null,
    allDay: false,
    durationMinutes: 45,
    where: 'City pool',
    repeatFrequency: 'weekly',
    travelPlan: {
      origin: 'Home',
      baseTravelMinutes: 20,
      arriveEarlyMinutes: 10,
      leaveAt: '2026-11-24T16:00',
    },
  },
  startsAt: '2026-11-24T15:30:00.000Z',
  createdAt: '2026-11-22T08:30:00.000Z',
  updatedAt: '2026-11-22T08:30:00.000Z',
};

export const EVENT_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'events'],
  properties: {
    ok: { const: true },
    events: { type: 'array', items: EVENT_SCHEMA },
    nextCursor: {
      type: 'string',
      description: 'Present when more events match: pass it as cursor',
    },
  },
  examples: [{ ok: true, events: [{ ...EXAMPLE_EVENT, occurrenceDate: '2026-11-24' }] }],
};

export const EVENT_CREATED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'entryId', 'title'],
  properties: {
    ok: { const: true },
    entryId: { type: 'string' },
    title: { type: 'string' },
    event: EVENT_SCHEMA,
  },
  examples: [
    { ok: true, entryId: EXAMPLE_EVENT.id, title: EXAMPLE_EVENT.title, event: EXAMPLE_EVENT },
  ],
};

export const EVENT_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'event'],
  properties: { ok: { const: true }, event: EVENT_SCHEMA },
  examples: [{ ok: true, event: EXAMPLE_EVENT }],
};

// Published once in the OpenAPI document, as components/schemas/<name>.
named('CalendarEvent', EVENT_SCHEMA);
named('CreateEventBody', CreateEventBody);
named('UpdateEventBody', UpdateEventBody);

/**
 * Request structs and response schemas of the calendar events endpoints; the published
 * OpenAPI document (`/api/v1/openapi.json`) is generated from them.
 */
import { S, named, type Infer, type JsonSchema } from '../schema.js';
import { ENTRY_STATUSES } from '../../domain/collections/types.js';
import { PAGE_LIMIT } from '../../domain/shared/paging.js';
import type { Struct } from 'superstruct';
import {
  ASSIGNEE_MAX, ATTENDANCE, AUDIENCES, CHANNELS, NOTE_MAX, PEOPLE_MAX, REMINDER_MODES, REMINDERS_MAX, REPEAT_FREQUENCIES,
  TITLE_MAX, WHERE_MAX, type EventInput, type EventPatch, type NullableOnPatch,
} from '../../domain/calendar/types.js';
import { withExamples } from './collections.schema.js';

const title = S.string({ min: 1, max: TITLE_MAX });
const personId = S.string({ min: 1, max: 100 });
const attendance = S.enums(ATTENDANCE);
const status = S.enums(ENTRY_STATUSES);
const editScope = S.enums(['occurrence', 'series'] as const);

const Reminder = S.object({
  offsetMinutes: S.integer(0, 20160),
  audience: S.optional(S.enums(AUDIENCES)),
  channels: S.optional(S.array(S.enums(CHANNELS), { min: 1, max: CHANNELS.length })),
  mode: S.optional(S.enums(REMINDER_MODES)),
  recipientPersonIds: S.optional(S.array(personId, { max: PEOPLE_MAX })),
}, 'Minutes before the start; audience default household, channels default [in_app], mode default plain, recipientPersonIds (audience people) default []');

const TravelPlan = S.object({
  origin: S.string({ min: 1, max: 240 }),
  baseTravelMinutes: S.integer(1, 1440),
  arriveEarlyMinutes: S.optional(S.integer(0, 720)),
}, 'Where the trip starts and how long it takes; leaveAt is derived');

/** Fields both create and update take; update makes them nullable (NULLABLE_ON_PATCH). */
const common = {
  time: S.time(),
  endDate: S.date(),
  endTime: S.time(),
  durationMinutes: S.integer(15, 1440),
  where: S.string({ max: WHERE_MAX }),
  note: S.string({ max: NOTE_MAX }),
  assignee: S.string({ max: ASSIGNEE_MAX }),
  ownerPersonId: personId,
  responsibilityRequired: S.boolean(),
  everyoneAttendance: attendance,
  repeatInterval: S.integer(1, 52),
  repeatDays: S.array(S.integer(0, 6), { max: 7 }),
  repeatUntil: S.date(),
} satisfies Record<NullableOnPatch, Struct<any, any>>;

export const CreateEventBody = withExamples(S.object({
  title,
  date: S.date(),
  time: S.optional(common.time),
  endDate: S.optional(common.endDate),
  endTime: S.optional(common.endTime),
  allDay: S.optional(S.boolean()),
  durationMinutes: S.optional(common.durationMinutes),
  where: S.optional(common.where),
  note: S.optional(common.note),
  assignee: S.optional(common.assignee),
  ownerPersonId: S.optional(common.ownerPersonId),
  responsiblePersonIds: S.optional(S.array(personId, { max: PEOPLE_MAX })),
  responsibilityRequired: S.optional(common.responsibilityRequired),
  attendance: S.optional(S.record(attendance)),
  everyoneAttendance: S.optional(common.everyoneAttendance),
  calendarKey: S.optional(S.string({ min: 1, max: 100 })),
  data: S.optional(S.record(S.any())),
  repeatFrequency: S.optional(S.enums(REPEAT_FREQUENCIES)),
  repeatInterval: S.optional(common.repeatInterval),
  repeatDays: S.optional(common.repeatDays),
  repeatUntil: S.optional(common.repeatUntil),
  reminders: S.optional(S.array(Reminder, { max: REMINDERS_MAX })),
  travelPlan: S.optional(S.nullable(TravelPlan)),
}), {
  title: 'Swimming lessons', date: '2026-11-24', time: '16:30', durationMinutes: 45, where: 'City pool',
  repeatFrequency: 'weekly', reminders: [{ offsetMinutes: 60 }],
  travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
});
export type CreateEventBody = Infer<typeof CreateEventBody>;

export const UpdateEventBody = withExamples(S.object({
  title: S.optional(title),
  date: S.optional(S.date()),
  time: S.optional(S.nullable(common.time)),
  endDate: S.optional(S.nullable(common.endDate)),
  endTime: S.optional(S.nullable(common.endTime)),
  allDay: S.optional(S.boolean()),
  durationMinutes: S.optional(S.nullable(common.durationMinutes)),
  where: S.optional(S.nullable(common.where)),
  note: S.optional(S.nullable(common.note)),
  assignee: S.optional(S.nullable(common.assignee)),
  ownerPersonId: S.optional(S.nullable(common.ownerPersonId)),
  responsiblePersonIds: S.optional(S.array(personId, { max: PEOPLE_MAX })),
  responsibilityRequired: S.optional(S.nullable(common.responsibilityRequired)),
  attendance: S.optional(S.record(S.nullable(attendance))),
  everyoneAttendance: S.optional(S.nullable(common.everyoneAttendance)),
  calendarKey: S.optional(S.string({ min: 1, max: 100 })),
  data: S.optional(S.record(S.any())),
  repeatFrequency: S.optional(S.enums(REPEAT_FREQUENCIES)),
  repeatInterval: S.optional(S.nullable(common.repeatInterval)),
  repeatDays: S.optional(S.nullable(common.repeatDays)),
  repeatUntil: S.optional(S.nullable(common.repeatUntil)),
  reminders: S.optional(S.array(Reminder, { max: REMINDERS_MAX })),
  travelPlan: S.optional(S.nullable(TravelPlan)),
  clearAttendance: S.optional(S.boolean()),
  clearTravelPlan: S.optional(S.boolean()),
  editScope: S.optional(editScope),
  occurrenceDate: S.optional(S.date()),
  status: S.optional(status),
}, 'Only the fields to change. null unsets an optional field (extension); attendance is merged per person (null drops one answer) after clearAttendance empties it; data is merged key by key.'),
{ attendance: { person_01kaq5m2v8x3c4d5e6f7: 'going' } },
{ editScope: 'occurrence', occurrenceDate: '2026-12-01', time: '17:00' });
export type UpdateEventBody = Infer<typeof UpdateEventBody>;

// The bodies take exactly the domain's create and PATCH fields (src/domain/calendar/types.ts):
// a field added on one side only does not compile.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? [keyof B] extends [keyof A] ? true : false : false;
type Holds<T extends true> = T;
export type CreateBodyMatchesInput = Holds<SameKeys<CreateEventBody, EventInput>>;
export type UpdateBodyMatchesPatch = Holds<SameKeys<UpdateEventBody, EventPatch>>;

export const ListEventsQuery = S.object({
  from: S.optional(S.date()),
  to: S.optional(S.date()),
  query: S.optional(S.string({ max: 200, description: 'Matches titles and data values, ignoring case and accents; every word must match' })),
  status: S.optional(status),
  excludeEnded: S.optional(S.boolean()),
  limit: S.optional(S.integer(PAGE_LIMIT.min, PAGE_LIMIT.max, { default: PAGE_LIMIT.default, description: 'Items per page, counted after expansion' })),
  cursor: S.optional(S.string({ min: 1, max: 1000, description: 'The nextCursor of the previous page (same other parameters)' })),
});
export type ListEventsQuery = Infer<typeof ListEventsQuery>;

export const DeleteEventQuery = S.object({
  editScope: S.optional(editScope),
  occurrenceDate: S.optional(S.date()),
});
export type DeleteEventQuery = Infer<typeof DeleteEventQuery>;

const nullableString = { type: ['string', 'null'] };

export const EVENT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['id', 'title', 'status', 'calendarKey', 'data', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string', description: 'The event (series) id; occurrences of a series share it' },
    occurrenceDate: { type: 'string', format: 'date', description: 'Listings with from and to, and occurrence edits: the occurrence\'s original start date' },
    title: { type: 'string' },
    status: { type: 'string', enum: [...ENTRY_STATUSES] },
    calendarKey: { type: 'string' },
    sourceId: { type: 'string', description: 'The external feed the event comes from' },
    feed: {
      type: 'object', required: ['uid'],
      description: 'Events of external feeds: the feed\'s UID (and RECURRENCE-ID of an override kept on its own) and, for a repeating event, the feed\'s own RRULE and the zone it repeats in',
      properties: {
        uid: { type: 'string' }, recurrenceId: { type: 'string' }, rrule: { type: 'string' }, timezone: { type: 'string' },
      },
    },
    data: {
      type: 'object', additionalProperties: true,
      required: ['date', 'time', 'endDate', 'endTime', 'allDay'],
      properties: {
        date: { type: 'string', format: 'date' },
        time: { ...nullableString, description: 'HH:mm local' },
        endDate: { ...nullableString, description: 'Inclusive end date of a multi-day event' },
        endTime: nullableString,
        allDay: { type: 'boolean', description: 'True when declared all-day or without a start time' },
        travelPlan: {
          type: 'object',
          properties: {
            origin: { type: 'string' }, baseTravelMinutes: { type: 'integer' }, arriveEarlyMinutes: { type: 'integer' },
            leaveAt: { type: 'string', description: 'Local YYYY-MM-DDTHH:mm to leave (with a start time)' },
          },
        },
      },
      description: 'Every event field that is set, then custom data keys',
    },
    exceptions: {
      type: 'array',
      description: 'Changed or removed occurrences of a series',
      items: {
        type: 'object', required: ['occurrenceDate'],
        properties: {
          occurrenceDate: { type: 'string', format: 'date' }, removed: { const: true }, title: { type: 'string' },
          status: { type: 'string', enum: [...ENTRY_STATUSES] }, data: { type: 'object', additionalProperties: true },
        },
      },
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE_EVENT = {
  id: 'ent_01kaq5m2v8x3c4d5e6f7', title: 'Swimming lessons', status: 'active', calendarKey: 'calendar',
  data: {
    date: '2026-11-24', time: '16:30', endDate: null, endTime: null, allDay: false, durationMinutes: 45, where: 'City pool',
    repeatFrequency: 'weekly', travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10, leaveAt: '2026-11-24T16:00' },
  },
  createdAt: '2026-11-22T08:30:00.000Z', updatedAt: '2026-11-22T08:30:00.000Z',
};

export const EVENT_LIST_RESPONSE: JsonSchema = {
  type: 'object', required: ['ok', 'events'],
  properties: {
    ok: { const: true },
    events: { type: 'array', items: EVENT_SCHEMA },
    nextCursor: { type: 'string', description: 'Present when more events match: pass it as cursor' },
  },
  examples: [{ ok: true, events: [{ ...EXAMPLE_EVENT, occurrenceDate: '2026-11-24' }] }],
};

export const EVENT_CREATED_RESPONSE: JsonSchema = {
  type: 'object', required: ['ok', 'entryId', 'title'],
  properties: { ok: { const: true }, entryId: { type: 'string' }, title: { type: 'string' }, event: EVENT_SCHEMA },
  examples: [{ ok: true, entryId: EXAMPLE_EVENT.id, title: EXAMPLE_EVENT.title, event: EXAMPLE_EVENT }],
};

export const EVENT_RESPONSE: JsonSchema = {
  type: 'object', required: ['ok', 'event'],
  properties: { ok: { const: true }, event: EVENT_SCHEMA },
  examples: [{ ok: true, event: EXAMPLE_EVENT }],
};

// Published once in the OpenAPI document, as components/schemas/<name>.
named('CalendarEvent', EVENT_SCHEMA);
named('Reminder', Reminder);
named('TravelPlan', TravelPlan);
named('CreateEventBody', CreateEventBody);
named('UpdateEventBody', UpdateEventBody);

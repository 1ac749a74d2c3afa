/**
 * Request structs and response schemas of the calendar events endpoints; the published
 * OpenAPI document (`/api/v1/openapi.json`) is generated from them.
 */
import {
  S,
  named,
  toJsonSchema,
  type Infer,
  type JsonSchema,
  type SomeStruct,
} from '../../door/schema.js';
import { ENTRY_STATUSES } from '../../domain/collections/types.js';
import { PAGE_LIMIT } from '../../domain/shared/paging.js';
import {
  ASSIGNEE_MAX,
  ATTENDANCE,
  AUDIENCES,
  CHANNELS,
  EVENT_FIELDS,
  NOTE_MAX,
  PEOPLE_MAX,
  REMINDER_MODES,
  REMINDERS_MAX,
  REPEAT_FREQUENCIES,
  REPEAT_KEYS,
  SHOWN_ALWAYS,
  TITLE_MAX,
  WHERE_MAX,
  type EventFieldInput,
  type EventFieldName,
  type EventFieldPatch,
  type EventInput,
  type EventPatch,
  type FieldsWhere,
} from '../../domain/calendar/types.js';
import { withExamples } from './collections.schema.js';

const title = S.string({ min: 1, max: TITLE_MAX });
const personId = S.string({ min: 1, max: 100 });
const attendance = S.enums(ATTENDANCE);
const status = S.enums(ENTRY_STATUSES);
const editScope = S.enums(['occurrence', 'series'] as const);

const Reminder = S.object(
  {
    offsetMinutes: S.integer(0, 20160),
    audience: S.optional(S.enums(AUDIENCES)),
    channels: S.optional(S.array(S.enums(CHANNELS), { min: 1, max: CHANNELS.length })),
    mode: S.optional(S.enums(REMINDER_MODES)),
    recipientPersonIds: S.optional(S.array(personId, { max: PEOPLE_MAX })),
  },
  'Minutes before the start; audience default household, channels default [in_app], mode default plain, recipientPersonIds (audience people) default []',
);

const TravelPlan = S.object(
  {
    origin: S.string({ min: 1, max: 240 }),
    baseTravelMinutes: S.integer(1, 1440),
    arriveEarlyMinutes: S.optional(S.integer(0, 720)),
  },
  'Where the trip starts and how long it takes; leaveAt is derived',
);

const nullableString = { type: ['string', 'null'] };

/**
 * Each event field's request struct and, where the view differs from what a request sends, its
 * response schema (the others are described by their request struct: see responseSchema). Keyed by
 * the domain's table (EVENT_FIELDS, src/domain/calendar/types.ts): a field missing here, or a
 * struct whose type is not what the domain takes, does not compile. `struct` is what a create sends
 * (a PATCH sends it too, nullable or not by the field's `patch` fact); a `merge` field names its
 * PATCH struct in `patch`; a field no request sends has none.
 */
type HttpField<K extends EventFieldName> = { response: JsonSchema | null } & (K extends FieldsWhere<
  'create',
  'never'
>
  ? { struct: null }
  : { struct: SomeStruct<EventFieldInput<K>> }) &
  (K extends FieldsWhere<'patch', 'merge'> ? { patch: SomeStruct<EventFieldPatch<K>> } : unknown);

const FIELDS = {
  date: { struct: S.date(), response: { type: 'string', format: 'date' } },
  time: {
    struct: S.time(),
    response: { ...nullableString, description: "HH:mm in the event's zone (timeZone)" },
  },
  endDate: {
    struct: S.date(),
    response: { ...nullableString, description: 'Inclusive end date of a multi-day event' },
  },
  endTime: { struct: S.time(), response: nullableString },
  allDay: {
    struct: S.boolean(),
    response: {
      type: 'boolean',
      description: 'True when declared all-day or without a start time',
    },
  },
  timeZone: {
    struct: S.string({
      min: 1,
      max: 100,
      description:
        "IANA time zone the event's date, times, repeats, occurrence edits and repeatUntil are in (Windows names such as \"W. Europe Standard Time\" are mapped to IANA); absent, the family's zone, and the event moves with it. null on PATCH goes back to the family's zone.",
    }),
    response: {
      type: 'string',
      description:
        "The event's own IANA zone (shown only when set; absent means the family's zone)",
    },
  },
  durationMinutes: { struct: S.integer(15, 1440), response: null },
  where: { struct: S.string({ max: WHERE_MAX }), response: null },
  note: { struct: S.string({ max: NOTE_MAX }), response: null },
  assignee: { struct: S.string({ max: ASSIGNEE_MAX }), response: null },
  ownerPersonId: { struct: personId, response: null },
  responsiblePersonIds: { struct: S.array(personId, { max: PEOPLE_MAX }), response: null },
  responsibilityRequired: { struct: S.boolean(), response: null },
  attendance: {
    struct: S.record(attendance),
    patch: S.record(S.nullable(attendance)),
    response: null,
  },
  everyoneAttendance: { struct: attendance, response: null },
  repeatFrequency: { struct: S.enums(REPEAT_FREQUENCIES), response: null },
  repeatInterval: { struct: S.integer(1, 52), response: null },
  repeatDays: { struct: S.array(S.integer(0, 6), { max: 7 }), response: null },
  repeatNthWeekday: {
    struct: S.refine(
      S.integer(-1, 4),
      'nth',
      (n) => n !== 0 || 'must be 1, 2, 3, 4 or -1 (the last)',
    ),
    response: null,
  },
  repeatUntil: { struct: S.date(), response: null },
  reminders: { struct: S.array(Reminder, { max: REMINDERS_MAX }), response: null },
  travelPlan: {
    struct: S.nullable(TravelPlan),
    response: {
      type: 'object',
      properties: {
        origin: { type: 'string' },
        baseTravelMinutes: { type: 'integer' },
        arriveEarlyMinutes: { type: 'integer' },
        leaveAt: {
          type: 'string',
          description:
            "YYYY-MM-DDTHH:mm to leave (with a start time), in the event's zone like its date and time",
        },
      },
    },
  },
  description: {
    struct: null,
    response: {
      type: 'string',
      description: "Events of external feeds: the feed's DESCRIPTION (read-only)",
    },
  },
} satisfies { [K in EventFieldName]: HttpField<K> };

type Shape = Record<string, SomeStruct>;
const NAMES = Object.keys(EVENT_FIELDS) as EventFieldName[];

/** The event fields of a create body, or of a PATCH body, by each field's facts. */
function fieldShape(body: 'create' | 'patch'): Shape {
  const out: Shape = {};
  for (const name of NAMES) {
    const facts = EVENT_FIELDS[name];
    const http: { struct: SomeStruct | null; patch?: SomeStruct } = FIELDS[name];
    const rule = body === 'create' ? facts.create : facts.patch;
    if (rule === 'never') continue;
    if (!http.struct)
      throw new Error(`event field ${name} is sent in a ${body} body but has no struct`);
    out[name] =
      rule === 'required'
        ? http.struct
        : rule === 'nullable'
          ? S.optional(S.nullable(http.struct))
          : rule === 'merge'
            ? S.optional(http.patch!)
            : S.optional(http.struct);
  }
  return out;
}

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

/**
 * A field's schema in the event's `data`: its own response schema where the table gives one,
 * else what a request sends for it — or null, for a field the view always shows, when unset.
 */
function responseSchema(k: EventFieldName): JsonSchema {
  const http: { struct: SomeStruct | null; response: JsonSchema | null } = FIELDS[k];
  if (http.response) return http.response;
  if (!http.struct)
    throw new Error(`event field ${k} needs a response schema: no request sends it`);
  const schema = toJsonSchema(http.struct);
  if (EVENT_FIELDS[k].view !== 'always') return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

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
      properties: Object.fromEntries(NAMES.map((k) => [k, responseSchema(k)])),
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
named('Reminder', Reminder);
named('TravelPlan', TravelPlan);
named('CreateEventBody', CreateEventBody);
named('UpdateEventBody', UpdateEventBody);

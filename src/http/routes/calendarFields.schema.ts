/**
 * The event fields on the wire: each field's request struct and response schema, keyed by the
 * domain's table (EVENT_FIELDS, src/domain/calendar/types.ts), and the field parts of the create
 * and PATCH bodies and of the event's `data` built from both. calendar.schema.ts makes the
 * bodies and answers of the calendar endpoints from them.
 */
import { S, named, toJsonSchema, type JsonSchema, type SomeStruct } from '../../door/schema.js';
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
  WHERE_MAX,
  type EventFieldInput,
  type EventFieldName,
  type EventFieldPatch,
  type FieldsWhere,
} from '../../domain/calendar/types.js';

const personId = S.string({ min: 1, max: 100 });
const attendance = S.enums(ATTENDANCE);

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

export type Shape = Record<string, SomeStruct>;
export const FIELD_NAMES = Object.keys(EVENT_FIELDS) as EventFieldName[];

/** The event fields of a create body, or of a PATCH body, by each field's facts. */
export function fieldShape(body: 'create' | 'patch'): Shape {
  const out: Shape = {};
  for (const name of FIELD_NAMES) {
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
 * A field's schema in the event's `data`: its own response schema where the table gives one,
 * else what a request sends for it — or null, for a field the view always shows, when unset.
 */
export function responseSchema(k: EventFieldName): JsonSchema {
  const http: { struct: SomeStruct | null; response: JsonSchema | null } = FIELDS[k];
  if (http.response) return http.response;
  if (!http.struct)
    throw new Error(`event field ${k} needs a response schema: no request sends it`);
  const schema = toJsonSchema(http.struct);
  if (EVENT_FIELDS[k].view !== 'always') return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

// Published once in the OpenAPI document, as components/schemas/<name>.
named('Reminder', Reminder);
named('TravelPlan', TravelPlan);

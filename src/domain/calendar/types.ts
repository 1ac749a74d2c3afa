/**
 * Records of the calendar area. An event is an entry (table `entries`) of a calendar
 * collection; its event fields live in the entry's `data` next to the household's own custom
 * keys, so the entries endpoints can show a calendar's events as they are. Custom data keys may
 * not take an event field's name. Changes to single occurrences of a series are kept on the
 * series as `exceptions`, keyed by the occurrence's original start date.
 */
import type { Entry, EntryStatus } from '../collections/types.js';
import type { RepeatFrequency } from './recurrence.js';
import type { FeedEventSource } from '../feeds/types.js';

export const ATTENDANCE = ['going', 'maybe', 'out'] as const;
export type Attendance = (typeof ATTENDANCE)[number];

export const REPEAT_FREQUENCIES = [
  'none',
  'daily',
  'weekdays',
  'weekends',
  'weekly',
  'monthly',
  'yearly',
  'custom',
] as const;
export const AUDIENCES = ['household', 'responsible', 'going', 'people'] as const;
export type Audience = (typeof AUDIENCES)[number];
export const CHANNELS = ['in_app', 'email', 'push', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];
export const REMINDER_MODES = ['plain', 'contextual'] as const;
export type ReminderMode = (typeof REMINDER_MODES)[number];

export interface Reminder {
  offsetMinutes: number;
  audience: Audience;
  channels: Channel[];
  mode: ReminderMode;
  recipientPersonIds: string[];
}

export interface TravelPlan {
  origin: string;
  baseTravelMinutes: number;
  arriveEarlyMinutes: number;
}

/**
 * What the code needs to know of one event field besides its type. Every consumer of the field
 * list is derived from EVENT_FIELDS below: the types, the key lists, and (in src/http) the
 * request structs and the response schema, through a table keyed by these names.
 */
export interface EventFieldFacts {
  /** A create must send it, may send it, or cannot (a field only a feed sets). */
  readonly create: 'required' | 'optional' | 'never';
  /**
   * What a PATCH may send: a value, or null to unset the field (`nullable`; an extension of ours,
   * docs/decisions.md, "PATCH": without it a field once set could not be removed); only a value
   * (`value`); a map merged key by key, null dropping one key (`merge`); nothing (`never`).
   */
  readonly patch: 'nullable' | 'value' | 'merge' | 'never';
  /** The API view shows it always (null when unset) or only when set. */
  readonly view: 'always' | 'whenSet';
  /** On an external feed's event: the feed owns it (a change → 409) or the family lays it over. */
  readonly feed: 'owned' | 'overlay';
}

/** A field's types, for the compiler only (never set): as stored, and as a request sends it. */
interface Typed<Stored, Input> {
  readonly types?: { stored: Stored; input: Input };
}

/** One table entry: the facts, typed with the stored type (and the input type where it differs). */
function field<Stored, Input = Stored>() {
  return <const F extends EventFieldFacts>(facts: F) => facts as F & Typed<Stored, Input>;
}

/**
 * Every event field, once: its stored type (input type where a request sends it otherwise) and
 * its facts. The order is the order of the request bodies, the stored data and the view.
 * To add a field: add it here, then give it a request struct and a response schema in
 * src/http/routes/calendarFields.schema.ts (the compiler asks for them); docs/design.md says more.
 */
export const EVENT_FIELDS = Object.freeze({
  date: field<string>()({ create: 'required', patch: 'value', view: 'always', feed: 'owned' }),
  time: field<string>()({ create: 'optional', patch: 'nullable', view: 'always', feed: 'owned' }),
  /** Inclusive end date of a multi-day event. */
  endDate: field<string>()({
    create: 'optional',
    patch: 'nullable',
    view: 'always',
    feed: 'owned',
  }),
  endTime: field<string>()({
    create: 'optional',
    patch: 'nullable',
    view: 'always',
    feed: 'owned',
  }),
  /** Stored only when true; the view derives it (true too without a start time). */
  allDay: field<boolean>()({ create: 'optional', patch: 'value', view: 'always', feed: 'owned' }),
  /**
   * The IANA zone the event's dates and times (repeats, single-occurrence edits, repeatUntil)
   * are written in; absent, the family's zone (and the event moves with it). Stored canonical:
   * Windows names and other casings are resolved on the way in (fields.ts).
   */
  timeZone: field<string>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'owned',
  }),
  durationMinutes: field<number>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'owned',
  }),
  where: field<string>()({ create: 'optional', patch: 'nullable', view: 'whenSet', feed: 'owned' }),
  note: field<string>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'overlay',
  }),
  assignee: field<string>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'overlay',
  }),
  ownerPersonId: field<string>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'overlay',
  }),
  responsiblePersonIds: field<string[]>()({
    create: 'optional',
    patch: 'value',
    view: 'whenSet',
    feed: 'overlay',
  }),
  responsibilityRequired: field<boolean>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'overlay',
  }),
  /** Each person's answer, by person id. */
  attendance: field<Record<string, Attendance>>()({
    create: 'optional',
    patch: 'merge',
    view: 'whenSet',
    feed: 'overlay',
  }),
  everyoneAttendance: field<Attendance>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'overlay',
  }),
  repeatFrequency: field<RepeatFrequency>()({
    create: 'optional',
    patch: 'value',
    view: 'whenSet',
    feed: 'owned',
  }),
  repeatInterval: field<number>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'owned',
  }),
  repeatDays: field<number[]>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'owned',
  }),
  /**
   * Extension: a monthly series on the n-th weekday of the month (1..4, or -1 for the last)
   * instead of on the start's day of the month; the weekday is the start's.
   */
  repeatNthWeekday: field<number>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'owned',
  }),
  /** Extension: the last date an occurrence may start on (inclusive). */
  repeatUntil: field<string>()({
    create: 'optional',
    patch: 'nullable',
    view: 'whenSet',
    feed: 'owned',
  }),
  /** Sent without defaults; stored with them filled. */
  reminders: field<Reminder[], ReminderInput[]>()({
    create: 'optional',
    patch: 'value',
    view: 'whenSet',
    feed: 'overlay',
  }),
  /** Sent without the arrive-early default; null (or clearTravelPlan on a PATCH) is none. */
  travelPlan: field<TravelPlan, TravelPlanInput | null>()({
    create: 'optional',
    patch: 'value',
    view: 'whenSet',
    feed: 'overlay',
  }),
  /** Feed events only: the feed's DESCRIPTION (read-only). */
  description: field<string>()({ create: 'never', patch: 'never', view: 'whenSet', feed: 'owned' }),
});

type FieldTable = typeof EVENT_FIELDS;
export type EventFieldName = keyof FieldTable;
type TypesOf<K extends EventFieldName> = NonNullable<FieldTable[K]['types']>;
/** The names of the fields whose fact `P` is `V`. */
export type FieldsWhere<P extends keyof EventFieldFacts, V extends EventFieldFacts[P]> = {
  [K in EventFieldName]: FieldTable[K][P] extends V ? K : never;
}[EventFieldName];
/** What a request sends for the field. */
export type EventFieldInput<K extends EventFieldName> = TypesOf<K>['input'];
/** What a PATCH sends for the field (by its `patch` fact). */
export type EventFieldPatch<K extends EventFieldName> = FieldTable[K]['patch'] extends 'nullable'
  ? NonNullable<EventFieldInput<K>> | null
  : FieldTable[K]['patch'] extends 'merge'
    ? EventFieldInput<K> extends Record<string, infer V>
      ? Record<string, V | null>
      : never
    : EventFieldInput<K>;
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The names of the fields whose fact `p` is `v`, in table order. */
function fieldsWhere<P extends keyof EventFieldFacts, V extends EventFieldFacts[P]>(
  p: P,
  v: V,
): FieldsWhere<P, V>[] {
  return (Object.keys(EVENT_FIELDS) as EventFieldName[]).filter(
    (k) => EVENT_FIELDS[k][p] === v,
  ) as FieldsWhere<P, V>[];
}

/** The event fields as stored (normalized: times `HH:mm`, defaults filled, unset fields absent). */
export type EventFields = Flat<
  { [K in FieldsWhere<'create', 'required'>]: TypesOf<K>['stored'] } & {
    [K in Exclude<EventFieldName, FieldsWhere<'create', 'required'>>]?: TypesOf<K>['stored'];
  }
>;

export type EventData = EventFields & Record<string, unknown>;

/**
 * One changed or removed occurrence. `data` holds only what the occurrence changed (event
 * fields and custom keys); a null value unsets that key for this occurrence.
 */
export interface OccurrenceException {
  removed?: true;
  title?: string;
  status?: EntryStatus;
  data?: Record<string, unknown>;
  updatedAt: string;
}

export interface EventRecord extends Entry {
  data: EventData;
  /** Keyed by the occurrence's original start date. */
  exceptions?: Record<string, OccurrenceException>;
  /** The external feed (`src_…`) this event mirrors; its feed-owned fields are read-only. */
  sourceId?: string;
  /** Feed events only: the feed's identity of the event and, when it repeats, its own rule. */
  feed?: FeedEventSource;
}

/** Every event field name: custom `data` keys may not use them. */
export const EVENT_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(EVENT_FIELDS),
  // Names the API uses around events; refused as custom keys to keep views unambiguous.
  'title',
  'status',
  'calendarKey',
  'occurrenceDate',
  'editScope',
  'clearAttendance',
  'clearTravelPlan',
  'data',
  'sourceId',
]);

export const REPEAT_KEYS = [
  'repeatFrequency',
  'repeatInterval',
  'repeatDays',
  'repeatNthWeekday',
  'repeatUntil',
] as const satisfies readonly (keyof EventFields)[];

/**
 * Fields an external feed owns: changing them on a feed event → 409. Every other
 * field is a family overlay and may change.
 */
export const FEED_OWNED: ReadonlySet<string> = new Set([
  'title',
  ...fieldsWhere('feed', 'owned'),
  'calendarKey',
  'data',
] satisfies (keyof EventEnvelope | EventFieldName)[]);

/** The fields the view shows always, null when unset. */
export const SHOWN_ALWAYS = fieldsWhere('view', 'always');

/** Limits of our own choosing (docs/decisions.md). */
export const TITLE_MAX = 500;
export const WHERE_MAX = 500;
export const NOTE_MAX = 20_000;
export const ASSIGNEE_MAX = 200;
export const REMINDERS_MAX = 20;
export const PEOPLE_MAX = 100;

export interface ReminderInput {
  offsetMinutes: number;
  audience?: Audience;
  channels?: Channel[];
  mode?: ReminderMode;
  recipientPersonIds?: string[];
}

export interface TravelPlanInput {
  origin: string;
  baseTravelMinutes: number;
  arriveEarlyMinutes?: number;
}

/** What a create or an update says about an event besides its fields. */
interface EventEnvelope {
  title: string;
  calendarKey: string;
  data: Record<string, unknown>;
}

/**
 * The create fields, already shaped by the request struct (times normalized): every field a
 * create may send, as it sends it (reminders and the travel plan without their defaults).
 */
export type EventInput = Flat<
  Pick<EventEnvelope, 'title'> &
    Partial<Omit<EventEnvelope, 'title'>> & {
      [K in FieldsWhere<'create', 'required'>]: EventFieldInput<K>;
    } & { [K in FieldsWhere<'create', 'optional'>]?: EventFieldInput<K> }
>;

/** Optional fields a PATCH may unset with null. */
export const NULLABLE_ON_PATCH = fieldsWhere('patch', 'nullable');
export type NullableOnPatch = FieldsWhere<'patch', 'nullable'>;

/**
 * PATCH fields: every field a PATCH may send, by its `patch` fact (null unsets one of
 * NULLABLE_ON_PATCH, and drops one person's attendance). Plus how to apply it.
 */
export type EventPatch = Flat<
  Partial<EventEnvelope> & {
    [K in Exclude<EventFieldName, FieldsWhere<'patch', 'never'>>]?: EventFieldPatch<K>;
  } & {
    clearAttendance?: boolean;
    clearTravelPlan?: boolean;
    editScope?: 'occurrence' | 'series';
    occurrenceDate?: string;
    status?: EntryStatus;
  }
>;

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
export type Attendance = typeof ATTENDANCE[number];

export const REPEAT_FREQUENCIES = ['none', 'daily', 'weekdays', 'weekends', 'weekly', 'monthly', 'yearly', 'custom'] as const;
export const AUDIENCES = ['household', 'responsible', 'going', 'people'] as const;
export type Audience = typeof AUDIENCES[number];
export const CHANNELS = ['in_app', 'email', 'push', 'sms'] as const;
export type Channel = typeof CHANNELS[number];
export const REMINDER_MODES = ['plain', 'contextual'] as const;
export type ReminderMode = typeof REMINDER_MODES[number];

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

/** The event fields as stored (normalized: times `HH:mm`, defaults filled, unset fields absent). */
export interface EventFields {
  date: string;
  /** Inclusive end date of a multi-day event. */
  endDate?: string;
  time?: string;
  endTime?: string;
  allDay?: boolean;
  durationMinutes?: number;
  where?: string;
  note?: string;
  /** Feed events only: the feed's DESCRIPTION (read-only). */
  description?: string;
  assignee?: string;
  ownerPersonId?: string;
  responsiblePersonIds?: string[];
  responsibilityRequired?: boolean;
  attendance?: Record<string, Attendance>;
  everyoneAttendance?: Attendance;
  repeatFrequency?: RepeatFrequency;
  repeatInterval?: number;
  repeatDays?: number[];
  /** Extension: the last date an occurrence may start on (inclusive). */
  repeatUntil?: string;
  reminders?: Reminder[];
  travelPlan?: TravelPlan;
}

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

/** EventFields' names as a value; `satisfies` makes the compiler hold the two lists equal. */
const EVENT_FIELD_NAMES = {
  date: true, endDate: true, time: true, endTime: true, allDay: true, durationMinutes: true, where: true, note: true,
  description: true, assignee: true, ownerPersonId: true, responsiblePersonIds: true, responsibilityRequired: true,
  attendance: true, everyoneAttendance: true, repeatFrequency: true, repeatInterval: true, repeatDays: true,
  repeatUntil: true, reminders: true, travelPlan: true,
} as const satisfies Record<keyof EventFields, true>;

/** Every event field name: custom `data` keys may not use them. */
export const EVENT_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(EVENT_FIELD_NAMES),
  // Names the API uses around events; refused as custom keys to keep views unambiguous.
  'title', 'status', 'calendarKey', 'occurrenceDate', 'editScope', 'clearAttendance', 'clearTravelPlan', 'data', 'sourceId',
]);

export const REPEAT_KEYS = ['repeatFrequency', 'repeatInterval', 'repeatDays', 'repeatUntil'] as const satisfies readonly (keyof EventFields)[];

/**
 * Fields an external feed owns: changing them on a feed event → 409. Every other
 * field is a family overlay and may change.
 */
export const FEED_OWNED: ReadonlySet<string> = new Set([
  'title', 'date', 'endDate', 'time', 'endTime', 'allDay', 'durationMinutes', 'where', 'description',
  'repeatFrequency', 'repeatInterval', 'repeatDays', 'repeatUntil', 'calendarKey', 'data',
] satisfies (keyof EventFields | 'title' | 'calendarKey' | 'data')[]);

/** Limits the contract leaves open (decisions). */
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
 * The create fields, already shaped by the request struct (times normalized): the stored
 * fields but the feed-only `description`, with reminders and the travel plan as sent (defaults
 * not yet filled; a null travel plan is none).
 */
export type EventInput = Pick<EventEnvelope, 'title'> & Partial<Omit<EventEnvelope, 'title'>>
  & Omit<EventFields, 'description' | 'reminders' | 'travelPlan'>
  & { reminders?: ReminderInput[]; travelPlan?: TravelPlanInput | null };

/** Optional fields a PATCH may unset with null (an extension; the contract shows no way to remove a field). */
export const NULLABLE_ON_PATCH = [
  'time', 'endDate', 'endTime', 'durationMinutes', 'where', 'note', 'assignee', 'ownerPersonId',
  'responsibilityRequired', 'everyoneAttendance', 'repeatInterval', 'repeatDays', 'repeatUntil',
] as const satisfies readonly (keyof EventFields)[];
export type NullableOnPatch = typeof NULLABLE_ON_PATCH[number];

/**
 * PATCH fields: every create field may change; those of NULLABLE_ON_PATCH may be null to unset
 * them, and attendance values may be null to drop one person's answer. Plus how to apply it.
 */
export type EventPatch = Partial<EventEnvelope>
  & { [K in NullableOnPatch]?: NonNullable<EventFields[K]> | null }
  & Partial<Pick<EventFields, 'date' | 'allDay' | 'responsiblePersonIds' | 'repeatFrequency'>>
  & {
    attendance?: Record<string, Attendance | null>;
    reminders?: ReminderInput[];
    travelPlan?: TravelPlanInput | null;
    clearAttendance?: boolean;
    clearTravelPlan?: boolean;
    editScope?: 'occurrence' | 'series';
    occurrenceDate?: string;
    status?: EntryStatus;
  };

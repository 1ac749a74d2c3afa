/**
 * The input model of the RFC 5545 writer (ics.ts): an event with its timing, fields, changed
 * occurrences and, for external feeds, its own-zone series; the calendar around them.
 */
import type { EventFields } from './types.js';

export type IcsStatus = 'active' | 'done' | 'archived';

/** When an event happens, in the stored event's own fields. */
export type IcsTiming = Pick<
  EventFields,
  'date' | 'endDate' | 'time' | 'endTime' | 'allDay' | 'durationMinutes'
>;

export interface IcsFields {
  summary?: string;
  description?: string;
  location?: string;
  status?: IcsStatus;
}

/** One changed occurrence: fields given replace the series' (its timing shifted to the date). */
export interface IcsOverride extends Partial<IcsTiming>, IcsFields {
  /** The occurrence's original start date. */
  recurrenceDate: string;
  updatedAt?: Date;
  /** Content lines written as they are, last in the component (CalDAV objects). */
  extra?: string[];
}

export interface IcsEvent extends IcsTiming, IcsFields {
  /** See eventUid(): never derived from anything an admin may change. */
  uid: string;
  summary: string;
  /** An RRULE value as rruleFor() writes it. */
  rrule?: string;
  /** Start dates of removed occurrences. */
  exdates?: string[];
  overrides?: IcsOverride[];
  /**
   * The IANA zone its dates and times are in (the event's own `timeZone`); absent, the
   * calendar's. Its values are written with this TZID, and its VTIMEZONE beside the others.
   */
  timeZone?: string;
  /** A series written with its own zone and rule (events of external feeds). */
  own?: IcsOwnSeries;
  createdAt?: Date;
  updatedAt: Date;
  /** Content lines written as they are, last in the component (CalDAV objects). */
  extra?: string[];
}

/** A repeating event as its feed wrote it: wall-clock values in `tz`, or dates (all-day). */
export interface IcsOwnSeries {
  /** IANA zone of the values; null for an all-day series. */
  tz: string | null;
  /** DTSTART: `YYYY-MM-DDTHH:mm:ss` or `YYYY-MM-DD`. */
  start: string;
  /** DTEND: the same form (for all-day the exclusive end date). */
  end: string;
  rrule?: string;
  rdates: string[];
  /** Original starts of removed occurrences. */
  exdates: string[];
  /** RECURRENCE-ID of each override, by the override's `recurrenceDate`. */
  recurrenceIds: Record<string, string>;
}

export interface IcsCalendar {
  name: string;
  /** IANA zone of the family. */
  timezone: string;
  prodId?: string;
  now: Date;
  events: IcsEvent[];
  /** One CalDAV object: no calendar name or refresh hints, which belong to a feed. */
  object?: boolean;
}

/** Whether the timing is all-day (no start time). */
export function isAllDay(t: IcsTiming): boolean {
  return t.allDay === true || !t.time;
}

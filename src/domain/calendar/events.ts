/**
 * Calendar events: reading one, its API view, creating and deleting a series.
 * Updates and single-occurrence changes are in occurrences.ts, listings in listing.ts.
 *
 * Other areas (plans, notifications, context) use this module's exports; keep their names.
 */
import { getCollection, isCalendar } from '../collections/collections.js';
import { ENTRIES, type Collection } from '../collections/types.js';
import { Conflict, Invalid, NotFound, failOnIssues, type Issue } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { instantToLocal } from '../shared/time.js';
import { checkEvent, applyFields } from './fields.js';
import { onFamilyClock, occurrenceData, startMs, startsAtOf, zoneOf } from './series.js';
import { SHOWN_ALWAYS, type EventData, type EventInput, type EventRecord } from './types.js';

export type { EventRecord, EventInput, EventPatch, EventData } from './types.js';
export { occurrenceData };

export const DEFAULT_CALENDAR = 'calendar';

/** The event `id`, if it is an entry of a calendar collection. */
export function getEvent(state: FamilyState, id: string): EventRecord | undefined {
  const e = state.get<EventRecord>(ENTRIES, id);
  if (!e) return undefined;
  const c = getCollection(state, e.collectionKey);
  return c && isCalendar(c) ? e : undefined;
}

export function requireEvent(state: FamilyState, id: string): EventRecord {
  const e = getEvent(state, id);
  if (!e) throw new NotFound(`No calendar event ${id} in this family`);
  return e;
}

/** Whether the series repeats (by its repeat fields, or by an external feed's own rule). */
export function isSeries(ev: { data: EventData; feed?: EventRecord['feed'] }): boolean {
  if (ev.feed?.recur) return true;
  return ev.data.repeatFrequency !== undefined && ev.data.repeatFrequency !== 'none';
}

export interface EventTiming {
  date: string;
  /** Inclusive end date; equals `date` for a one-day event. */
  endDate: string;
  time: string | null;
  endTime: string | null;
  /** True when declared all-day or when the event has no start time. */
  allDay: boolean;
}

/**
 * The timing of an event (of a series: its first occurrence) on the family's clock (`tz`): as
 * written for an event in the family's zone, moved by its instants for one in another zone.
 */
export function eventTiming(ev: { data: EventData }, tz: string): EventTiming {
  const at = onFamilyClock(ev.data, tz);
  return {
    date: at.date,
    endDate: at.endDate,
    time: at.time,
    endTime: at.endTime,
    allDay: at.allDay,
  };
}

/**
 * `YYYY-MM-DDTHH:mm` to leave, or undefined without a start time: on the clock of `clockTz`
 * (default: the event's own zone, beside its date and time; the display passes the family's).
 */
export function leaveAt(d: EventData, tz: string, clockTz = zoneOf(d, tz)): string | undefined {
  if (!d.travelPlan || !d.time || d.allDay) return undefined;
  const start = startMs(d, tz);
  const minutes = d.travelPlan.baseTravelMinutes + d.travelPlan.arriveEarlyMinutes;
  const l = instantToLocal(new Date(start - minutes * 60_000), clockTz);
  return `${l.date}T${l.time}`;
}

/**
 * Event data as the API shows it: the fields of SHOWN_ALWAYS always (null when unset, `allDay`
 * derived), every other field only when set, custom keys as stored, and `travelPlan.leaveAt`
 * derived.
 */
export function viewData(d: EventData, tz: string): Record<string, unknown> {
  const { travelPlan, ...rest } = d;
  const always: ReadonlySet<string> = new Set(SHOWN_ALWAYS);
  const out: Record<string, unknown> = {
    ...Object.fromEntries(SHOWN_ALWAYS.map((k) => [k, d[k] ?? null])),
    allDay: d.allDay === true || d.time === undefined,
    ...Object.fromEntries(Object.entries(rest).filter(([k]) => !always.has(k))),
  };
  if (travelPlan) {
    const at = leaveAt(d, tz);
    out.travelPlan = { ...travelPlan, ...(at ? { leaveAt: at } : {}) };
  }
  return out;
}

export interface EventView {
  id: string;
  title: string;
  status: EventRecord['status'];
  calendarKey: string;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  sourceId?: string;
  /** Events of external feeds: the feed's UID and, for a repeating one, its own rule. */
  feed?: FeedInfo;
  occurrenceDate?: string;
  /**
   * The instant the event (a series: its first occurrence; a listed occurrence: that one) starts,
   * ISO 8601 UTC; an all-day one at the start of its first day in its zone.
   */
  startsAt: string;
  exceptions?: ExceptionView[];
}

export interface FeedInfo {
  uid: string;
  recurrenceId?: string;
  rrule?: string;
  timezone?: string;
}

function feedInfo(ev: EventRecord): FeedInfo | undefined {
  const f = ev.feed;
  if (!f) return undefined;
  return {
    uid: f.uid,
    ...(f.recurrenceId ? { recurrenceId: f.recurrenceId } : {}),
    ...(f.recur?.rrule ? { rrule: f.recur.rrule } : {}),
    ...(f.recur?.tz ? { timezone: f.recur.tz } : {}),
  };
}

export interface ExceptionView {
  occurrenceDate: string;
  removed?: true;
  title?: string;
  status?: EventRecord['status'];
  data?: Record<string, unknown>;
}

/** A series (or single event) as the API shows it, with its occurrence exceptions when any. */
export function eventView(state: FamilyState, ev: EventRecord): EventView {
  const exceptions = Object.entries(ev.exceptions ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([occurrenceDate, x]): ExceptionView => ({
      occurrenceDate,
      ...(x.removed ? { removed: true } : {}),
      ...(x.title !== undefined ? { title: x.title } : {}),
      ...(x.status !== undefined ? { status: x.status } : {}),
      ...(x.data ? { data: x.data } : {}),
    }));
  return {
    id: ev.id,
    title: ev.title,
    status: ev.status,
    calendarKey: ev.collectionKey,
    data: viewData(ev.data, state.family.timezone),
    startsAt: startsAtOf(ev.data, state.family.timezone),
    createdAt: ev.createdAt,
    updatedAt: ev.updatedAt,
    ...(ev.sourceId ? { sourceId: ev.sourceId } : {}),
    ...(ev.feed ? { feed: feedInfo(ev)! } : {}),
    ...(exceptions.length ? { exceptions } : {}),
  };
}

/** One occurrence as the listing shows it: the series id plus `occurrenceDate`. */
export function occurrenceView(
  state: FamilyState,
  ev: EventRecord,
  occurrenceDate: string,
): EventView {
  const x = ev.exceptions?.[occurrenceDate];
  const d = occurrenceData(ev, occurrenceDate, x);
  return {
    id: ev.id,
    occurrenceDate,
    title: x?.title ?? ev.title,
    status: x?.status ?? ev.status,
    calendarKey: ev.collectionKey,
    data: viewData(d, state.family.timezone),
    startsAt: startsAtOf(d, state.family.timezone),
    createdAt: ev.createdAt,
    updatedAt: x && x.updatedAt > ev.updatedAt ? x.updatedAt : ev.updatedAt,
    ...(ev.sourceId ? { sourceId: ev.sourceId } : {}),
    ...(ev.feed ? { feed: feedInfo(ev)! } : {}),
  };
}

/** A calendar events may be written to: a calendar collection that no feed owns. */
export function writableCalendar(state: FamilyState, key: string): Collection {
  const c = getCollection(state, key);
  if (!c || !isCalendar(c))
    throw Invalid.at(['calendarKey'], `is not a calendar of this family: ${key}`);
  if (c.sourceId) throw new Conflict(`${c.name} mirrors an external feed and is read-only`);
  return c;
}

export function cleanTitle(title: string, issues: Issue[]): string {
  const t = title.trim();
  if (!t) issues.push({ path: ['title'], message: 'must not be blank' });
  return t;
}

/** Creates an event (a one-off or a series) in `calendarKey`, default `calendar`. */
export function decideCreateEvent(
  state: FamilyState,
  input: EventInput,
  ctx: CommandContext,
): Decision<EventRecord> {
  const calendar = writableCalendar(state, input.calendarKey ?? DEFAULT_CALENDAR);
  const issues: Issue[] = [];
  const title = cleanTitle(input.title, issues);
  const { calendarKey: _c, title: _t, ...fields } = input;
  const data = applyFields(state, {}, fields, issues) as EventData;
  if (!issues.length) checkEvent(data, issues);
  failOnIssues(issues);
  const at = ctx.now.toISOString();
  const ev: EventRecord = {
    id: ctx.newId('ent'),
    collectionKey: calendar.key,
    title,
    status: 'active',
    data,
    createdAt: at,
    updatedAt: at,
  };
  return withEventReactions(state, ev, ctx, {
    result: ev,
    changes: [{ table: ENTRIES, id: ev.id, value: ev }],
    events: [{ type: 'calendar.event.created', object: eventView(state, ev) }],
  });
}

/**
 * Adds what other areas do when `ev` is written (reminders and checks move with it) to the
 * decision that writes it, so both land in one transaction.
 */
export function withEventReactions<R>(
  state: FamilyState,
  ev: EventRecord,
  ctx: CommandContext,
  d: Decision<R>,
): Decision<R> {
  const more = ctx.react.eventChanged(state, ev, ctx);
  return {
    ...d,
    changes: [...d.changes, ...more.changes],
    events: [...d.events, ...more.events],
    agenda: [...(d.agenda ?? []), ...(more.agenda ?? [])],
  };
}

/**
 * Deletes an event with all its occurrences; other areas (plans) drop their links in the same
 * decision. Events of an external feed cannot be deleted (409): remove the feed instead.
 */
export function decideDeleteEvent(
  state: FamilyState,
  id: string,
  ctx: CommandContext,
): Decision<EventRecord> {
  const ev = requireEvent(state, id);
  if (ev.sourceId)
    throw new Conflict(`Event ${id} comes from an external calendar feed and cannot be deleted`);
  const more = ctx.react.eventsRemoved(state, [id], ctx);
  return {
    result: ev,
    changes: [{ table: ENTRIES, id, value: null }, ...more.changes],
    events: [{ type: 'calendar.event.deleted', object: eventView(state, ev) }, ...more.events],
    agenda: more.agenda ?? [],
  };
}

/**
 * A VEVENT object → the event's fields (docs/caldav.md, "Events"). Rules:
 * - an event keeps the zone its DTSTART is written in (zoneFor): its dates and times are read in
 *   that zone and it becomes the event's `timeZone` (none when it is the family's own); every
 *   other value (DTEND, EXDATE, RECURRENCE-ID, a changed occurrence's times, UNTIL) is read in
 *   that same zone, so nothing is refused for its zone;
 * - RRULE maps to the repeat fields the API has (COUNT becomes the matching repeatUntil);
 *   any other rule part, RDATE or EXRULE is refused (403), never silently changed;
 * - VALARMs triggered relative to the start are reminders; other alarms are kept as sent;
 * - ATTENDEEs whose address is a person's email are that person's attendance;
 * - X-HOUSEHOLD-* properties set the REST-only fields; left out, those fields stay as they were;
 * - every other property is kept and served back.
 * The RRULE mapping is in eventRepeat.ts, the X-HOUSEHOLD-* fields in eventHousehold.ts.
 */
import type ICAL from 'ical.js';
import type {
  EventPatch,
  EventRecord,
  Reminder,
  ReminderInput,
  Attendance,
} from '../domain/calendar/types.js';
import { AUDIENCES, CHANNELS, REMINDER_MODES } from '../domain/calendar/types.js';
import { zoneOf } from '../domain/calendar/series.js';
import type { EventPut, OccurrencePut } from '../domain/caldav/objects.js';
import type { EntryStatus } from '../domain/collections/types.js';
import { listPeople } from '../domain/people/people.js';
import type { FamilyState } from '../domain/shared/state.js';
import { addDays, daysBetween, instantToLocal, isUtcZone } from '../domain/shared/time.js';
import { badCalendarData, unsupportedObject } from './errors.js';
import { householdFields, jsonProp } from './eventHousehold.js';
import { repeatOf } from './eventRepeat.js';
import {
  MAX_YEAR,
  durationSeconds,
  instantOf,
  localOf,
  prop,
  props,
  rawLines,
  text,
  written,
  type CalObject,
  type Component,
  type Local,
  type Written,
} from './icalRead.js';

/** Properties the mapping reads; every other one is kept as sent. */
const READ = new Set([
  'uid',
  'dtstamp',
  'dtstart',
  'dtend',
  'duration',
  'summary',
  'description',
  'location',
  'status',
  'rrule',
  'exdate',
  'recurrence-id',
  'created',
  'last-modified',
]);

export interface EventTarget {
  collectionKey: string;
  name: string;
  before?: EventRecord;
}

/** Maps a parsed VEVENT object to an EventPut. Throws CalDavError for what cannot be held. */
export function eventPut(state: FamilyState, obj: CalObject, target: EventTarget): EventPut {
  const master = obj.master;
  if (!master)
    throw unsupportedObject(
      'The object holds only changed occurrences (RECURRENCE-ID) and no series',
    );
  const p = master[1];
  for (const refused of ['rdate', 'exrule']) {
    if (prop(p, refused))
      throw unsupportedObject(
        `${refused.toUpperCase()} is not supported: the household calendar repeats by one rule (RRULE) with removed dates (EXDATE)`,
      );
  }
  const start = one(p, 'dtstart', obj);
  if (!start) throw badCalendarData('A VEVENT needs a DTSTART');
  const rrule = prop(p, 'rrule');
  const zone = zoneFor(start, rrule !== undefined, state.family.timezone, target.before);
  const tz = zone.tz;
  const timing = timingOf(master, start, obj, tz);
  const fields: EventPatch = {
    ...timing.fields,
    ...(zone.timeZone !== undefined ? { timeZone: zone.timeZone } : {}),
    ...repeatOf(rrule, start, timing.local, tz),
  };
  if (typeof fields.endDate === 'string' && Number(fields.endDate.slice(0, 4)) > MAX_YEAR) {
    throw unsupportedObject(
      `The event ends in ${fields.endDate.slice(0, 4)}; dates up to ${MAX_YEAR} are held`,
    );
  }
  fields.where = text(prop(p, 'location'))?.trim() || null;
  fields.note = text(prop(p, 'description'))?.trim() || null;
  const keep: string[] = [];
  const attendance = attendanceOf(state, p, target.before, keep);
  if (attendance) fields.attendance = attendance;
  fields.reminders = remindersOf(master, target.before, keep);
  Object.assign(fields, householdFields(p, target.before));
  for (const q of p) {
    if (READ.has(q[0]) || q[0] === 'attendee' || q[0].startsWith('x-household-')) continue;
    keep.push(...rawLines(q, false));
  }
  const seriesStatus = statusOf(p, target.before?.status);
  const removed = props(p, 'exdate')
    .flatMap((x) => written(x, obj))
    .map((w) => localOf(w, tz).date);
  const keepByOccurrence: Record<string, string[]> = {};
  const overrides: OccurrencePut[] = obj.overrides.map((o) => {
    const occ = overrideOf(o, obj, tz, seriesStatus);
    if (occ.keep.length) keepByOccurrence[occ.put.date] = occ.keep;
    return occ.put;
  });
  if (!rrule && overrides.length)
    throw unsupportedObject('Changed occurrences (RECURRENCE-ID) need a repeating series (RRULE)');
  return {
    collectionKey: target.collectionKey,
    ...(target.before ? { id: target.before.id } : {}),
    title: summaryOf(p),
    status: seriesStatus,
    fields,
    overrides,
    removed: rrule ? removed : [],
    dav: {
      name: target.name,
      uid: obj.uid,
      ...(keep.length ? { keep } : {}),
      ...(Object.keys(keepByOccurrence).length ? { keepByOccurrence } : {}),
    },
  };
}

/**
 * The zone an object's values are read in (`tz`), and the event's `timeZone` for it (undefined:
 * left as it was). Chosen to round-trip with clients and never to drift:
 * - a TZID (IANA, a Windows name mapped, a VTIMEZONE matched by its rules): that zone, kept as
 *   the event's; none when it is the family's own and the event did not already name it (so a
 *   phone in the family's zone writes ordinary events that move with the family);
 * - a floating time: the family's wall clock (no zone of its own);
 * - UTC (`…Z`) on a repeating event: UTC itself (`timeZone: "UTC"`, or the UTC-like zone it
 *   already had), since its rule repeats in UTC and its instants must not move with the
 *   family's daylight saving; on a one-off: the zone the event already has (the family's for a
 *   new one), at the same instant — a client that writes UTC gets its instant back, and a REST
 *   event's own zone survives a client that saves it in UTC;
 * - an all-day DTSTART has no zone: the event keeps whatever zone it had.
 */
function zoneFor(
  start: Written,
  repeating: boolean,
  familyTz: string,
  before: EventRecord | undefined,
): { tz: string; timeZone?: string | null } {
  const had = before?.data.timeZone ? zoneOf(before.data, familyTz) : undefined;
  if (start.time === undefined) return { tz: had ?? familyTz };
  if (start.floating) return { tz: familyTz, timeZone: null };
  if (start.utc) {
    if (!repeating) return { tz: had ?? familyTz };
    if (had && isUtcZone(had)) return { tz: had };
    return isUtcZone(familyTz) ? { tz: familyTz, timeZone: null } : { tz: 'UTC', timeZone: 'UTC' };
  }
  const z = start.tz!;
  return z === familyTz && had !== z ? { tz: z, timeZone: null } : { tz: z, timeZone: z };
}

function one(p: ICAL.JCalProperty[], name: string, obj: CalObject): Written | undefined {
  const x = prop(p, name);
  return x ? written(x, obj)[0] : undefined;
}

function summaryOf(p: ICAL.JCalProperty[]): string {
  // Clients save events with no title at all (Thunderbird); the API needs one.
  return text(prop(p, 'summary'))?.trim() || 'Untitled';
}

function statusOf(p: ICAL.JCalProperty[], before: EntryStatus | undefined): EntryStatus {
  if (text(prop(p, 'status'))?.toUpperCase() === 'CANCELLED') return 'archived';
  // `done` is a household state iCalendar cannot say for an event: it stays.
  return before === 'done' ? 'done' : 'active';
}

interface Timing {
  fields: EventPatch;
  local: Local;
}

/** DTSTART and DTEND/DURATION → date, time, endDate, endTime, allDay, read in `tz`. */
function timingOf(c: Component, start: Written, obj: CalObject, tz: string): Timing {
  const p = c[1];
  const s = localOf(start, tz);
  const endProp = one(p, 'dtend', obj);
  const dur = durationSeconds(prop(p, 'duration')?.[3]);
  const none = { endDate: null, endTime: null, durationMinutes: null };
  if (s.time === undefined) {
    // All-day: DTEND is exclusive.
    let endExclusive = endProp
      ? endProp.date
      : dur !== null
        ? addDays(s.date, Math.max(1, Math.round(dur / 86_400)))
        : addDays(s.date, 1);
    if (endExclusive <= s.date) endExclusive = addDays(s.date, 1);
    const last = addDays(endExclusive, -1);
    return {
      local: s,
      fields: {
        ...none,
        date: s.date,
        allDay: true,
        time: null,
        endDate: last > s.date ? last : null,
      },
    };
  }
  let end: Local | undefined;
  if (endProp)
    end = endProp.time === undefined ? { date: endProp.date, time: '00:00' } : localOf(endProp, tz);
  else if (dur !== null && dur > 0) {
    end = instantToLocal(new Date(instantOf(start, tz).getTime() + dur * 1000), tz);
  }
  const fields: EventPatch = { ...none, date: s.date, time: s.time, allDay: false };
  if (end && (end.date > s.date || (end.date === s.date && end.time! > s.time))) {
    // The exact end, however short: a 5-minute call stays 5 minutes.
    if (end.date > s.date) fields.endDate = end.date;
    fields.endTime = end.time!;
  }
  return { local: s, fields };
}

const PARTSTAT: Record<string, Attendance> = {
  ACCEPTED: 'going',
  TENTATIVE: 'maybe',
  DECLINED: 'out',
};

/** ATTENDEEs matched to people by email; the rest are kept. Null removes a person's answer. */
function attendanceOf(
  state: FamilyState,
  p: ICAL.JCalProperty[],
  before: EventRecord | undefined,
  keep: string[],
): Record<string, Attendance | null> | undefined {
  const byEmail = new Map<string, string>();
  for (const person of listPeople(state))
    if (person.email) byEmail.set(person.email.toLowerCase(), person.id);
  const out: Record<string, Attendance | null> = {};
  // People with an email whose answer the object no longer states lose it; others keep theirs.
  for (const [id] of Object.entries(before?.data.attendance ?? {})) {
    if ([...byEmail.values()].includes(id)) out[id] = null;
  }
  for (const a of props(p, 'attendee')) {
    const address = (text(a) ?? '')
      .replace(/^mailto:/i, '')
      .trim()
      .toLowerCase();
    const id = byEmail.get(address);
    if (!id) {
      keep.push(...rawLines(a, false));
      continue;
    }
    const stat = String(a[1].partstat ?? 'NEEDS-ACTION').toUpperCase();
    out[id] = PARTSTAT[stat] ?? null;
  }
  return Object.keys(out).length ? out : undefined;
}

/** VALARMs relative to the start → reminders (their household details kept by offset). */
function remindersOf(
  c: Component,
  before: EventRecord | undefined,
  keep: string[],
): ReminderInput[] {
  const details = new Map<number, Reminder>();
  for (const r of before?.data.reminders ?? []) details.set(r.offsetMinutes, r);
  const sent = jsonProp(c[1], 'x-household-reminders');
  if (Array.isArray(sent))
    for (const r of sent) if (isReminder(r)) details.set(r.offsetMinutes, r as Reminder);
  const out = new Map<number, ReminderInput>();
  for (const alarm of c[2].filter((x) => x[0] === 'valarm')) {
    const trigger = prop(alarm[1], 'trigger');
    const related = String(trigger?.[1].related ?? 'START').toUpperCase();
    const secs = trigger && trigger[2] === 'duration' ? durationSeconds(trigger[3]) : null;
    if (secs === null || related !== 'START' || secs > 0 || secs < -20160 * 60 || out.size >= 20) {
      keep.push(...rawLines(alarm, true));
      continue;
    }
    const offsetMinutes = Math.round(-secs / 60);
    const d = details.get(offsetMinutes);
    out.set(
      offsetMinutes,
      d
        ? {
            offsetMinutes,
            audience: d.audience,
            channels: d.channels,
            mode: d.mode,
            recipientPersonIds: d.recipientPersonIds,
          }
        : { offsetMinutes },
    );
  }
  return [...out.values()];
}

function isReminder(r: unknown): r is ReminderInput {
  if (!r || typeof r !== 'object') return false;
  const x = r as Record<string, unknown>;
  return (
    Number.isInteger(x.offsetMinutes) &&
    (x.audience === undefined || (AUDIENCES as readonly unknown[]).includes(x.audience)) &&
    (x.mode === undefined || (REMINDER_MODES as readonly unknown[]).includes(x.mode)) &&
    (x.channels === undefined ||
      (Array.isArray(x.channels) &&
        x.channels.every((ch) => (CHANNELS as readonly unknown[]).includes(ch)))) &&
    (x.recipientPersonIds === undefined ||
      (Array.isArray(x.recipientPersonIds) &&
        x.recipientPersonIds.every((id) => typeof id === 'string')))
  );
}

/**
 * One changed occurrence (RECURRENCE-ID) → its date and fields, read in the series' zone `tz`
 * (whatever zone the client wrote them in); unknown properties kept.
 */
function overrideOf(
  c: Component,
  obj: CalObject,
  tz: string,
  seriesStatus: EntryStatus,
): { put: OccurrencePut; keep: string[] } {
  const p = c[1];
  const rid = written(prop(p, 'recurrence-id')!, obj)[0];
  const date = localOf(rid, tz).date;
  const start = one(p, 'dtstart', obj) ?? rid;
  const timing = timingOf(c, start, obj, tz);
  const keep: string[] = [];
  const fields: EventPatch = { ...timing.fields };
  fields.where = text(prop(p, 'location'))?.trim() || null;
  fields.note = text(prop(p, 'description'))?.trim() || null;
  // Attendance is the series' (an occurrence's ATTENDEEs are kept as sent).
  for (const q of p) {
    if (READ.has(q[0]) || q[0].startsWith('x-household-')) continue;
    keep.push(...rawLines(q, false));
  }
  for (const alarm of c[2]) keep.push(...rawLines(alarm, true));
  if (daysBetween(date, timing.local.date) > 366 * 5)
    throw unsupportedObject('A changed occurrence moves more than five years');
  const status: EntryStatus =
    text(prop(p, 'status'))?.toUpperCase() === 'CANCELLED'
      ? 'archived'
      : seriesStatus === 'archived'
        ? 'active'
        : seriesStatus;
  return { put: { date, title: summaryOf(p), status, fields }, keep };
}

/**
 * A VEVENT object → the event's fields (docs/caldav.md, "Events"). Rules:
 * - times become the family's local dates and times; a one-off event in another zone is
 *   converted, a repeating one only when its zone keeps the same daylight-saving dates as the
 *   family's (else 403: the series would drift by an hour for part of the year);
 * - RRULE maps to the repeat fields the API has (COUNT becomes the matching repeatUntil);
 *   any other rule part, RDATE or EXRULE is refused (403), never silently changed;
 * - VALARMs triggered relative to the start are reminders; other alarms are kept as sent;
 * - ATTENDEEs whose address is a person's email are that person's attendance;
 * - X-HOUSEHOLD-* properties set the REST-only fields; left out, those fields stay as they were;
 * - every other property is kept and served back.
 */
import type ICAL from 'ical.js';
import { occurrenceStarts, BYDAY } from '../domain/calendar/recurrence.js';
import type {
  EventPatch,
  EventRecord,
  Reminder,
  ReminderInput,
  Attendance,
} from '../domain/calendar/types.js';
import {
  ATTENDANCE,
  AUDIENCES,
  CHANNELS,
  EVENT_FIELDS,
  REMINDER_MODES,
} from '../domain/calendar/types.js';
import type { EventPut, OccurrencePut } from '../domain/caldav/objects.js';
import type { EntryStatus } from '../domain/collections/types.js';
import { listPeople } from '../domain/people/people.js';
import type { FamilyState } from '../domain/shared/state.js';
import { addDays, daysBetween, instantToLocal, localToInstant } from '../domain/shared/time.js';
import { badCalendarData, unsupportedObject } from './errors.js';
import {
  MAX_YEAR,
  durationSeconds,
  instantOf,
  localOf,
  prop,
  props,
  rawLines,
  sameDstRules,
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
  const tz = state.family.timezone;
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
  if (
    rrule &&
    start.time !== undefined &&
    !start.floating &&
    start.tz &&
    !sameDstRules(start.tz, tz, start.date)
  ) {
    throw unsupportedObject(
      `This repeating event is written in ${start.tz}, whose daylight-saving dates differ from the family's zone ${tz}; its times would drift for part of the year. Write it in ${tz} (or a zone with the same rules).`,
    );
  }
  const timing = timingOf(master, start, obj, tz);
  const fields: EventPatch = { ...timing.fields, ...repeatOf(rrule, start, timing.local, tz) };
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

/** DTSTART and DTEND/DURATION → date, time, endDate, endTime, allDay. */
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

/** A BYMONTHDAY list other than the start's own day. */
function monthly(monthDays: number[], day: number | undefined): boolean {
  return monthDays.length > 1 || monthDays[0] !== day;
}

const WEEKDAY = new Map<string, number>(BYDAY.map((d, i) => [d, i]));
const ALLOWED_RULE_PARTS = new Set([
  'freq',
  'interval',
  'until',
  'count',
  'byday',
  'bymonthday',
  'bymonth',
  'wkst',
]);

function list(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => String(x).toUpperCase());
}

/** RRULE → repeat fields; anything the API cannot hold → 403 naming it. */
function repeatOf(
  p: ICAL.JCalProperty | undefined,
  start: Written,
  s: Local,
  tz: string,
): EventPatch {
  const off: EventPatch = {
    repeatFrequency: 'none',
    repeatInterval: null,
    repeatDays: null,
    repeatNthWeekday: null,
    repeatUntil: null,
  };
  if (!p) return off;
  const r = p[3] as Record<string, unknown>;
  if (typeof r !== 'object' || r === null) throw badCalendarData('RRULE could not be read');
  const extra = Object.keys(r).filter((k) => !ALLOWED_RULE_PARTS.has(k));
  const refuse = (why: string) =>
    unsupportedObject(
      `RRULE ${why}: the household calendar cannot hold this rule, and changing it silently would move occurrences`,
    );
  if (extra.length) throw refuse(`uses ${extra.map((k) => k.toUpperCase()).join(', ')}`);
  const interval = r.interval === undefined ? 1 : Number(r.interval);
  if (!Number.isInteger(interval) || interval < 1 || interval > 1000)
    throw refuse('has an INTERVAL that is not a whole number from 1 to 1000');
  const allDays = list(r.byday);
  // "The 2nd Tuesday" (BYDAY=2TU, -1 for the last) is held for monthly rules only.
  const positioned = allDays
    .map((d) => /^([+-]?\d{1,2})([A-Z]{2})$/.exec(d))
    .filter((m): m is RegExpExecArray => m !== null);
  const days = allDays.filter((d) => !/^[+-]?\d/.test(d));
  if (days.some((d) => !WEEKDAY.has(d)))
    throw refuse(`BYDAY=${allDays.join(',')} names no weekday`);
  const monthlyNth =
    String(r.freq).toUpperCase() === 'MONTHLY' &&
    positioned.length === 1 &&
    days.length === 0 &&
    WEEKDAY.get(positioned[0][2]) === new Date(`${s.date}T12:00:00Z`).getUTCDay()
      ? Number(positioned[0][1])
      : null;
  if (positioned.length && monthlyNth === null) {
    throw refuse(
      `BYDAY=${allDays.join(',')} repeats on positioned weekdays other than one monthly n-th weekday of the start's own weekday`,
    );
  }
  if (monthlyNth !== null && monthlyNth !== -1 && (monthlyNth < 1 || monthlyNth > 4)) {
    throw refuse(
      `BYDAY=${allDays.join(',')} names the ${monthlyNth}th weekday; the 1st to 4th or the last (-1) are held`,
    );
  }
  const [, month, day] = s.date.split('-').map(Number);
  const monthDays = list(r.bymonthday).map(Number);
  const months = list(r.bymonth).map(Number);
  const fields: EventPatch = { ...off, repeatInterval: interval === 1 ? null : interval };
  switch (String(r.freq).toUpperCase()) {
    case 'DAILY':
      if (monthDays.length || months.length)
        throw refuse('limits a daily rule by month or day of month');
      if (days.length) {
        if (interval !== 1) throw refuse('repeats every few days on chosen weekdays');
        fields.repeatFrequency = 'weekly';
        fields.repeatDays = days.map((d) => WEEKDAY.get(d)!);
      } else fields.repeatFrequency = 'daily';
      break;
    case 'WEEKLY':
      if (monthDays.length || months.length)
        throw refuse('limits a weekly rule by month or day of month');
      fields.repeatFrequency = 'weekly';
      if (days.length) fields.repeatDays = days.map((d) => WEEKDAY.get(d)!);
      break;
    case 'MONTHLY':
      if (
        days.length ||
        months.length ||
        (monthDays.length && (monthly(monthDays, day) || monthlyNth !== null))
      ) {
        throw refuse(
          "repeats monthly on other days than the start's day of the month or its n-th weekday",
        );
      }
      fields.repeatFrequency = 'monthly';
      if (monthlyNth !== null) fields.repeatNthWeekday = monthlyNth;
      break;
    case 'YEARLY':
      if (
        days.length ||
        (months.length && (months.length > 1 || months[0] !== month)) ||
        (monthDays.length && (monthDays.length > 1 || monthDays[0] !== day))
      ) {
        throw refuse("repeats yearly on other dates than the start's");
      }
      fields.repeatFrequency = 'yearly';
      break;
    default:
      throw refuse(
        `has FREQ=${String(r.freq).toUpperCase()}; daily, weekly, monthly and yearly rules are held`,
      );
  }
  if (r.until !== undefined && r.count !== undefined)
    throw badCalendarData('RRULE has both UNTIL and COUNT');
  if (r.until !== undefined)
    fields.repeatUntil = untilOf(
      typeof r.until === 'string' ? r.until : JSON.stringify(r.until),
      start,
      s,
      tz,
    );
  if (r.count !== undefined) {
    const count = Number(r.count);
    if (!Number.isInteger(count) || count < 1)
      throw badCalendarData('RRULE COUNT must be a positive whole number');
    let last = s.date;
    let n = 0;
    if (count > 100_000) throw refuse('has a COUNT above 100000');
    for (const d of occurrenceStarts({
      date: s.date,
      repeatFrequency: fields.repeatFrequency,
      ...(fields.repeatInterval ? { repeatInterval: fields.repeatInterval } : {}),
      ...(fields.repeatDays ? { repeatDays: fields.repeatDays } : {}),
      ...(fields.repeatNthWeekday ? { repeatNthWeekday: fields.repeatNthWeekday } : {}),
    })) {
      last = d;
      if (++n >= count) break;
    }
    fields.repeatUntil = last > `${MAX_YEAR}-12-31` ? `${MAX_YEAR}-12-31` : last;
  }
  return fields;
}

/** UNTIL (a date, or a UTC date-time) → the last local date an occurrence may start on. */
function untilOf(v: string, start: Written, s: Local, tz: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2}):?(\d{2}):?(\d{2})(Z)?)?$/.exec(v);
  if (!m) throw badCalendarData(`RRULE UNTIL is not a date: ${v.slice(0, 30)}`);
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  // A rule running past the years held ends there (the same occurrences a client shows until then).
  if (Number(m[1]) > MAX_YEAR) return `${MAX_YEAR}-12-31`;
  if (m[4] === undefined || s.time === undefined) return date < s.date ? s.date : date;
  const untilMs = m[7]
    ? Date.parse(`${date}T${m[4]}:${m[5]}:${m[6]}Z`)
    : localToInstant(
        date,
        `${m[4]}:${m[5]}`,
        start.floating || !start.tz ? tz : start.tz,
      ).getTime();
  const local = instantToLocal(new Date(untilMs), tz);
  // An occurrence on the last day that starts after UNTIL is not part of the series.
  const lastDay =
    localToInstant(local.date, s.time, tz).getTime() > untilMs
      ? addDays(local.date, -1)
      : local.date;
  return lastDay < s.date ? s.date : lastDay;
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

function jsonProp(p: ICAL.JCalProperty[], name: string): unknown {
  const v = text(prop(p, name));
  if (v === null) return undefined;
  try {
    return JSON.parse(v);
  } catch {
    throw badCalendarData(`${name.toUpperCase()} is not valid JSON`);
  }
}

/** X-HOUSEHOLD-* → the REST-only fields, each only when the object has its property. */
function householdFields(p: ICAL.JCalProperty[], before: EventRecord | undefined): EventPatch {
  const out: EventPatch = {};
  const t = (name: string) => {
    const v = text(prop(p, name));
    return v === null ? undefined : v.trim();
  };
  const bad = (name: string, what: string) => badCalendarData(`${name.toUpperCase()} ${what}`);
  const owner = t('x-household-owner');
  if (owner !== undefined) out.ownerPersonId = owner || null;
  const responsible = t('x-household-responsible');
  if (responsible !== undefined)
    out.responsiblePersonIds = responsible
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const required = t('x-household-responsibility-required');
  if (required !== undefined) {
    if (!/^(true|false|)$/i.test(required))
      throw bad('x-household-responsibility-required', 'must be TRUE or FALSE');
    out.responsibilityRequired = required === '' ? null : required.toLowerCase() === 'true';
  }
  const assignee = t('x-household-assignee');
  if (assignee !== undefined) out.assignee = assignee || null;
  const everyone = t('x-household-everyone-attendance');
  if (everyone !== undefined) {
    if (everyone && !(ATTENDANCE as readonly string[]).includes(everyone))
      throw bad('x-household-everyone-attendance', `must be one of ${ATTENDANCE.join(', ')}`);
    out.everyoneAttendance = (everyone || null) as Attendance | null;
  }
  const travel = jsonProp(p, 'x-household-travel-plan');
  if (travel !== undefined) {
    const x = travel as Record<string, unknown> | null;
    if (
      x !== null &&
      (typeof x !== 'object' ||
        typeof x.origin !== 'string' ||
        !Number.isInteger(x.baseTravelMinutes) ||
        (x.baseTravelMinutes as number) < 1 ||
        (x.baseTravelMinutes as number) > 1440 ||
        (x.arriveEarlyMinutes !== undefined && !Number.isInteger(x.arriveEarlyMinutes)))
    ) {
      throw bad(
        'x-household-travel-plan',
        'must be null or {"origin": text, "baseTravelMinutes": 1..1440, "arriveEarlyMinutes"?: minutes}',
      );
    }
    out.travelPlan =
      x === null
        ? null
        : {
            origin: x.origin as string,
            baseTravelMinutes: x.baseTravelMinutes as number,
            ...(x.arriveEarlyMinutes !== undefined
              ? { arriveEarlyMinutes: x.arriveEarlyMinutes as number }
              : {}),
          };
  }
  const data = jsonProp(p, 'x-household-data');
  if (data !== undefined) {
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw bad('x-household-data', 'must be a JSON object');
    const next: Record<string, unknown> = { ...(data as Record<string, unknown>) };
    // Keys the object no longer has are removed: the property states the whole custom data.
    for (const k of customKeys(before)) if (!(k in next)) next[k] = null;
    out.data = next;
  }
  return out;
}

/** The custom (non-event-field) data keys of a stored event. */
export function customKeys(ev: EventRecord | undefined): string[] {
  if (!ev) return [];
  return Object.keys(ev.data).filter((k) => !EVENT_FIELD_NAMES.has(k));
}

const EVENT_FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(EVENT_FIELDS));

/** One changed occurrence (RECURRENCE-ID) → its date and fields; unknown properties kept. */
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

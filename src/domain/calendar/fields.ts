/**
 * Event fields: applying a create or a PATCH to stored event data, and the consistency checks
 * that a request struct cannot express (end after start, all-day without times,
 * repeat fields only with a repeat, people that exist). Pure.
 *
 * Create and update share one path: a create is a patch over empty data. Unset fields are
 * absent from the stored data (never null); `allDay` is stored only when true.
 */
import { activePerson } from '../people/people.js';
import type { Issue, Path } from '../shared/errors.js';
import type { FamilyState } from '../shared/state.js';
import { minutesOfDay } from '../shared/time.js';
import { resolveTimeZone } from '../shared/zones.js';
import { weekdayOrdinal } from './recurrence.js';
import {
  EVENT_FIELDS,
  EVENT_KEYS,
  REPEAT_KEYS,
  type Attendance,
  type EventData,
  type EventFieldName,
  type EventPatch,
  type FieldsWhere,
  type Reminder,
  type ReminderInput,
} from './types.js';

type Data = Record<string, unknown>;

/** The fields applyFields takes with code of its own below. */
const OWN_CODE = [
  'allDay',
  'timeZone',
  'responsiblePersonIds',
  'attendance',
  'repeatFrequency',
  'repeatDays',
  'reminders',
  'travelPlan',
] as const satisfies readonly EventFieldName[];
type Simple = Exclude<EventFieldName, FieldsWhere<'patch', 'never'> | (typeof OWN_CODE)[number]>;
// A field merged key by key cannot be set as sent: it needs code of its own.
type Holds<T extends true> = T;
export type MergeFieldsHaveOwnCode = Holds<
  [FieldsWhere<'patch', 'merge'>] extends [(typeof OWN_CODE)[number]] ? true : false
>;
/** Every other field a request sends is set as sent (null unsets it), in table order. */
const SIMPLE = (Object.keys(EVENT_FIELDS) as EventFieldName[]).filter(
  (k): k is Simple =>
    EVENT_FIELDS[k].patch !== 'never' && !(OWN_CODE as readonly string[]).includes(k),
);
const TEXT = new Set(['where', 'note', 'assignee']);

/**
 * `base` with the patch's event fields and custom data applied (a new object). Problems are
 * pushed to `issues` with paths of the request body. Person ids that `base` does not already
 * hold must be active people of the family.
 */
export function applyFields(state: FamilyState, base: Data, p: EventPatch, issues: Issue[]): Data {
  const d: Data = { ...base };
  for (const k of SIMPLE) {
    const v = p[k];
    if (v === undefined) continue;
    if (v === null) {
      delete d[k];
      continue;
    }
    if (typeof v === 'string' && TEXT.has(k)) {
      const t = v.trim();
      if (t) d[k] = t;
      else delete d[k];
      continue;
    }
    d[k] = v;
  }
  applyTiming(d, p, issues);
  applyRepeat(d, p, issues);
  applyPeople(d, p);
  if (p.reminders !== undefined) {
    const reminders = p.reminders.map((r, i) => reminder(r, ['reminders', i], issues));
    if (reminders.length) d.reminders = reminders;
    else delete d.reminders;
  }
  applyTravelPlan(d, p, issues);
  for (const [k, v] of Object.entries(p.data ?? {})) {
    if (EVENT_KEYS.has(k)) {
      issues.push({ path: ['data', k], message: `is an event field: send ${k} at the top level` });
      continue;
    }
    if (v === null) delete d[k];
    else d[k] = v;
  }
  checkPeople(state, base, d, issues);
  return d;
}

/** All-day, times and the zone they are in. */
function applyTiming(d: Data, p: EventPatch, issues: Issue[]): void {
  // All-day and times: switching one way clears the other, sending both is a contradiction.
  if (p.allDay === true) {
    for (const k of ['time', 'endTime', 'durationMinutes'] as const) {
      if (p[k] !== undefined && p[k] !== null)
        issues.push({ path: [k], message: 'is not allowed on an all-day event' });
      delete d[k];
    }
    d.allDay = true;
  } else if (p.allDay === false) {
    delete d.allDay;
    if (d.time === undefined)
      issues.push({ path: ['time'], message: 'is required when allDay is false' });
  } else if (typeof p.time === 'string') {
    delete d.allDay;
  }

  if (p.timeZone === null) delete d.timeZone;
  else if (p.timeZone !== undefined) {
    // Kept as the client named it once resolved (Windows names and other casings → IANA), even
    // when it is the family's zone: an event given a zone keeps it when the family moves.
    const zone = resolveTimeZone(p.timeZone);
    if (zone) d.timeZone = zone;
    else
      issues.push({
        path: ['timeZone'],
        message: `is not a time zone: ${JSON.stringify(p.timeZone.slice(0, 80))} (send an IANA name such as Europe/Berlin)`,
      });
  }
}

function applyRepeat(d: Data, p: EventPatch, issues: Issue[]): void {
  if (p.repeatFrequency !== undefined) {
    if (p.repeatFrequency === 'none') {
      for (const k of REPEAT_KEYS) {
        const sent = p[k];
        if (k !== 'repeatFrequency' && sent !== undefined && sent !== null)
          issues.push({
            path: [k],
            message: 'is only allowed with a repeatFrequency other than none',
          });
        delete d[k];
      }
    } else {
      d.repeatFrequency = p.repeatFrequency;
    }
  }
  if (p.repeatDays !== undefined) {
    if (p.repeatDays === null || p.repeatDays.length === 0) delete d.repeatDays;
    else d.repeatDays = Array.from(new Set(p.repeatDays)).sort((a, b) => a - b);
  }
}

/** Responsible people (deduplicated) and attendance (merged per person). */
function applyPeople(d: Data, p: EventPatch): void {
  if (p.responsiblePersonIds !== undefined) {
    const ids = Array.from(new Set(p.responsiblePersonIds));
    if (ids.length) d.responsiblePersonIds = ids;
    else delete d.responsiblePersonIds;
  }

  if (p.clearAttendance || p.attendance !== undefined) {
    const att: Record<string, Attendance> = p.clearAttendance
      ? {}
      : { ...((d.attendance as Record<string, Attendance>) ?? {}) };
    for (const [id, v] of Object.entries(p.attendance ?? {})) {
      if (v === null) delete att[id];
      else att[id] = v;
    }
    if (Object.keys(att).length) d.attendance = att;
    else delete d.attendance;
  }
}

function applyTravelPlan(d: Data, p: EventPatch, issues: Issue[]): void {
  if (p.clearTravelPlan && p.travelPlan)
    issues.push({ path: ['travelPlan'], message: 'cannot be set together with clearTravelPlan' });
  if (p.clearTravelPlan || p.travelPlan === null) delete d.travelPlan;
  else if (p.travelPlan) {
    const origin = p.travelPlan.origin.trim();
    if (!origin) issues.push({ path: ['travelPlan', 'origin'], message: 'must not be blank' });
    d.travelPlan = {
      origin,
      baseTravelMinutes: p.travelPlan.baseTravelMinutes,
      arriveEarlyMinutes: p.travelPlan.arriveEarlyMinutes ?? 0,
    };
  }
}

function reminder(r: ReminderInput, path: Path, issues: Issue[]): Reminder {
  const audience = r.audience ?? 'household';
  const recipientPersonIds = Array.from(new Set(r.recipientPersonIds ?? []));
  if (audience === 'people' && recipientPersonIds.length === 0) {
    issues.push({
      path: [...path, 'recipientPersonIds'],
      message: 'must name at least one person when audience is people',
    });
  }
  if (audience !== 'people' && recipientPersonIds.length > 0) {
    issues.push({
      path: [...path, 'recipientPersonIds'],
      message: 'is only used when audience is people',
    });
  }
  return {
    offsetMinutes: r.offsetMinutes,
    audience,
    channels: Array.from(new Set(r.channels ?? ['in_app'])),
    mode: r.mode ?? 'plain',
    recipientPersonIds,
  };
}

/** Every person id an event's data refers to, with the request path it came from. */
function personRefs(d: Data): { id: string; path: Path }[] {
  const out: { id: string; path: Path }[] = [];
  if (typeof d.ownerPersonId === 'string')
    out.push({ id: d.ownerPersonId, path: ['ownerPersonId'] });
  ((d.responsiblePersonIds as string[] | undefined) ?? []).forEach((id, i) =>
    out.push({ id, path: ['responsiblePersonIds', i] }),
  );
  for (const id of Object.keys((d.attendance as Data | undefined) ?? {}))
    out.push({ id, path: ['attendance', id] });
  ((d.reminders as Reminder[] | undefined) ?? []).forEach((r, i) =>
    r.recipientPersonIds.forEach((id, j) =>
      out.push({ id, path: ['reminders', i, 'recipientPersonIds', j] }),
    ),
  );
  return out;
}

function checkPeople(state: FamilyState, base: Data, d: Data, issues: Issue[]): void {
  const held = new Set(personRefs(base).map((r) => r.id));
  for (const r of personRefs(d)) {
    if (held.has(r.id) || activePerson(state, r.id)) continue;
    issues.push({ path: r.path, message: `is not a person of this family: ${r.id}` });
  }
}

/**
 * The consistency checks on complete event data. `repeats` false checks an occurrence
 * (which cannot carry repeat rules of its own).
 */
export function checkEvent(d: EventData, issues: Issue[]): void {
  if (d.endDate !== undefined && d.endDate < d.date)
    issues.push({ path: ['endDate'], message: `must not be before date ${d.date}` });
  if (d.allDay) {
    for (const k of ['time', 'endTime', 'durationMinutes'] as const) {
      if (d[k] !== undefined)
        issues.push({ path: [k], message: 'is not allowed on an all-day event' });
    }
  }
  if (d.time === undefined) {
    if (d.endTime !== undefined) issues.push({ path: ['endTime'], message: 'needs a start time' });
    if (d.durationMinutes !== undefined)
      issues.push({ path: ['durationMinutes'], message: 'needs a start time' });
  } else if (
    d.endTime !== undefined &&
    (d.endDate === undefined || d.endDate === d.date) &&
    minutesOfDay(d.endTime) <= minutesOfDay(d.time)
  ) {
    issues.push({ path: ['endTime'], message: `must be after time ${d.time} on the same day` });
  }
  const freq = d.repeatFrequency;
  if (freq === undefined) {
    for (const k of REPEAT_KEYS) {
      if (k !== 'repeatFrequency' && d[k] !== undefined)
        issues.push({
          path: [k],
          message: 'is only allowed with a repeatFrequency other than none',
        });
    }
    return;
  }
  if (d.repeatDays !== undefined && freq !== 'weekly' && freq !== 'custom') {
    issues.push({
      path: ['repeatDays'],
      message: `is only used with repeatFrequency weekly or custom, not ${freq}`,
    });
  }
  if (freq === 'custom' && !d.repeatDays?.length)
    issues.push({ path: ['repeatDays'], message: 'is required when repeatFrequency is custom' });
  if (d.repeatNthWeekday !== undefined) {
    const at = weekdayOrdinal(d.date);
    if (freq !== 'monthly')
      issues.push({
        path: ['repeatNthWeekday'],
        message: `is only used with repeatFrequency monthly, not ${freq}`,
      });
    else if (d.repeatNthWeekday === -1 ? !at.last : d.repeatNthWeekday !== at.nth) {
      issues.push({
        path: ['repeatNthWeekday'],
        message: `must name the start's own place in its month: ${d.date} is weekday number ${at.nth}${at.last ? ' (the last, -1)' : ''} of its month`,
      });
    }
  }
  if (d.repeatUntil !== undefined && d.repeatUntil < d.date)
    issues.push({ path: ['repeatUntil'], message: `must not be before date ${d.date}` });
}

/**
 * A VEVENT's X-HOUSEHOLD-* properties → the REST-only event fields (each only when the object
 * has its property), and the JSON-valued property reader they and the reminders share.
 */
import type ICAL from 'ical.js';
import type { Attendance, EventPatch, EventRecord } from '../domain/calendar/types.js';
import { ATTENDANCE, EVENT_FIELDS } from '../domain/calendar/types.js';
import { badCalendarData } from './errors.js';
import { prop, text } from './icalRead.js';

/** A property holding JSON, parsed; undefined when absent, 400 when it is not JSON. */
export function jsonProp(p: ICAL.JCalProperty[], name: string): unknown {
  const v = text(prop(p, name));
  if (v === null) return undefined;
  try {
    return JSON.parse(v);
  } catch {
    throw badCalendarData(`${name.toUpperCase()} is not valid JSON`);
  }
}

/** X-HOUSEHOLD-* → the REST-only fields, each only when the object has its property. */
export function householdFields(
  p: ICAL.JCalProperty[],
  before: EventRecord | undefined,
): EventPatch {
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

/**
 * An event → its CalDAV object: the calendar share's iCalendar writer (same times, zone,
 * RRULE, EXDATE and overrides as the ICS feed), with the client's UID when a client made it,
 * and what iCalendar has no property for as X-HOUSEHOLD-* lines (docs/caldav.md). Reminders
 * become VALARMs, people's answers ATTENDEEs, and whatever the client sent that no field holds
 * is written back as it came.
 */
import { eventUid, escapeText, renderCalendar } from '../domain/calendar/ics.js';
import { icsEventOf } from '../domain/calendar/shares.js';
import type { Attendance, EventRecord } from '../domain/calendar/types.js';
import { EVENT_FIELDS } from '../domain/calendar/types.js';
import { activePerson } from '../domain/people/people.js';
import type { FamilyState } from '../domain/shared/state.js';

export const PRODID = '-//Household Organizer//CalDAV//EN';

const PARTSTAT: Record<Attendance, string> = {
  going: 'ACCEPTED',
  maybe: 'TENTATIVE',
  out: 'DECLINED',
};
const FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(EVENT_FIELDS));

/** The UID an object is served with. */
export function objectUid(state: FamilyState, e: { id: string; dav?: { uid: string } }): string {
  return e.dav?.uid ?? eventUid(state.family.id, e.id);
}

export function renderEvent(state: FamilyState, ev: EventRecord, now: Date): string {
  const tz = state.family.timezone;
  const ics = icsEventOf(ev, tz, state.family.id);
  ics.uid = objectUid(state, ev);
  ics.extra = [
    ...householdLines(ev),
    ...attendeeLines(state, ev),
    ...alarmLines(ev),
    ...(ev.dav?.keep ?? []),
  ];
  for (const o of ics.overrides ?? []) {
    const kept = ev.dav?.keepByOccurrence?.[o.recurrenceDate];
    if (kept) o.extra = kept;
  }
  return renderCalendar({
    name: '',
    timezone: tz,
    now,
    events: [ics],
    prodId: PRODID,
    object: true,
  });
}

function json(v: unknown): string {
  return escapeText(JSON.stringify(v));
}

function householdLines(ev: EventRecord): string[] {
  const d = ev.data;
  const out = [`X-HOUSEHOLD-ID:${ev.id}`];
  if (d.ownerPersonId) out.push(`X-HOUSEHOLD-OWNER:${d.ownerPersonId}`);
  if (d.responsiblePersonIds?.length)
    out.push(`X-HOUSEHOLD-RESPONSIBLE:${d.responsiblePersonIds.join(',')}`);
  if (d.responsibilityRequired !== undefined)
    out.push(`X-HOUSEHOLD-RESPONSIBILITY-REQUIRED:${d.responsibilityRequired ? 'TRUE' : 'FALSE'}`);
  if (d.assignee) out.push(`X-HOUSEHOLD-ASSIGNEE:${escapeText(d.assignee)}`);
  if (d.everyoneAttendance) out.push(`X-HOUSEHOLD-EVERYONE-ATTENDANCE:${d.everyoneAttendance}`);
  if (d.travelPlan) out.push(`X-HOUSEHOLD-TRAVEL-PLAN:${json(d.travelPlan)}`);
  if (d.reminders?.length) out.push(`X-HOUSEHOLD-REMINDERS:${json(d.reminders)}`);
  const custom = Object.fromEntries(Object.entries(d).filter(([k]) => !FIELD_NAMES.has(k)));
  if (Object.keys(custom).length) out.push(`X-HOUSEHOLD-DATA:${json(custom)}`);
  return out;
}

/** People with an email and an answer, as ATTENDEEs. */
function attendeeLines(state: FamilyState, ev: EventRecord): string[] {
  const out: string[] = [];
  for (const [id, a] of Object.entries(ev.data.attendance ?? {})) {
    const p = activePerson(state, id);
    if (!p?.email) continue;
    const cn = (p.familiarName ?? p.name).replace(/["\r\n]/g, '');
    out.push(`ATTENDEE;CN="${cn}";PARTSTAT=${PARTSTAT[a]}:mailto:${p.email}`);
  }
  return out;
}

function alarmLines(ev: EventRecord): string[] {
  const out: string[] = [];
  for (const r of ev.data.reminders ?? []) {
    out.push(
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      `DESCRIPTION:${escapeText(ev.title)}`,
      `TRIGGER;RELATED=START:${r.offsetMinutes === 0 ? 'PT0S' : `-PT${r.offsetMinutes}M`}`,
      'END:VALARM',
    );
  }
  return out;
}

/**
 * A shared plan's schedule as a calendar file, carrying what the plan's public page shows and
 * nothing more (served at `/p/<token>.ics` by src/public/planIcs.ts).
 *
 * - One VEVENT per linked event, as the page lists it: the event's own date and times (a
 *   repeating event with its first occurrence, as plans count it), in the family's zone.
 * - SUMMARY is the event's title when its details are shared, else the plan's title (the page
 *   says "Busy"; in a guest's calendar the plan's name says what the time is for). LOCATION
 *   only when the location is shared too. No DESCRIPTION: an event's note is never shared.
 * - UIDs come from ids only (eventUid of `<planId>.<eventId>`): importing the file again
 *   updates the same events, and they never collide with the same event in a calendar share.
 */
import type { FamilyState } from '../shared/state.js';
import type { PlanRecord } from './types.js';
import { getEvent } from '../calendar/events.js';
import { icsEventOf } from '../calendar/shares.js';
import { eventUid, renderCalendar } from '../calendar/ics.js';
import type { IcsEvent } from '../calendar/icsTypes.js';

/** The plan's schedule as RFC 5545 text. */
export function renderPlanIcs(state: FamilyState, plan: PlanRecord, now: Date): string {
  const tz = state.family.timezone;
  const events: IcsEvent[] = [];
  for (const link of plan.events) {
    const ev = getEvent(state, link.eventId);
    if (!ev) continue;
    const {
      rrule: _r,
      exdates: _x,
      overrides: _o,
      description: _d,
      location,
      ...single
    } = icsEventOf(ev, tz, state.family.id);
    events.push({
      ...single,
      uid: eventUid(state.family.id, `${plan.id}.${ev.id}`),
      summary: link.showDetailsOnShare ? ev.title : plan.title,
      ...(link.showDetailsOnShare && link.showLocationOnShare && location ? { location } : {}),
    });
  }
  events.sort((a, b) => (a.date + (a.time ?? '') < b.date + (b.time ?? '') ? -1 : 1));
  return renderCalendar({
    name: plan.title,
    timezone: tz,
    now,
    prodId: '-//Household Organizer//Shared plan//EN',
    events,
  });
}

/**
 * The shared plan's schedule as a calendar file: `GET /p/<token>.ics`, no API key, linked from
 * the page as "Add to my calendar". The same token and the same rules as the page: it carries
 * what the page shows and nothing more.
 *
 * - One VEVENT per linked event, as the page lists it: the event's own date and times (a
 *   repeating event with its first occurrence, as plans count it), in the family's zone.
 * - SUMMARY is the event's title when its details are shared, else the plan's title (the page
 *   says "Busy"; in a guest's calendar the plan's name says what the time is for). LOCATION
 *   only when the location is shared too. No DESCRIPTION: an event's note is never shared.
 * - UIDs come from ids only (eventUid of `<planId>.<eventId>`): importing the file again
 *   updates the same events, and they never collide with the same event in a calendar share.
 */
import { NotFound } from '../domain/shared/errors.js';
import type { FamilyState } from '../domain/shared/state.js';
import type { PlanRecord } from '../domain/plans/types.js';
import { getEvent } from '../domain/calendar/events.js';
import { icsEventOf } from '../domain/calendar/shares.js';
import { eventUid, renderCalendar, type IcsEvent } from '../domain/calendar/ics.js';
import { planShareToken } from '../family/shareTokens.js';
import { defineRoutes, withStatus } from '../http/route.js';
import { HEADERS, planBySharedHash } from './planPage.js';

/** The plan's schedule as RFC 5545 text. */
export function renderPlanIcs(state: FamilyState, plan: PlanRecord, now: Date): string {
  const tz = state.family.timezone;
  const events: IcsEvent[] = [];
  for (const link of plan.events) {
    const ev = getEvent(state, link.eventId);
    if (!ev) continue;
    const { rrule: _r, exdates: _x, overrides: _o, description: _d, location, ...single } = icsEventOf(ev, tz, state.family.id);
    events.push({
      ...single,
      uid: eventUid(state.family.id, `${plan.id}.${ev.id}`),
      summary: link.showDetailsOnShare ? ev.title : plan.title,
      ...(link.showDetailsOnShare && link.showLocationOnShare && location ? { location } : {}),
    });
  }
  events.sort((a, b) => (a.date + (a.time ?? '') < b.date + (b.time ?? '') ? -1 : 1));
  return renderCalendar({ name: plan.title, timezone: tz, now, prodId: '-//Household Organizer//Shared plan//EN', events });
}

/** An ASCII file name from the plan's title, for the download. */
function fileName(title: string): string {
  const ascii = title.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `${ascii || 'plan'}.ics`;
}

export default defineRoutes([
  {
    // Before /p/:token, which would otherwise take "<token>.ics" as its token.
    method: 'get', path: '/p/:token.ics', family: false, scope: 'public', tags: ['Plans'],
    summary: 'A shared plan\'s schedule as a calendar file',
    description: 'No API key: the page\'s token is the credential. The plan\'s linked events as text/calendar, as the page shows them: times in the family\'s zone (with a VTIMEZONE), the event\'s title only when its details are shared (else the plan\'s title), the location only when shared too, no notes. UIDs are stable, so importing again updates the same events. Unknown or disabled → 404.',
    produces: 'text/calendar',
    response: { type: 'string', description: 'An RFC 5545 calendar' },
    handler: async ({ params, services }) => {
      const gone = () => new NotFound('No shared plan at this address');
      const hash = planShareToken.hashOf(params.token ?? '');
      if (!hash) throw gone();
      const familyId = services.store.lookupIndex('share-token', hash);
      const info = familyId ? services.store.getFamily(familyId) : undefined;
      if (!info) throw gone();
      const actor = await services.registry.get(info);
      const found = await actor.read((state) => {
        const plan = planBySharedHash(state, hash);
        return plan ? { text: renderPlanIcs(state, plan, services.now()), name: fileName(plan.title) } : null;
      });
      if (!found) throw gone();
      const { 'content-security-policy': _csp, vary: _vary, ...headers } = HEADERS;
      return withStatus(200, found.text, { ...headers, 'content-disposition': `attachment; filename="${found.name}"` });
    },
  },
]);

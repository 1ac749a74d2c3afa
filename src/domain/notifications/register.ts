/**
 * The notifications area's registrations: an event written or removed anywhere (an edit, a
 * poll settled or reopened, a calendar deleted) moves or removes its reminders, leave-by,
 * coverage alert and checks in the same decision.
 */
import type { EventRecord } from '../calendar/types.js';
import { onEventChanged, onEventsRemoved } from '../shared/hooks.js';
import { eventAgenda } from './schedule.js';

onEventChanged((state, event, ctx) => {
  const { agenda, changes } = eventAgenda(state, event.id, event as EventRecord, ctx.now);
  return { changes, events: [], agenda };
});

onEventsRemoved((state, eventIds, ctx) => {
  const out = { changes: [] as ReturnType<typeof eventAgenda>['changes'], events: [], agenda: [] as ReturnType<typeof eventAgenda>['agenda'] };
  for (const id of eventIds) {
    const r = eventAgenda(state, id, null, ctx.now);
    out.changes.push(...r.changes);
    out.agenda.push(...r.agenda);
  }
  return out;
});

/**
 * How the notifications area reacts to other areas (listed in src/domain/areas.ts): an event
 * written or removed anywhere (an edit, a poll settled or reopened, a calendar deleted) moves or
 * removes its reminders, leave-by, coverage alert and checks in the same decision.
 */
import type { EventRecord } from '../calendar/types.js';
import type { Reaction } from '../shared/hooks.js';
import type { AgendaChange, CommandContext, FamilyState, RecordChange } from '../shared/state.js';
import { eventAgenda } from './schedule.js';

export function rescheduleChangedEvent(state: FamilyState, event: { readonly id: string }, ctx: CommandContext): Reaction {
  const { agenda, changes } = eventAgenda(state, event.id, event as EventRecord, ctx.now);
  return { changes, events: [], agenda };
}

export function unscheduleRemovedEvents(state: FamilyState, eventIds: readonly string[], ctx: CommandContext): Reaction {
  const out = { changes: [] as RecordChange[], events: [], agenda: [] as AgendaChange[] };
  for (const id of eventIds) {
    const r = eventAgenda(state, id, null, ctx.now);
    out.changes.push(...r.changes);
    out.agenda.push(...r.agenda);
  }
  return out;
}

/**
 * Cross-area reactions inside one decision. When the calendar removes or changes events (a
 * delete, an edit, a custom calendar deleted, a feed removed), other areas (plans,
 * notifications) add their own changes — records, log events, agenda jobs — to the same
 * decision, so everything lands in one transaction. Which area does what is listed once, in
 * src/domain/areas.ts.
 */
import { areas } from '../areas.js';
import type { AgendaChange, CommandContext, FamilyState, LogEvent, RecordChange } from './state.js';

export interface Reaction { changes: RecordChange[]; events: LogEvent[]; agenda?: AgendaChange[] }

export type EventsRemoved = (state: FamilyState, eventIds: readonly string[], ctx: CommandContext) => Reaction;

/** What every area does when these events are removed. */
export function reactToEventsRemoved(state: FamilyState, eventIds: readonly string[], ctx: CommandContext): Reaction {
  const out: Reaction = { changes: [], events: [], agenda: [] };
  if (eventIds.length === 0) return out;
  for (const area of areas()) if (area.onEventsRemoved) merge(out, area.onEventsRemoved(state, eventIds, ctx));
  return out;
}

/**
 * An event was created or changed (the whole series or one occurrence): `event` is the record
 * as this decision writes it, while `state` still holds the one before (or none). The
 * notifications area moves the event's reminders, leave-by, coverage alert and checks here.
 */
export type EventChanged = (state: FamilyState, event: { readonly id: string }, ctx: CommandContext) => Reaction;

/** What every area does when this event is written as `event`. */
export function reactToEventChanged(state: FamilyState, event: { readonly id: string }, ctx: CommandContext): Reaction {
  const out: Reaction = { changes: [], events: [], agenda: [] };
  for (const area of areas()) if (area.onEventChanged) merge(out, area.onEventChanged(state, event, ctx));
  return out;
}

function merge(out: Reaction, r: Reaction): void {
  out.changes.push(...r.changes);
  out.events.push(...r.events);
  if (r.agenda?.length) out.agenda!.push(...r.agenda);
}

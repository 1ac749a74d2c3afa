/**
 * Cross-area reactions inside one decision. When the calendar removes or changes events (a
 * delete, an edit, a custom calendar deleted, a feed removed), other areas (plans,
 * notifications) add their own changes — records, log events, agenda jobs — to the same
 * decision, so everything lands in one transaction. Areas register at load time.
 */
import type { AgendaChange, CommandContext, FamilyState, LogEvent, RecordChange } from './state.js';

export interface Reaction { changes: RecordChange[]; events: LogEvent[]; agenda?: AgendaChange[] }

type EventsRemoved = (state: FamilyState, eventIds: readonly string[], ctx: CommandContext) => Reaction;

const eventsRemoved: EventsRemoved[] = [];

export function onEventsRemoved(fn: EventsRemoved): void {
  eventsRemoved.push(fn);
}

/** What every registered area does when these events are removed. */
export function reactToEventsRemoved(state: FamilyState, eventIds: readonly string[], ctx: CommandContext): Reaction {
  const out: Reaction = { changes: [], events: [], agenda: [] };
  if (eventIds.length === 0) return out;
  for (const fn of eventsRemoved) merge(out, fn(state, eventIds, ctx));
  return out;
}

/**
 * An event was created or changed (the whole series or one occurrence): `event` is the record
 * as this decision writes it, while `state` still holds the one before (or none). The
 * notifications area moves the event's reminders, leave-by, coverage alert and checks here.
 */
type EventChanged = (state: FamilyState, event: { readonly id: string }, ctx: CommandContext) => Reaction;

const eventChanged: EventChanged[] = [];

export function onEventChanged(fn: EventChanged): void {
  eventChanged.push(fn);
}

/** What every registered area does when this event is written as `event`. */
export function reactToEventChanged(state: FamilyState, event: { readonly id: string }, ctx: CommandContext): Reaction {
  const out: Reaction = { changes: [], events: [], agenda: [] };
  for (const fn of eventChanged) merge(out, fn(state, event, ctx));
  return out;
}

function merge(out: Reaction, r: Reaction): void {
  out.changes.push(...r.changes);
  out.events.push(...r.events);
  if (r.agenda?.length) out.agenda!.push(...r.agenda);
}

/**
 * Cross-area reactions inside one decision. When the calendar removes events (a delete, a
 * custom calendar deleted, a feed removed), other areas (plans) add their own changes to the
 * same decision, so everything lands in one transaction. Areas register at load time.
 */
import type { CommandContext, FamilyState, LogEvent, RecordChange } from './state.js';

export interface Reaction { changes: RecordChange[]; events: LogEvent[] }

type EventsRemoved = (state: FamilyState, eventIds: readonly string[], ctx: CommandContext) => Reaction;

const eventsRemoved: EventsRemoved[] = [];

export function onEventsRemoved(fn: EventsRemoved): void {
  eventsRemoved.push(fn);
}

/** What every registered area does when these events are removed. */
export function reactToEventsRemoved(state: FamilyState, eventIds: readonly string[], ctx: CommandContext): Reaction {
  const out: Reaction = { changes: [], events: [] };
  if (eventIds.length === 0) return out;
  for (const fn of eventsRemoved) {
    const r = fn(state, eventIds, ctx);
    out.changes.push(...r.changes);
    out.events.push(...r.events);
  }
  return out;
}

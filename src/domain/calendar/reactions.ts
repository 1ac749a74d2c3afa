/**
 * How the calendar area reacts to other areas (listed in src/domain/areas.ts): when a custom
 * calendar collection is deleted (with its events, by the collections area), its events leave
 * every plan in the same decision, exactly as a deleted event does.
 */
import { tombstonesFor } from '../collections/tombstones.js';
import { ENTRIES, type Collection, type Entry } from '../collections/types.js';
import { noChange } from '../shared/decision.js';
import type { CommandContext, FamilyState, Reaction } from '../shared/state.js';

export function removeEventsOfDeletedCalendar(
  state: FamilyState,
  collection: Collection,
  entryIds: ReadonlySet<string>,
  ctx: CommandContext,
): Reaction {
  return collection.category === 'calendar'
    ? ctx.react.eventsRemoved(state, [...entryIds], ctx)
    : noChange(undefined);
}

/** Removed events that a CalDAV client named leave their name behind for its next sync. */
export function tombstoneRemovedEvents(
  state: FamilyState,
  eventIds: readonly string[],
  ctx: CommandContext,
): Reaction {
  const removed = eventIds
    .map((id) => state.get<Entry>(ENTRIES, id))
    .filter((e): e is Entry => e !== undefined);
  return { changes: tombstonesFor(removed, ctx.now.toISOString()), events: [] };
}

/**
 * The domain's areas and what each adds to the others, in one explicit list: the records every
 * family starts with, and the reactions to events removed or changed, a collection deleted and
 * a feed's intake. An area left out of AREAS is a type error, not a silent gap, and no entry
 * point has to remember an import for its side effects.
 *
 * The list is read at call time only (hooks.ts, seeds.ts and the deciders that run the
 * reactions), never while modules load, so the import cycle through here is harmless; the
 * values are function declarations, which exist before any module body runs.
 */
import { removeEventsOfDeletedCalendar } from './calendar/reactions.js';
import { seedBuiltins } from './collections/builtins.js';
import type { CollectionDeletionHook } from './collections/collections.js';
import type { IntakeHook } from './feeds/intake.js';
import { notifyFeedIntake, rescheduleChangedEvent, unscheduleRemovedEvents } from './notifications/reactions.js';
import { unlinkRemovedEvents } from './plans/plans.js';
import type { Seed } from './seeds.js';
import type { EventChanged, EventsRemoved } from './shared/hooks.js';

export interface Area {
  /** Records every family starts with (written with the family, added on activation if missing). */
  seed?: Seed;
  /** Calendar events were removed (a delete, a calendar or a feed removed). */
  onEventsRemoved?: EventsRemoved;
  /** A calendar event was created or changed (the series or one occurrence). */
  onEventChanged?: EventChanged;
  /** A collection was deleted with its entries. */
  onCollectionDeleted?: CollectionDeletionHook;
  /** A feed refresh added or changed events matching the feed's hint words. */
  onFeedIntake?: IntakeHook;
}

export type AreaName = 'collections' | 'calendar' | 'people' | 'plans' | 'notifications' | 'feeds' | 'webhooks' | 'context' | 'family';

/** Every area, in the order their reactions run (the order of their log events). */
export const AREAS = {
  collections: { seed: seedBuiltins },
  calendar: { onCollectionDeleted: removeEventsOfDeletedCalendar },
  people: {},
  plans: { onEventsRemoved: unlinkRemovedEvents },
  notifications: { onEventChanged: rescheduleChangedEvent, onEventsRemoved: unscheduleRemovedEvents, onFeedIntake: notifyFeedIntake },
  feeds: {},
  webhooks: {},
  context: {},
  // The family's own settings: its zone change re-plans the other areas' jobs itself (settings.ts).
  family: {},
} satisfies Record<AreaName, Area>;

/** The areas as a list, for the hooks that run every area's part. */
export function areas(): readonly Area[] {
  return Object.values(AREAS);
}

/**
 * The domain's areas and what each adds to the others, in one explicit list: the records every
 * family starts with, and the reactions to events removed or changed, a collection deleted and
 * a feed's intake. An area left out of AREAS is a type error, not a silent gap, and no entry
 * point has to remember an import for its side effects.
 *
 * (`src/domain/i18n`, the catalogs and formats every area speaks with, is not an area.)
 *
 * Nothing in src/domain imports this file: the actor's owner composes the reactions from the
 * list once (`areaReactions`) and deciders reach them as `ctx.react`, so an area that changes
 * something never imports the areas that react to it (no import circle).
 */
import { removeEventsOfDeletedCalendar, tombstoneRemovedEvents } from './calendar/reactions.js';
import { seedBuiltins } from './collections/builtins.js';
import {
  notifyFeedIntake,
  rescheduleChangedEvent,
  unscheduleRemovedEvents,
} from './notifications/reactions.js';
import { unlinkRemovedEvents } from './plans/plans.js';
import { noChange } from './shared/decision.js';
import type { FamilyInfo, FamilyState, Reaction, Reactions, RecordChange } from './shared/state.js';

/** Records an area gives every family (all of them for a new family, else the missing ones). */
export type Seed = (family: FamilyInfo, nowIso: string, state?: FamilyState) => RecordChange[];

export interface Area {
  /** Records every family starts with (written with the family, added on activation if missing). */
  seed?: Seed;
  /** Calendar events were removed (a delete, a calendar or a feed removed). */
  onEventsRemoved?: Reactions['eventsRemoved'];
  /** A calendar event was created or changed (the series or one occurrence). */
  onEventChanged?: Reactions['eventChanged'];
  /** A collection was deleted with its entries. */
  onCollectionDeleted?: Reactions['collectionDeleted'];
  /** A feed refresh added or changed events matching the feed's hint words. */
  onFeedIntake?: Reactions['feedIntake'];
}

export type AreaName =
  | 'collections'
  | 'calendar'
  | 'caldav'
  | 'people'
  | 'plans'
  | 'notifications'
  | 'feeds'
  | 'webhooks'
  | 'context'
  | 'family'
  | 'oauth'
  | 'displays';

/** Every area, in the order their reactions run (the order of their log events). */
export const AREAS = {
  collections: { seed: seedBuiltins },
  calendar: { onCollectionDeleted: removeEventsOfDeletedCalendar },
  people: {},
  plans: { onEventsRemoved: unlinkRemovedEvents },
  notifications: {
    onEventChanged: rescheduleChangedEvent,
    onEventsRemoved: unscheduleRemovedEvents,
    onFeedIntake: notifyFeedIntake,
  },
  feeds: {},
  webhooks: {},
  context: {},
  // The family's own settings: its zone change re-plans the other areas' jobs itself (settings.ts).
  family: {},
  // Assistants' grants: only log records, no records of the family and no reactions.
  oauth: {},
  // Objects a CalDAV client named leave their name when REST or a feed removes them.
  caldav: { onEventsRemoved: tombstoneRemovedEvents },
  // Display links: their own records and log events; what a screen shows is read, not stored.
  displays: {},
} satisfies Record<AreaName, Area>;

/**
 * Every area's reactions as one `Reactions` for the command context: each runs the areas' part
 * in list order and gathers their changes, log events and agenda jobs into one.
 */
export function areaReactions(areas: readonly Area[] = Object.values(AREAS)): Reactions {
  const all = <K extends keyof Area>(key: K) => areas.flatMap((a) => (a[key] ? [a[key]] : []));
  const removed = all('onEventsRemoved');
  const changed = all('onEventChanged');
  const deleted = all('onCollectionDeleted');
  const intake = all('onFeedIntake');
  return {
    eventsRemoved: (state, ids, ctx) =>
      ids.length ? gather(removed.map((f) => f(state, ids, ctx))) : gather([]),
    eventChanged: (state, event, ctx) => gather(changed.map((f) => f(state, event, ctx))),
    collectionDeleted: (state, c, ids, ctx) => gather(deleted.map((f) => f(state, c, ids, ctx))),
    feedIntake: (state, update, ctx) => gather(intake.map((f) => f(state, update, ctx))),
  };
}

function gather(parts: readonly Reaction[]): Reaction {
  const out: Reaction = { ...noChange(), agenda: [] };
  for (const r of parts) {
    out.changes.push(...r.changes);
    out.events.push(...r.events);
    if (r.agenda?.length) out.agenda!.push(...r.agenda);
  }
  return out;
}

/** Seed records for a new family (no state) or the missing ones of an existing family. */
export function seedRecords(
  family: FamilyInfo,
  nowIso: string,
  state?: FamilyState,
): RecordChange[] {
  return Object.values(AREAS).flatMap((a: Area) => a.seed?.(family, nowIso, state) ?? []);
}

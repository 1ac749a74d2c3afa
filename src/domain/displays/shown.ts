/**
 * What a display may act on: exactly what it shows at the moment of the action (its content,
 * view.ts, over the days it shows), whatever id an action names — a chore, an item of one of its
 * lists, an event (and occurrence) on one of its days, a poll and option it shows. Anything else
 * is 403, as though the display did not know of it. And what its answers carry: the item as it
 * would render it, never the change record's whole object, its previous state, notes or anyone's
 * attendance.
 */
import { Forbidden } from '../shared/errors.js';
import type { FamilyState } from '../shared/state.js';
import { CHANGE_ACTOR, type ChangeRecord } from '../shared/changeRecord.js';
import { J, type ShapeOf } from '../shared/shape.js';
import type { DisplayRecord } from './displays.js';
import { displayContent, type DisplayContent } from './view.js';

export type DisplayAction =
  | { action: 'done' | 'undone'; collection: string; entryId: string }
  | { action: 'add'; collection: string; title: string }
  | { action: 'remove'; collection: string; entryId: string }
  | {
      action: 'attend';
      eventId: string;
      occurrence?: string | undefined;
      personId: string;
      going: boolean | null;
    }
  | { action: 'vote'; planId: string; pollId: string; optionIds: string[]; personId: string };

export type ActionKind = DisplayAction['action'];
export const ACTION_KINDS: readonly ActionKind[] = [
  'done',
  'undone',
  'add',
  'remove',
  'attend',
  'vote',
];

const NOT_SHOWN = 'This display does not show that: it acts only on what is on its screen';

/** Throws 403 unless the item the action names is in the display's view at `now`. */
export function requireInView(
  state: FamilyState,
  display: DisplayRecord,
  action: DisplayAction,
  now: Date,
  days: number,
): void {
  // An add names no item; a remove names only one of its own adds (checked by its handler).
  if (action.action === 'add' || action.action === 'remove') return;
  const view = displayContent(state, display, now, days, null);
  if (!shows(view, action)) throw new Forbidden(NOT_SHOWN);
}

function shows(view: DisplayContent, a: DisplayAction): boolean {
  switch (a.action) {
    case 'done':
    case 'undone': {
      const ids =
        a.collection === 'chores'
          ? [...view.chores.due, ...view.chores.done].map((c) => c.id)
          : (view.lists.find((l) => l.key === a.collection)?.items ?? []).map((i) => i.id);
      return ids.includes(a.entryId);
    }
    case 'attend':
      return view.days
        .flatMap((d) => d.events)
        .some(
          (e) =>
            e.id === a.eventId &&
            (a.occurrence === undefined || (e.occurrence ?? null) === a.occurrence),
        );
    case 'vote': {
      const poll = view.polls.find((p) => p.planId === a.planId && p.pollId === a.pollId);
      const options = poll?.options.map((o) => o.id) ?? [];
      return !!poll && a.optionIds.every((id) => options.includes(id));
    }
    case 'add':
    case 'remove':
      return true;
  }
}

/** Of the changed item, only what a display renders. */
const RENDERED_ITEM = J.closed(
  J.object(
    {},
    {
      id: J.string(),
      collectionKey: J.string(),
      title: J.string(),
      status: J.string(),
      myVoteOptionId: J.nullable(J.string()),
    },
    'Of the changed item, only what the display renders: no data, notes, previous state or attendance',
  ),
);
type RenderedItem = ShapeOf<typeof RENDERED_ITEM>;
const RENDERED = Object.keys(RENDERED_ITEM.schema.properties as object) as (keyof RenderedItem)[];

/**
 * The change an action made as a display's answer carries it (src/domain/shared/shape.ts: its
 * type and its published schema from this one description): its id, seq, time, type and actor,
 * and of its object only what the display renders. No `previous`, no notes, no data, no one's
 * attendance.
 */
export const DISPLAY_CHANGE = J.closed(
  J.object({
    id: J.string(),
    seq: J.integer(),
    at: J.of<string>({ type: 'string', format: 'date-time' }),
    type: J.string(),
    actor: CHANGE_ACTOR,
    object: RENDERED_ITEM,
  }),
);
export type DisplayChange = ShapeOf<typeof DISPLAY_CHANGE>;

/** The change an action made, as a display's answer carries it; null when it made none. */
export function displayChange(change: ChangeRecord | undefined): DisplayChange | null {
  if (!change) return null;
  const object = (change.object ?? {}) as Record<string, unknown>;
  const shown: Record<string, unknown> = {};
  for (const k of RENDERED) if (k in object) shown[k] = object[k];
  return {
    id: change.id,
    seq: change.seq,
    at: change.at,
    type: change.type,
    actor: change.actor,
    object: shown,
  };
}

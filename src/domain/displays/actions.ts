/**
 * What an interactive family display may change (docs/display.md, "Touch"): a fixed, narrow
 * set of actions, each decided by the very command the REST API uses for it, so the change
 * log, webhooks and reminders follow as they would for any key:
 *
 *   done / undone  a chore or a list item ticked off, or back  → decideUpdateEntries (status)
 *   add            an item added to one of the display's lists → decideCreateEntries
 *   remove         the undo of an add: only what this display added, untouched since
 *                                                              → decideDeleteEntries
 *   attend         going / not going / no answer for a person  → decideUpdateEvent (attendance)
 *   vote           a person's vote in an open poll, or none    → decideVote / decideClearVote
 *
 * A display that is not interactive refuses them all (403), as does a collection, calendar or
 * person it does not show. The caller is the display: its id is in every change record's
 * actor, and a person it answers or votes for is the actor's person.
 */
import {
  SINGLE,
  decideCreateEntries,
  decideDeleteEntries,
  decideUpdateEntries,
} from '../collections/entries.js';
import { ENTRIES, type Entry } from '../collections/types.js';
import { requireEvent } from '../calendar/events.js';
import { decideUpdateEvent } from '../calendar/occurrences.js';
import { activePerson } from '../people/people.js';
import { requirePlan } from '../plans/plans.js';
import { decideClearVote, decideVote } from '../plans/polls.js';
import {
  DomainError,
  Forbidden,
  Invalid,
  NotFound,
  Conflict,
  type Issue,
} from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState, RecordChange } from '../shared/state.js';
import {
  DISPLAYS,
  displayByTokenHash,
  displaySettings,
  type DisplayAdd,
  type DisplayRecord,
} from './displays.js';
import { requireInView, type ActionKind, type DisplayAction } from './shown.js';

export type { ActionKind, DisplayAction } from './shown.js';
export { ACTION_KINDS } from './shown.js';

/** How many of its own adds a display remembers, so that their undo can delete them. */
export const ADDS_KEPT = 20;

/** The person an action names if the display may answer for them (400 unknown, 403 not shown). */
function personFor(state: FamilyState, display: DisplayRecord, personId: string): string {
  if (!activePerson(state, personId))
    throw Invalid.at(['personId'], `is not a person of this family: ${personId}`);
  if (display.personIds.length && !display.personIds.includes(personId))
    throw new Forbidden(`This display does not show ${personId}: it answers only for its people`);
  return personId;
}

/** The command context with the person the action is for as the caller's person. */
function asPerson(ctx: CommandContext, personId: string): CommandContext {
  return { ...ctx, caller: { ...ctx.caller, personId } };
}

/** The collections whose entries a display ticks off: the chores and its lists. */
function requireShown(display: DisplayRecord, key: string, lists: 'lists' | 'chores and lists') {
  const shown = displaySettings(display).lists;
  if (shown.includes(key) || (lists === 'chores and lists' && key === 'chores')) return;
  throw new Forbidden(
    lists === 'lists'
      ? `This display adds only to the lists it shows (${shown.join(', ') || 'none'}), not to ${key}`
      : `This display does not show ${key}: it shows chores and ${shown.join(', ') || 'no lists'}`,
  );
}

/** A domain error whose issues name `from` (the REST command's field) named `to` instead. */
function renamed(err: unknown, from: string, to: string): unknown {
  if (!(err instanceof DomainError) || !err.issues?.some((i) => i.path[0] === from)) return err;
  const issues: Issue[] = err.issues.map((i) =>
    i.path[0] === from ? { ...i, path: [to, ...i.path.slice(1)] } : i,
  );
  const Kind = err instanceof NotFound ? NotFound : err instanceof Conflict ? Conflict : Invalid;
  return new Kind(err.message, issues);
}

type Handler<K extends ActionKind> = (
  state: FamilyState,
  display: DisplayRecord,
  action: Extract<DisplayAction, { action: K }>,
  ctx: CommandContext,
) => Decision<unknown>;

function tick(
  state: FamilyState,
  display: DisplayRecord,
  a: Extract<DisplayAction, { action: 'done' | 'undone' }>,
  ctx: CommandContext,
) {
  requireShown(display, a.collection, 'chores and lists');
  const status = a.action === 'done' ? 'done' : 'active';
  return decideUpdateEntries(state, a.collection, [{ entryId: a.entryId, status }], ctx, SINGLE);
}

/** The display's record with its list of recent adds changed. */
function withAdds(display: DisplayRecord, added: DisplayAdd[]): RecordChange {
  return { table: DISPLAYS, id: display.id, value: { ...display, added } };
}

const add: Handler<'add'> = (state, display, a, ctx) => {
  requireShown(display, a.collection, 'lists');
  const d = decideCreateEntries(state, a.collection, [{ title: a.title }], ctx, SINGLE);
  const made = d.result[0];
  const added = [
    ...(display.added ?? []),
    { collection: a.collection, entryId: made.id, at: ctx.now.toISOString() },
  ].slice(-ADDS_KEPT);
  return { ...d, changes: [...d.changes, withAdds(display, added)] };
};

const remove: Handler<'remove'> = (state, display, a, ctx) => {
  requireShown(display, a.collection, 'lists');
  const mine = (display.added ?? []).find(
    (x) => x.entryId === a.entryId && x.collection === a.collection,
  );
  if (!mine)
    throw new Forbidden('A display removes only an item it added itself, as the undo of that add');
  const entry = state.get<Entry>(ENTRIES, a.entryId);
  if (!entry || entry.collectionKey !== a.collection)
    throw new NotFound(`${a.entryId} is no longer on ${a.collection}`, [
      { path: ['entryId'], message: `is not an entry of ${a.collection}: ${a.entryId}` },
    ]);
  if (entry.updatedAt !== entry.createdAt)
    throw new Conflict(`“${entry.title}” was changed after it was added, so it stays`);
  const d = decideDeleteEntries(state, a.collection, [a.entryId], ctx, () => ['entryId']);
  const added = (display.added ?? []).filter((x) => x !== mine);
  return { ...d, changes: [...d.changes, withAdds(display, added)] };
};

const attend: Handler<'attend'> = (state, display, a, ctx) => {
  const personId = personFor(state, display, a.personId);
  const ev = requireEvent(state, a.eventId);
  if (display.calendars.length && !display.calendars.includes(ev.collectionKey))
    throw new Forbidden(`This display does not show the calendar ${ev.collectionKey}`);
  const answer = a.going === null ? null : a.going ? 'going' : 'out';
  try {
    return decideUpdateEvent(
      state,
      a.eventId,
      {
        attendance: { [personId]: answer },
        ...(a.occurrence !== undefined
          ? { editScope: 'occurrence' as const, occurrenceDate: a.occurrence }
          : {}),
      },
      asPerson(ctx, personId),
    );
  } catch (err) {
    throw renamed(err, 'occurrenceDate', 'occurrence');
  }
};

const vote: Handler<'vote'> = (state, display, a, ctx) => {
  const personId = personFor(state, display, a.personId);
  requirePlan(state, a.planId);
  const as = asPerson(ctx, personId);
  if (a.optionIds.length > 1)
    throw Invalid.at(['optionIds'], 'holds one option at most: a person has one vote in a poll');
  try {
    return a.optionIds.length
      ? decideVote(state, a.planId, a.pollId, a.optionIds[0], as)
      : decideClearVote(state, a.planId, a.pollId, as);
  } catch (err) {
    if (err instanceof NotFound && a.optionIds.length && /^No option /.test(err.message))
      throw new NotFound(err.message, [
        { path: ['optionIds', 0], message: 'is not an option of this poll' },
      ]);
    throw err;
  }
};

/** One handler per kind: a kind without one does not compile. */
const HANDLERS: { [K in ActionKind]: Handler<K> } = {
  done: tick,
  undone: tick,
  add,
  remove,
  attend,
  vote,
};

/**
 * Decides an action of the display whose token hashes to `tokenHash`: 404 when the link is
 * gone, 403 when it is not interactive or the item is not in what it shows now (over `days`
 * days: shown.ts), else what the action's own rules say.
 */
export function decideDisplayAction(
  state: FamilyState,
  tokenHash: string,
  action: DisplayAction,
  ctx: CommandContext,
  days: number,
): Decision<unknown> {
  const display = displayByTokenHash(state, tokenHash);
  if (!display) throw new NotFound('No family display at this address');
  if (!displaySettings(display).interactive)
    throw new Forbidden(
      'This display is read-only: an admin can let it change things (PATCH …/displays/{displayId} with {"interactive": true})',
    );
  requireInView(state, display, action, ctx.now, days);
  const handler = HANDLERS[action.action] as Handler<ActionKind>;
  return handler(state, display, action, ctx);
}

/**
 * Family display links (docs/display.md): a named view of the family for a wall tablet,
 * served at `/display/<token>`. Like a calendar share, the token (`dsp_` + 32 base62) is made
 * at the edge and shown once; only its SHA-256 is kept, on the record and in the store-wide
 * `share-token` index that finds the family without a key. Deleting a display removes both in
 * the same transaction, so its page and stream stop at once.
 *
 * A display may be made `interactive`: its page then offers a fixed, narrow set of actions
 * (actions.ts). Which lists it shows (`lists`) and when it dims (`nightFrom`/`nightTo`) are
 * set here too.
 */
import { getCollection, isCalendar } from '../collections/collections.js';
import { activePerson } from '../people/people.js';
import { NotFound, Invalid, type Issue } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import { parseLocalTime } from '../shared/time.js';

export const DISPLAYS = 'displays';

/** The list a display shows when it is not told otherwise: the shopping list. */
export const DEFAULT_LISTS: readonly string[] = ['groceries'];
/** Lists one display shows at most (besides the chores, always shown). */
export const LISTS_MAX = 5;

/** An entry the display added, which it may delete again as the undo of that add. */
export interface DisplayAdd {
  collection: string;
  entryId: string;
  at: string;
}

export interface DisplayRecord {
  id: string;
  name: string;
  /** Calendar collection keys whose events it shows; empty: every calendar. */
  calendars: string[];
  /** People whose events and chores it shows; empty: everyone's. */
  personIds: string[];
  /** Whether its page may change things (actions.ts); absent on links made before: false. */
  interactive?: boolean;
  /** Keys of the lists it shows besides the chores; absent on links made before: groceries. */
  lists?: string[];
  /** From when (`HH:mm` in the family's zone) until when the page dims; null: never. */
  nightFrom?: string | null;
  nightTo?: string | null;
  /** The locale it speaks (docs/i18n.md); absent or null: its family's. */
  locale?: string | null;
  /** The entries it added last (at most ADDS_KEPT, oldest first): what its undo may delete. */
  added?: DisplayAdd[];
  /** SHA-256 (hex) of the token. */
  tokenHash: string;
  createdAt: string;
  createdByKeyId: string | null;
}

/** What an admin sets on a display, with the defaults of links made before these existed. */
export interface DisplaySettings {
  name: string;
  calendars: string[];
  personIds: string[];
  interactive: boolean;
  lists: string[];
  nightFrom: string | null;
  nightTo: string | null;
}

export type DisplayView = DisplaySettings & { id: string; createdAt: string };

export function displaySettings(d: DisplayRecord): DisplaySettings {
  return {
    name: d.name,
    calendars: d.calendars,
    personIds: d.personIds,
    interactive: d.interactive ?? false,
    lists: d.lists ?? [...DEFAULT_LISTS],
    nightFrom: d.nightFrom ?? null,
    nightTo: d.nightTo ?? null,
  };
}

export function displayView(d: DisplayRecord): DisplayView {
  return { id: d.id, ...displaySettings(d), createdAt: d.createdAt };
}

/** Displays, oldest first. */
export function listDisplays(state: FamilyState): DisplayRecord[] {
  return Array.from(state.table<DisplayRecord>(DISPLAYS).values());
}

export function displayByTokenHash(state: FamilyState, hash: string): DisplayRecord | undefined {
  for (const d of state.table<DisplayRecord>(DISPLAYS).values()) if (d.tokenHash === hash) return d;
  return undefined;
}

export interface DisplayInput {
  name: string;
  calendars?: string[];
  personIds?: string[];
  interactive?: boolean;
  lists?: string[];
  nightFrom?: string | null;
  nightTo?: string | null;
}

export type DisplayPatch = Partial<DisplayInput>;

/** A family keeps at most this many display links (a kitchen, a hallway, a grandparent's frame…). */
export const DISPLAYS_MAX = 50;

const unique = (xs: readonly string[] | undefined) => Array.from(new Set(xs ?? []));

/** A local time `HH:mm` (or `3:30 PM`) as `HH:mm`, or null when it is none. */
function localTime(v: string | null, path: string, issues: Issue[]): string | null {
  if (v === null) return null;
  const t = parseLocalTime(v);
  if (!t) issues.push({ path: [path], message: 'must be a time HH:mm' });
  return t;
}

/** The settings an input leaves, checked against the family (400 naming each bad field). */
function checkedSettings(state: FamilyState, s: DisplaySettings): DisplaySettings {
  const issues: Issue[] = [];
  const name = s.name.trim();
  if (!name) issues.push({ path: ['name'], message: 'must not be blank' });
  const calendars = unique(s.calendars);
  const personIds = unique(s.personIds);
  const lists = unique(s.lists);
  calendars.forEach((k, i) => {
    if (getCollection(state, k)?.category !== 'calendar')
      issues.push({ path: ['calendars', i], message: `is not a calendar of this family: ${k}` });
  });
  personIds.forEach((id, i) => {
    if (!activePerson(state, id))
      issues.push({ path: ['personIds', i], message: `is not a person of this family: ${id}` });
  });
  lists.forEach((k, i) => {
    const c = getCollection(state, k);
    if (k === 'chores')
      issues.push({ path: ['lists', i], message: 'chores are always shown: leave them out' });
    else if (!c || isCalendar(c))
      issues.push({ path: ['lists', i], message: `is not a list of this family: ${k}` });
  });
  if (lists.length > LISTS_MAX)
    issues.push({ path: ['lists'], message: `must have at most ${LISTS_MAX} items` });
  const before = issues.length;
  const nightFrom = localTime(s.nightFrom, 'nightFrom', issues);
  const nightTo = localTime(s.nightTo, 'nightTo', issues);
  const timesOk = issues.length === before;
  if (timesOk && (nightFrom === null) !== (nightTo === null)) {
    const missing = nightFrom === null ? 'nightFrom' : 'nightTo';
    issues.push({ path: [missing], message: 'is needed too: night mode has a start and an end' });
  } else if (timesOk && nightFrom !== null && nightFrom === nightTo) {
    issues.push({ path: ['nightTo'], message: 'must differ from nightFrom' });
  }
  if (issues.length) throw new Invalid(`${issues[0].path.join('.')}: ${issues[0].message}`, issues);
  return { ...s, name, calendars, personIds, lists, nightFrom, nightTo };
}

/** Creates a display for a token the caller made; `tokenHash` is its SHA-256 (hex). */
export function decideCreateDisplay(
  state: FamilyState,
  input: DisplayInput,
  tokenHash: string,
  ctx: CommandContext,
): Decision<DisplayRecord> {
  const settings = checkedSettings(state, {
    name: input.name,
    calendars: input.calendars ?? [],
    personIds: input.personIds ?? [],
    interactive: input.interactive ?? false,
    lists: input.lists ?? [...DEFAULT_LISTS],
    nightFrom: input.nightFrom ?? null,
    nightTo: input.nightTo ?? null,
  });
  if (state.table(DISPLAYS).size >= DISPLAYS_MAX) {
    throw Invalid.at(
      ['name'],
      `this family already has ${DISPLAYS_MAX} display links; delete one first`,
    );
  }
  const display: DisplayRecord = {
    id: ctx.newId('display'),
    ...settings,
    tokenHash,
    createdAt: ctx.now.toISOString(),
    createdByKeyId: ctx.caller.keyId,
  };
  return {
    result: display,
    changes: [{ table: DISPLAYS, id: display.id, value: display }],
    events: [{ type: 'display.created', object: displayView(display) }],
    indexes: [{ index: 'share-token', key: tokenHash, familyId: ctx.family.id }],
  };
}

export function requireDisplay(state: FamilyState, id: string): DisplayRecord {
  const display = state.get<DisplayRecord>(DISPLAYS, id);
  if (!display) throw new NotFound(`No display ${id} in this family`);
  return display;
}

/**
 * Changes what a display shows and may do; fields left out stay. Its token and address stay
 * too: a page already on the wall picks the change up from its stream. Logs display.updated.
 */
export function decideUpdateDisplay(
  state: FamilyState,
  id: string,
  patch: DisplayPatch,
  _ctx: CommandContext,
): Decision<DisplayRecord> {
  const before = requireDisplay(state, id);
  const was = displaySettings(before);
  const settings = checkedSettings(state, {
    name: patch.name ?? was.name,
    calendars: patch.calendars ?? was.calendars,
    personIds: patch.personIds ?? was.personIds,
    interactive: patch.interactive ?? was.interactive,
    lists: patch.lists ?? was.lists,
    nightFrom: patch.nightFrom !== undefined ? patch.nightFrom : was.nightFrom,
    nightTo: patch.nightTo !== undefined ? patch.nightTo : was.nightTo,
  });
  if (JSON.stringify(settings) === JSON.stringify(was)) {
    return { result: before, changes: [], events: [] };
  }
  const next: DisplayRecord = { ...before, ...settings };
  return {
    result: next,
    changes: [{ table: DISPLAYS, id, value: next }],
    events: [{ type: 'display.updated', object: displayView(next), previous: displayView(before) }],
  };
}

export function decideDeleteDisplay(
  state: FamilyState,
  id: string,
  _ctx: CommandContext,
): Decision<DisplayRecord> {
  const display = requireDisplay(state, id);
  return {
    result: display,
    changes: [{ table: DISPLAYS, id, value: null }],
    events: [{ type: 'display.deleted', object: displayView(display) }],
    indexes: [{ index: 'share-token', key: display.tokenHash, familyId: null }],
  };
}

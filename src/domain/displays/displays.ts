/**
 * Family display links (docs/display.md): a named view of the family for a wall tablet,
 * served at `/display/<token>`. Like a calendar share, the token (`dsp_` + 32 base62) is made
 * at the edge and shown once; only its SHA-256 is kept, on the record and in the store-wide
 * `share-token` index that finds the family without a key. Deleting a display removes both in
 * the same transaction, so its page and stream stop at once.
 *
 * A display may be made `interactive`: its page then offers a fixed, narrow set of actions
 * (actions.ts). Which lists it shows (`lists`) and when it dims (`nightFrom`/`nightTo`) are
 * set here too. Its fields are described once, in `DISPLAY_FIELDS`.
 */
import { getCollection, isCalendar } from '../collections/collections.js';
import { activePerson } from '../people/people.js';
import { NotFound, Invalid, type Issue } from '../shared/errors.js';
import { noChange } from '../shared/decision.js';
import {
  applyPatch,
  createFields,
  field,
  readFields,
  timestamp,
  viewFields,
  type CreateOf,
  type PatchOf,
  type RecordOf,
  type ViewOf,
} from '../shared/record.js';
import { S } from '../shared/schema.js';
import { canonicalLocale, LOCALE_MAX_LENGTH } from '../i18n/locale.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';

export const DISPLAYS = 'displays';

/** The list a display shows when it is not told otherwise: the shopping list. */
export const DEFAULT_LISTS: readonly string[] = ['groceries'];
/** Lists one display shows at most (besides the chores, always shown). */
export const LISTS_MAX = 5;

const unique = (xs: readonly string[]): string[] => Array.from(new Set(xs));
const ids = S.array(S.string({ min: 1, max: 100 }), { max: 200 });
const keys = S.array(S.string({ min: 1, max: 100 }), { max: 20 });
const keysAnswered = { type: 'array', items: { type: 'string' } };
const settable = { create: 'optional', patch: 'value', view: 'always' } as const;
/** A field the daemon sets; `stored`: and never answers. */
const daemonSets = { create: 'never', patch: 'never' } as const;
const stored = { ...daemonSets, view: 'never' } as const;

/** An entry the display added, which it may delete again as the undo of that add. */
const DISPLAY_ADD = S.object({ collection: S.string(), entryId: S.string(), at: timestamp });

/**
 * Every field of a display, once (src/domain/shared/record.ts): its type, the create and PATCH
 * bodies, patching, the view and the `FamilyDisplay` schema come from here. The answer's
 * schemas (`response`) are those the API published before the table, kept as they were. What
 * the family must hold (its calendars, people and lists; night mode's two ends) is checked
 * against the family in `checkedAgainst`.
 */
export const DISPLAY_FIELDS = {
  id: field(S.string({ pattern: /^display_[0-9a-z]{20}$/ }), { ...daemonSets, view: 'always' }),
  name: field(S.string({ min: 1, max: 200 }), {
    ...settable,
    create: 'required',
    clean: (v) => v.trim(),
    check: (v) => v !== '' || 'must not be blank',
    response: { type: 'string' },
  }),
  /** Calendar collection keys whose events it shows; empty: every calendar. */
  calendars: field(ids, { ...settable, default: [], clean: unique, response: keysAnswered }),
  /** People whose events and chores it shows; empty: everyone's. */
  personIds: field(ids, { ...settable, default: [], clean: unique, response: keysAnswered }),
  /** Whether its page may change things (actions.ts); false on links made before it existed. */
  interactive: field(S.boolean(), {
    ...settable,
    default: false,
    response: { type: 'boolean', description: 'Whether its page may change things' },
  }),
  /** Keys of the lists it shows besides the chores; groceries on links made before it existed. */
  lists: field(keys, {
    ...settable,
    default: [...DEFAULT_LISTS],
    clean: unique,
    check: (v) => v.length <= LISTS_MAX || `must have at most ${LISTS_MAX} items`,
    response: {
      ...keysAnswered,
      description: 'Collection keys of the lists it shows besides the chores',
    },
  }),
  /** From when (`HH:mm` in the family's zone) until when the page dims; null: never. */
  nightFrom: field(S.time(), {
    ...settable,
    nullable: true,
    response: { type: ['string', 'null'], description: '`HH:mm` local: the page dims from then' },
  }),
  nightTo: field(S.time(), {
    ...settable,
    nullable: true,
    response: { type: ['string', 'null'], description: '`HH:mm` local: …until then' },
  }),
  /**
   * The locale its page speaks (docs/i18n.md), a BCP 47 tag stored in its canonical form; null:
   * its family's. Set it where one screen is read by someone else (a grandparent's frame).
   */
  locale: field(S.string({ min: 1, max: LOCALE_MAX_LENGTH }), {
    ...settable,
    nullable: true,
    clean: (v) => canonicalLocale(v) ?? v,
    check: (v) =>
      canonicalLocale(v) === v || 'must be a BCP 47 language tag (de-DE, en-US, pt-BR, ar-EG)',
    response: {
      type: ['string', 'null'],
      description: "The locale its page speaks (BCP 47); null: the family's",
    },
  }),
  /** The entries it added last (at most ADDS_KEPT, oldest first): what its undo may delete. */
  added: field(S.array(DISPLAY_ADD), { ...stored, default: [] }),
  /** SHA-256 (hex) of the token. */
  tokenHash: field(S.string(), stored),
  createdAt: field(timestamp, { ...daemonSets, view: 'always' }),
  /** The key that made it (null: one with no key). */
  createdByKeyId: field(S.string(), { ...stored, nullable: true }),
};

export type DisplayRecord = RecordOf<typeof DISPLAY_FIELDS>;
export type DisplayAdd = DisplayRecord['added'][number];
export type DisplayInput = CreateOf<typeof DISPLAY_FIELDS>;
export type DisplayPatch = PatchOf<typeof DISPLAY_FIELDS>;
export type DisplayView = ViewOf<typeof DISPLAY_FIELDS>;

/** The display with the defaults of the fields it was written without (links made before them). */
export function displaySettings(d: DisplayRecord): DisplayRecord {
  return readFields(DISPLAY_FIELDS, d);
}

export function displayView(d: DisplayRecord): DisplayView {
  return viewFields(DISPLAY_FIELDS, d) as DisplayView;
}

/** Displays, oldest first. */
export function listDisplays(state: FamilyState): DisplayRecord[] {
  return Array.from(state.table<DisplayRecord>(DISPLAYS).values());
}

export function displayByTokenHash(state: FamilyState, hash: string): DisplayRecord | undefined {
  for (const d of state.table<DisplayRecord>(DISPLAYS).values()) if (d.tokenHash === hash) return d;
  return undefined;
}

/** A family keeps at most this many display links (a kitchen, a hallway, a grandparent's frame…). */
export const DISPLAYS_MAX = 50;

/**
 * What the fields' own rules cannot say: its calendars, people and lists are the family's, and
 * night mode has both ends, which differ. Each broken rule is an issue naming its field.
 */
function checkedAgainst(state: FamilyState, d: DisplayRecord, issues: Issue[]): void {
  d.calendars.forEach((k, i) => {
    if (getCollection(state, k)?.category !== 'calendar')
      issues.push({ path: ['calendars', i], message: `is not a calendar of this family: ${k}` });
  });
  d.personIds.forEach((id, i) => {
    if (!activePerson(state, id))
      issues.push({ path: ['personIds', i], message: `is not a person of this family: ${id}` });
  });
  d.lists.forEach((k, i) => {
    const c = getCollection(state, k);
    if (k === 'chores')
      issues.push({ path: ['lists', i], message: 'chores are always shown: leave them out' });
    else if (!c || isCalendar(c))
      issues.push({ path: ['lists', i], message: `is not a list of this family: ${k}` });
  });
  const { nightFrom, nightTo } = d;
  if ((nightFrom === null) !== (nightTo === null)) {
    const missing = nightFrom === null ? 'nightFrom' : 'nightTo';
    issues.push({ path: [missing], message: 'is needed too: night mode has a start and an end' });
  } else if (nightFrom !== null && nightFrom === nightTo) {
    issues.push({ path: ['nightTo'], message: 'must differ from nightFrom' });
  }
}

function failOn(issues: Issue[]): void {
  if (issues.length) throw new Invalid(`${issues[0].path.join('.')}: ${issues[0].message}`, issues);
}

/** Creates a display for a token the caller made; `tokenHash` is its SHA-256 (hex). */
export function decideCreateDisplay(
  state: FamilyState,
  input: DisplayInput,
  tokenHash: string,
  ctx: CommandContext,
): Decision<DisplayRecord> {
  const issues: Issue[] = [];
  const own = {
    id: ctx.newId('display'),
    tokenHash,
    createdAt: ctx.now.toISOString(),
    createdByKeyId: ctx.caller.keyId,
  };
  const display = createFields(DISPLAY_FIELDS, input, own, issues);
  checkedAgainst(state, display, issues);
  failOn(issues);
  if (state.table(DISPLAYS).size >= DISPLAYS_MAX) {
    throw Invalid.at(
      ['name'],
      `this family already has ${DISPLAYS_MAX} display links; delete one first`,
    );
  }
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
 * too: a page already on the wall picks the change up from its stream. Logs display.updated;
 * a change to nothing writes and logs nothing.
 */
export function decideUpdateDisplay(
  state: FamilyState,
  id: string,
  patch: DisplayPatch,
  _ctx: CommandContext,
): Decision<DisplayRecord> {
  const before = requireDisplay(state, id);
  const { next, changed } = applyPatch(DISPLAY_FIELDS, before, patch);
  const issues: Issue[] = [];
  checkedAgainst(state, next, issues);
  failOn(issues);
  if (!changed) return noChange(before);
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

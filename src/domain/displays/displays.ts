/**
 * Family display links (docs/display.md): a named view of the family for a wall tablet,
 * served at `/display/<token>`. Like a calendar share, the token (`dsp_` + 32 base62) is made
 * at the edge and shown once; only its SHA-256 is kept, on the record and in the store-wide
 * `share-token` index that finds the family without a key. Deleting a display removes both in
 * the same transaction, so its page and stream stop at once.
 */
import { getCollection } from '../collections/collections.js';
import { activePerson } from '../people/people.js';
import { NotFound, Invalid, type Issue } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';

export const DISPLAYS = 'displays';

export interface DisplayRecord {
  id: string;
  name: string;
  /** Calendar collection keys whose events it shows; empty: every calendar. */
  calendars: string[];
  /** People whose events and chores it shows; empty: everyone's. */
  personIds: string[];
  /** SHA-256 (hex) of the token. */
  tokenHash: string;
  createdAt: string;
  createdByKeyId: string | null;
}

export type DisplayView = Omit<DisplayRecord, 'tokenHash' | 'createdByKeyId'>;

export function displayView(d: DisplayRecord): DisplayView {
  return {
    id: d.id,
    name: d.name,
    calendars: d.calendars,
    personIds: d.personIds,
    createdAt: d.createdAt,
  };
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
}

/** A family keeps at most this many display links (a kitchen, a hallway, a grandparent's frame…). */
export const DISPLAYS_MAX = 50;

const unique = (xs: readonly string[] | undefined) => Array.from(new Set(xs ?? []));

/** Creates a display for a token the caller made; `tokenHash` is its SHA-256 (hex). */
export function decideCreateDisplay(
  state: FamilyState,
  input: DisplayInput,
  tokenHash: string,
  ctx: CommandContext,
): Decision<DisplayRecord> {
  const issues: Issue[] = [];
  const name = input.name.trim();
  if (!name) issues.push({ path: ['name'], message: 'must not be blank' });
  const calendars = unique(input.calendars);
  const personIds = unique(input.personIds);
  calendars.forEach((k, i) => {
    if (getCollection(state, k)?.category !== 'calendar')
      issues.push({ path: ['calendars', i], message: `is not a calendar of this family: ${k}` });
  });
  personIds.forEach((id, i) => {
    if (!activePerson(state, id))
      issues.push({ path: ['personIds', i], message: `is not a person of this family: ${id}` });
  });
  if (issues.length) throw new Invalid(`${issues[0].path.join('.')}: ${issues[0].message}`, issues);
  if (state.table(DISPLAYS).size >= DISPLAYS_MAX) {
    throw Invalid.at(
      ['name'],
      `this family already has ${DISPLAYS_MAX} display links; delete one first`,
    );
  }
  const display: DisplayRecord = {
    id: ctx.newId('display'),
    name,
    calendars,
    personIds,
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

export function decideDeleteDisplay(
  state: FamilyState,
  id: string,
  _ctx: CommandContext,
): Decision<DisplayRecord> {
  const display = state.get<DisplayRecord>(DISPLAYS, id);
  if (!display) throw new NotFound(`No display ${id} in this family`);
  return {
    result: display,
    changes: [{ table: DISPLAYS, id, value: null }],
    events: [{ type: 'display.deleted', object: displayView(display) }],
    indexes: [{ index: 'share-token', key: display.tokenHash, familyId: null }],
  };
}

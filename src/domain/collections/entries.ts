/**
 * Entry deciders: create, update and delete, one or a batch of up to 50. A single
 * write is a batch of one, so both share every rule: a batch is atomic (any invalid item → 400
 * with issues under `["items", i, …]`, any unknown id → 404, and nothing is written) and logs
 * one change-log record per entry. Calendar collections hold events, written only through the
 * calendar endpoints: here they answer 409.
 */
import {
  Conflict,
  Invalid,
  NotFound,
  failOnIssues,
  type Issue,
  type Path,
} from '../shared/errors.js';
import type {
  CommandContext,
  Decision,
  FamilyState,
  LogEvent,
  RecordChange,
} from '../shared/state.js';
import { isCalendar, requireCollection } from './collections.js';
import { mergeData } from './data.js';
import { entryView } from './listing.js';
import { ENTRIES, ENTRY_FIELDS, type Collection, type Entry } from './types.js';
import {
  applyPatch,
  cleanSent,
  createFields,
  type CreateOf,
  type PatchOf,
} from '../shared/record.js';
import { tombstonesFor } from './tombstones.js';

export const BATCH_MAX = 50;

/** The collection, if entries may be written to it here. */
export function writableCollection(state: FamilyState, key: string): Collection {
  const c = requireCollection(state, key);
  if (isCalendar(c)) {
    throw new Conflict(`${c.name} is a calendar: write its events through /calendar/events`);
  }
  return c;
}

/**
 * Where a problem of item i is reported: `[...]` for a single write, `["items", i, ...]` in a
 * batch.
 */
type At = (i: number) => Path;
export const SINGLE: At = () => [];
export const IN_BATCH: At = (i) => ['items', i];

function fail(issues: Issue[], Kind: typeof Invalid | typeof NotFound = Invalid): never {
  failOnIssues(issues, Kind);
  throw new Error('fail() needs an issue');
}

/**
 * The entry's own fields sent, cleaned and checked by its table; each issue at the item's place.
 */
function cleanItem<I extends object>(item: I, at: Path, issues: Issue[]): I {
  const found: Issue[] = [];
  const out = cleanSent(ENTRY_FIELDS, item, found);
  for (const issue of found) issues.push({ ...issue, path: [...at, ...issue.path] });
  return out;
}

export type NewEntryInput = CreateOf<typeof ENTRY_FIELDS>;

export function decideCreateEntries(
  state: FamilyState,
  collectionKey: string,
  items: readonly NewEntryInput[],
  ctx: CommandContext,
  at: At = IN_BATCH,
): Decision<Entry[]> {
  const c = writableCollection(state, collectionKey);
  const issues: Issue[] = [];
  const now = ctx.now.toISOString();
  const made = items.map((item, i) => {
    const { title } = cleanItem({ title: item.title }, at(i), issues);
    const data = mergeData(state, c, {}, item.data, [...at(i), 'data'], issues);
    return { title, data };
  });
  if (issues.length) fail(issues);
  const entries: Entry[] = made.map((sent) =>
    createFields(ENTRY_FIELDS, sent, {
      id: ctx.newId('ent'),
      collectionKey: c.key,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return {
    result: entries,
    changes: entries.map((e) => ({ table: ENTRIES, id: e.id, value: e })),
    events: entries.map((e) => ({ type: 'tracker.entry.created', object: entryView(c, e) })),
  };
}

/** The entry `id` of collection `c`, or a not-found issue. */
function findEntry(
  state: FamilyState,
  c: Collection,
  id: string,
  path: Path,
  missing: Issue[],
): Entry | undefined {
  const e = state.get<Entry>(ENTRIES, id);
  if (e && e.collectionKey === c.key) return e;
  missing.push({ path, message: `is not an entry of ${c.key}: ${id}` });
  return undefined;
}

function refuseRepeats(ids: readonly string[], path: (i: number) => Path): void {
  const seen = new Set<string>();
  const issues: Issue[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id))
      issues.push({ path: path(i), message: `repeats ${id}: each entry may appear once` });
    seen.add(id);
  });
  if (issues.length) fail(issues);
}

export type EntryPatchInput = PatchOf<typeof ENTRY_FIELDS> & { entryId: string };

/**
 * Updates entries: title and status replace, `data` is merged key by key (`null` removes a
 * key). Items that change nothing are answered but not written or logged.
 */
export function decideUpdateEntries(
  state: FamilyState,
  collectionKey: string,
  items: readonly EntryPatchInput[],
  ctx: CommandContext,
  at: At = IN_BATCH,
): Decision<Entry[]> {
  const c = writableCollection(state, collectionKey);
  refuseRepeats(
    items.map((it) => it.entryId),
    (i) => [...at(i), 'entryId'],
  );
  const missing: Issue[] = [];
  const issues: Issue[] = [];
  const now = ctx.now.toISOString();
  const pairs = items.map((item, i) => {
    const before = findEntry(state, c, item.entryId, [...at(i), 'entryId'], missing);
    if (!before) return null;
    if (item.title === undefined && item.data === undefined && item.status === undefined) {
      issues.push({ path: at(i), message: 'must change at least one of title, data, status' });
    }
    const { entryId: _id, data, ...own } = item;
    const sent: PatchOf<typeof ENTRY_FIELDS> = cleanItem(own, at(i), issues);
    if (data !== undefined)
      sent.data = mergeData(state, c, before.data, data, [...at(i), 'data'], issues);
    return { before, sent };
  });
  if (missing.length) fail(missing, NotFound);
  if (issues.length) fail(issues);
  const changes: RecordChange[] = [];
  const events: LogEvent[] = [];
  const result = pairs.map((p) => {
    const { before, sent } = p!;
    const { next, changed } = applyPatch(ENTRY_FIELDS, before, sent);
    if (!changed) return before;
    next.updatedAt = now;
    changes.push({ table: ENTRIES, id: next.id, value: next });
    events.push({
      type: 'tracker.entry.updated',
      object: entryView(c, next),
      previous: entryView(c, before),
    });
    return next;
  });
  return { result, changes, events };
}

export function decideDeleteEntries(
  state: FamilyState,
  collectionKey: string,
  entryIds: readonly string[],
  ctx: CommandContext,
  at: (i: number) => Path = (i) => ['entryIds', i],
): Decision<Entry[]> {
  const c = writableCollection(state, collectionKey);
  refuseRepeats(entryIds, at);
  const missing: Issue[] = [];
  const found = entryIds.map((id, i) => findEntry(state, c, id, at(i), missing));
  if (missing.length) fail(missing, NotFound);
  const entries = found as Entry[];
  return {
    result: entries,
    // Entries a CalDAV client named leave their name behind for its next sync.
    changes: [
      ...entries.map((e) => ({ table: ENTRIES, id: e.id, value: null })),
      ...tombstonesFor(entries, ctx.now.toISOString()),
    ],
    events: entries.map((e) => ({ type: 'tracker.entry.deleted', object: entryView(c, e) })),
  };
}

/**
 * Reading entries: the per-collection index (newest first), the entry view, and listing with
 * status, query, limit and cursor. Lists must stay fast on thousands of entries:
 * the index is derived once per write to the family, each record's searchable text once per
 * record (records are immutable values, so a WeakMap keyed by the record is a safe cache), and
 * a page walks only as far as it needs.
 */
import { Invalid } from '../shared/errors.js';
import { PAGE_LIMIT } from '../shared/paging.js';
import type { FamilyState, RecordChange } from '../shared/state.js';
import { visibleData } from './data.js';
import { matchesTerms, normalizeText, queryTerms } from './search.js';
import { ENTRIES, ENTRY_FIELDS, type Collection, type Entry, type EntryStatus } from './types.js';
import { viewFields, type Derived, type ViewOf } from '../shared/record.js';

/** Newest first: later `createdAt` first, then larger id (ids are time-sortable). */
function newerFirst(a: Entry, b: Entry): number {
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt ? -1 : 1;
  return a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
}

const EMPTY: readonly Entry[] = [];

/**
 * Every collection's entries, newest first: built in one pass, then kept up to date change by
 * change (a busy family adds entries many times a second, and a rebuild walks all of them).
 */
function index(state: FamilyState): Map<string, Entry[]> {
  return state.followed(
    'entries:byCollection',
    () => buildIndex(state),
    (groups, changes) => followIndex(state, groups, changes),
  );
}

function buildIndex(state: FamilyState): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>();
  for (const e of state.table<Entry>(ENTRIES).values()) {
    let g = groups.get(e.collectionKey);
    if (!g) groups.set(e.collectionKey, (g = []));
    g.push(e);
  }
  // Records are held in creation order, so this is a reverse plus a linear check in practice.
  for (const g of groups.values()) {
    g.reverse();
    g.sort(newerFirst);
  }
  return groups;
}

/** Where `e` belongs in a newest-first list: the first position not newer than it. */
function positionOf(list: readonly Entry[], e: Entry): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (newerFirst(list[mid], e) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Applies entry changes to the index in place. A new or replaced entry is put at its place by
 * (createdAt, id); a deletion, or an entry that changed collection or creation time (then the
 * entry counts no longer add up), makes the caller rebuild instead.
 */
function followIndex(
  state: FamilyState,
  groups: Map<string, Entry[]>,
  changes: readonly RecordChange[],
): boolean {
  let touched = false;
  for (const c of changes) {
    if (c.table !== ENTRIES) continue;
    if (c.value === null || c.value === undefined) return false;
    touched = true;
    const e = c.value as Entry;
    let g = groups.get(e.collectionKey);
    if (!g) groups.set(e.collectionKey, (g = []));
    const i = positionOf(g, e);
    if (i < g.length && g[i].id === e.id) g[i] = e;
    else g.splice(i, 0, e);
  }
  if (!touched) return true;
  let count = 0;
  for (const g of groups.values()) count += g.length;
  return count === state.table(ENTRIES).size;
}

/** The entries of one collection, newest first (all statuses). */
export function entriesOf(state: FamilyState, collectionKey: string): readonly Entry[] {
  return index(state).get(collectionKey) ?? EMPTY;
}

/** An entry as the API shows it: the table's fields, as a copy the caller may hand out. */
export type EntryView = ViewOf<typeof ENTRY_FIELDS> & { data: Record<string, unknown> };

/**
 * The answer's `data`: of ordinary collections only the fields the collection still defines;
 * calendar entries (events) show their data as stored.
 */
export const ENTRY_DERIVED = {
  data: {
    after: 'data',
    schema: {
      type: 'object',
      additionalProperties: true,
      description: 'Values of the fields the collection defines',
    },
    of: (e: Entry, collection: Collection) =>
      collection.category === 'calendar' ? e.data : visibleData(collection, e.data),
  },
} satisfies Record<string, Derived<Entry, Collection>>;

/** An entry as the API shows it (its collection says which data it shows). */
export function entryView(collection: Collection, e: Entry): EntryView {
  return viewFields(ENTRY_FIELDS, e, ENTRY_DERIVED, collection) as EntryView;
}

const searchable = new WeakMap<Entry, { fields: unknown; text: string }>();

/** Title and visible data values, folded for matching (cached per record and field list). */
function searchText(collection: Collection, e: Entry): string {
  const hit = searchable.get(e);
  if (hit && hit.fields === collection.fields) return hit.text;
  const parts = [e.title];
  const data =
    collection.category === 'calendar' ? (e.data ?? {}) : visibleData(collection, e.data);
  collectValues(data, parts);
  const text = normalizeText(parts.join('\n'));
  searchable.set(e, { fields: collection.fields, text });
  return text;
}

function collectValues(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) collectValues(v, out);
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) collectValues(v, out);
}

/** Opaque list position: the (createdAt, id) of the last entry of the previous page. */
export function encodeCursor(e: Entry): string {
  return Buffer.from(`${e.createdAt}|${e.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)\|(\S+)$/.exec(text);
  if (!m) throw Invalid.at(['query', 'cursor'], 'is not a cursor this list gave out');
  return { createdAt: m[1], id: m[2] };
}

/** Index of the first entry strictly after the cursor position (binary search). */
function startAfter(list: readonly Entry[], at: { createdAt: string; id: string }): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = list[mid];
    const after = e.createdAt < at.createdAt || (e.createdAt === at.createdAt && e.id < at.id);
    if (after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface ListQuery {
  query?: string;
  status?: EntryStatus;
  limit?: number;
  cursor?: string;
}

export interface EntryPage {
  entries: Entry[];
  nextCursor?: string;
}

/** One page of a collection's entries: without `status`, archived entries are left out. */
export function listEntries(state: FamilyState, collection: Collection, q: ListQuery): EntryPage {
  const limit = q.limit ?? PAGE_LIMIT.default;
  const terms = queryTerms(q.query);
  const wanted = (e: Entry) => (q.status ? e.status === q.status : e.status !== 'archived');
  // A search is answered from its full match list, kept until the family's next write, so
  // paging through it or repeating it does not scan the collection again.
  const all = terms.length
    ? state.derived(
        `entries:search:${collection.key}:${q.status ?? ''}:${terms.join('\u0000')}`,
        () =>
          entriesOf(state, collection.key).filter(
            (e) => wanted(e) && matchesTerms(searchText(collection, e), terms),
          ),
      )
    : entriesOf(state, collection.key);
  let i = q.cursor ? startAfter(all, decodeCursor(q.cursor)) : 0;
  const out: Entry[] = [];
  for (; i < all.length; i++) {
    const e = all[i];
    if (!wanted(e)) continue;
    if (out.length === limit)
      return { entries: out, nextCursor: encodeCursor(out[out.length - 1]) };
    out.push(e);
  }
  return { entries: out };
}

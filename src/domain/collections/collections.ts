/**
 * Collections (wire name: tracker): create, update, delete and their views.
 *
 * Keys are derived from names and never change; names are unique within a family regardless
 * of case. A name taken already is refused (409) when the REST API is asked for it, where the
 * caller can choose another; a calendar app, for which a name is only a label (CalDAV's address
 * is the key), gets it made distinct instead — "Packing (2)" — so nothing it does is refused for
 * a name (`onNameTaken: 'number'`). Built-ins cannot be deleted. Deleting a custom collection
 * deletes its entries in the same transaction and logs one `collection.deleted` (no per-entry
 * records).
 */
import { Conflict, Invalid, NotFound, failOnIssues, type Issue } from '../shared/errors.js';
import type {
  AgendaChange,
  CommandContext,
  Decision,
  FamilyState,
  LogEvent,
  RecordChange,
} from '../shared/state.js';
import { BUILTIN_ORDER } from './builtins.js';
import { entriesOf } from './listing.js';
import { normalizeText } from './search.js';
import {
  COLLECTION_FIELDS,
  COLLECTIONS,
  ENTRIES,
  FIELD_DEF_FIELDS,
  FIELD_KEY_RE,
  KEY_MAX,
  NAME_MAX,
  type Collection,
  type Entry,
  type FieldDef,
  type FieldInput,
} from './types.js';
import { noChange } from '../shared/decision.js';
import {
  applyPatch,
  cleanSent,
  createFields,
  recordSchema,
  viewFields,
  type CreateOf,
  type Derived,
  type PatchOf,
  type ViewOf,
} from '../shared/record.js';
import type { JsonSchema } from '../shared/schema.js';

export function getCollection(state: FamilyState, key: string): Collection | undefined {
  return state.get<Collection>(COLLECTIONS, key);
}

export function requireCollection(state: FamilyState, key: string): Collection {
  const c = getCollection(state, key);
  if (!c) throw new NotFound(`No collection ${key} in this family`);
  return c;
}

export function isCalendar(c: Collection): boolean {
  return c.category === 'calendar';
}

/** Built-ins first in their fixed order, then custom collections oldest first. */
export function listCollections(state: FamilyState): Collection[] {
  return state.derived('collections:list', () =>
    Array.from(state.table<Collection>(COLLECTIONS).values()).sort((a, b) => {
      const ra = BUILTIN_ORDER.get(a.key) ?? Infinity;
      const rb = BUILTIN_ORDER.get(b.key) ?? Infinity;
      if (ra !== rb) return ra - rb;
      if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
      return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    }),
  );
}

/** The family's calendars (category `calendar`): the built-in one, custom ones, feed ones. */
export function calendarCollections(state: FamilyState): Collection[] {
  return listCollections(state).filter(isCalendar);
}

/** A field definition as the answer shows it: `type` always, `options` only when set. */
export function fieldDefView(f: FieldDef): FieldDef {
  return viewFields(FIELD_DEF_FIELDS, f as FieldDef & { options: string[] | null }) as FieldDef;
}

/** The answer's schema of a field definition. */
export const FIELD_DEF_SCHEMA: JsonSchema = recordSchema(
  FIELD_DEF_FIELDS,
  {},
  { additionalProperties: false, description: 'type is always present in responses' },
);

/** The answer's `fields`, each through its own table. */
export const COLLECTION_DERIVED = {
  fields: {
    after: 'fields',
    schema: { type: 'array', items: FIELD_DEF_SCHEMA },
    of: (c: Collection) => c.fields.map(fieldDefView),
  },
} satisfies Record<string, Derived<Collection>>;

export type CollectionView = ViewOf<typeof COLLECTION_FIELDS> & { fields: FieldDef[] };

/** A collection as the API shows it: `color`, `category`, `sourceId` only when set. */
export function collectionView(c: Collection): CollectionView {
  return viewFields(COLLECTION_FIELDS, c, COLLECTION_DERIVED) as CollectionView;
}

/**
 * The key for a new collection named `name`: accents dropped, lower-case, runs of anything
 * but a-z and 0-9 become `-`, trimmed of dashes, at most 48 characters; `-2`, `-3`… when taken.
 */
export function deriveKey(name: string, taken: (key: string) => boolean): string {
  const base =
    normalizeText(name)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'collection';
  const fit = (s: string, room: number) =>
    s.slice(0, room).replace(/-+$/, '') || 'collection'.slice(0, room);
  let key = fit(base, KEY_MAX);
  for (let n = 2; taken(key); n++) {
    const suffix = `-${n}`;
    key = fit(base, KEY_MAX - suffix.length) + suffix;
  }
  return key;
}

/**
 * Checks a complete field list and fills defaults (`type` text). Options are required and
 * non-empty for select fields and refused for other types; keys are unique.
 */
export function normalizeFields(input: readonly FieldInput[]): FieldDef[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  const out: FieldDef[] = input.map((f, i) => {
    const type = f.type ?? 'text';
    if (!FIELD_KEY_RE.test(f.key))
      issues.push({ path: ['fields', i, 'key'], message: `must match ${FIELD_KEY_RE.source}` });
    else if (seen.has(f.key))
      issues.push({ path: ['fields', i, 'key'], message: `is used by another field: ${f.key}` });
    seen.add(f.key);
    const label = f.label.trim();
    if (!label) issues.push({ path: ['fields', i, 'label'], message: 'must not be blank' });
    if (type === 'select') {
      const options = f.options ?? [];
      if (options.length === 0)
        issues.push({
          path: ['fields', i, 'options'],
          message: 'is required for a select field (at least one option)',
        });
      const dup = options.find((o, j) => options.indexOf(o) !== j);
      if (dup !== undefined)
        issues.push({
          path: ['fields', i, 'options'],
          message: `lists ${JSON.stringify(dup)} twice`,
        });
      if (options.some((o) => !o.trim()))
        issues.push({ path: ['fields', i, 'options'], message: 'must not contain blank options' });
      return { key: f.key, label, type, options: [...options] };
    }
    if (f.options !== undefined)
      issues.push({
        path: ['fields', i, 'options'],
        message: `is only allowed on select fields, not on ${type}`,
      });
    return { key: f.key, label, type };
  });
  failOnIssues(issues);
  return out;
}

function nameTaken(state: FamilyState, name: string, except?: string): Collection | undefined {
  const folded = name.toLowerCase();
  for (const c of state.table<Collection>(COLLECTIONS).values()) {
    if (c.key !== except && c.name.toLowerCase() === folded) return c;
  }
  return undefined;
}

/**
 * What happens when the name is another collection's: `refuse` (409, the REST API's rule) or
 * `number` — the name gets the first free " (n)", n ≥ 2 (a CalDAV client's label).
 */
export type OnNameTaken = 'refuse' | 'number';

/**
 * `name`, or when another collection (other than `except`) has it in any case, the name with the
 * first free " (2)", " (3)"…, shortened so it stays within NAME_MAX.
 */
export function distinctName(state: FamilyState, name: string, except?: string): string {
  if (!nameTaken(state, name, except)) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate =
      Array.from(name)
        .slice(0, NAME_MAX - suffix.length)
        .join('')
        .trimEnd() + suffix;
    if (!nameTaken(state, candidate, except)) return candidate;
  }
}

/** The name a write may take: as given, made distinct, or a 409 naming the collection that has it. */
function freeName(
  state: FamilyState,
  name: string,
  onTaken: OnNameTaken | undefined,
  except?: string,
): string {
  if (onTaken === 'number') return distinctName(state, name, except);
  const clash = nameTaken(state, name, except);
  if (clash)
    throw new Conflict(
      `A collection named ${JSON.stringify(clash.name)} already exists (key ${clash.key})`,
      [{ path: ['name'], message: 'is already taken' }],
    );
  return name;
}

/**
 * The fields of a to-do list a calendar app makes (CalDAV MKCALENDAR with VTODO): a due date and
 * notes, so a to-do's DUE and DESCRIPTION have fields to land in (docs/caldav.md, "To-dos").
 * `notes` is long text, as the built-in lists' notes are.
 */
export const LIST_FIELDS: readonly FieldDef[] = [
  { key: 'due', label: 'Due', type: 'date' },
  { key: 'notes', label: 'Notes', type: 'textarea' },
];

/** A create's fields (COLLECTION_FIELDS), with how to treat a taken name and a key of its own. */
export type CreateCollectionInput = Omit<CreateOf<typeof COLLECTION_FIELDS>, 'fields'> & {
  /** Default `refuse`. */
  onNameTaken?: OnNameTaken;
  /**
   * The key, when the caller names the address itself (a CalDAV client's MKCALENDAR); else it
   * is derived from the name. Letters, digits, `.`, `_` and `-`, at most 48; must be free.
   */
  key?: string;
  fields?: FieldInput[];
};

export function decideCreateCollection(
  state: FamilyState,
  input: CreateCollectionInput,
  ctx: CommandContext,
): Decision<Collection> {
  const { onNameTaken, key: askedKey, fields: sentFields, ...sent } = input;
  const at = ctx.now.toISOString();
  const made = createFields(COLLECTION_FIELDS, sent, { createdAt: at, updatedAt: at });
  const name = freeName(state, made.name, onNameTaken);
  const fields = normalizeFields(sentFields ?? []);
  if (askedKey !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(askedKey) || askedKey.length > KEY_MAX)
      throw Invalid.at(['key'], 'must be letters, digits, ".", "_" or "-", at most 48');
    if (getCollection(state, askedKey))
      throw new Conflict(`A collection with the key ${askedKey} already exists`, [
        { path: ['key'], message: 'is already taken' },
      ]);
  }
  const key = askedKey ?? deriveKey(name, (k) => getCollection(state, k) !== undefined);
  const c: Collection = { ...made, key, name, fields };
  return {
    result: c,
    changes: [{ table: COLLECTIONS, id: key, value: c }],
    events: [{ type: 'collection.created', object: collectionView(c) }],
  };
}

/** A PATCH's fields (COLLECTION_FIELDS), with how to treat a taken name. */
export type UpdateCollectionInput = Omit<PatchOf<typeof COLLECTION_FIELDS>, 'fields'> & {
  /** Default `refuse`. */
  onNameTaken?: OnNameTaken;
  fields?: FieldInput[];
};

/** Only the fields sent change; `fields` replaces the whole list; a no-op writes nothing. */
export function decideUpdateCollection(
  state: FamilyState,
  key: string,
  input: UpdateCollectionInput,
  ctx: CommandContext,
): Decision<Collection> {
  const before = requireCollection(state, key);
  const { onNameTaken, fields: sentFields, ...rest } = input;
  const sent = cleanSent<PatchOf<typeof COLLECTION_FIELDS>>(COLLECTION_FIELDS, rest);
  if (sent.name !== undefined) sent.name = freeName(state, sent.name, onNameTaken, key);
  if (sentFields !== undefined) sent.fields = normalizeFields(sentFields);
  const { next, changed } = applyPatch(COLLECTION_FIELDS, before, sent);
  if (!changed) return noChange(before);
  next.updatedAt = ctx.now.toISOString();
  return {
    result: next,
    changes: [{ table: COLLECTIONS, id: key, value: next }],
    events: [
      {
        type: 'collection.updated',
        object: collectionView(next),
        previous: collectionView(before),
      },
    ],
  };
}

export interface DeletedCollection {
  collection: Collection;
  deletedEntries: number;
}

export function decideDeleteCollection(
  state: FamilyState,
  key: string,
  ctx: CommandContext,
): Decision<DeletedCollection> {
  const c = requireCollection(state, key);
  if (c.builtin) throw new Conflict(`${c.name} is a built-in collection and cannot be deleted`);
  if (c.sourceId)
    throw new Conflict(
      `${c.name} belongs to an external calendar feed: remove the feed (DELETE /calendar/external/${c.sourceId}) instead`,
    );
  const entries: readonly Entry[] = entriesOf(state, key);
  const ids = new Set(entries.map((e) => e.id));
  const changes: RecordChange[] = [{ table: COLLECTIONS, id: key, value: null }];
  for (const id of ids) changes.push({ table: ENTRIES, id, value: null });
  const events: LogEvent[] = [
    { type: 'collection.deleted', object: { ...collectionView(c), deletedEntries: ids.size } },
  ];
  const agenda: AgendaChange[] = [];
  // Other areas' part: a deleted calendar's events leave every plan they were linked to.
  const more = ctx.react.collectionDeleted(state, c, ids, ctx);
  changes.push(...more.changes);
  events.push(...more.events);
  agenda.push(...(more.agenda ?? []));
  return { result: { collection: c, deletedEntries: ids.size }, changes, events, agenda };
}

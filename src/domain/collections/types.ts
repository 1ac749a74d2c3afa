/**
 * Records of the collections area. Table `collections` is keyed by the collection key, table
 * `entries` by entry id (`ent_…`); calendar events are entries of calendar collections, and the
 * calendar area adds its own fields to those records.
 */
import {
  createStruct,
  field,
  timestamp,
  type CreateOf,
  type RecordOf,
  type ViewOf,
} from '../shared/record.js';
import { S, toJsonSchema, type JsonSchema, type SomeStruct } from '../shared/schema.js';
export const COLLECTIONS = 'collections';
export const ENTRIES = 'entries';

export const FIELD_TYPES = ['date', 'number', 'person', 'select', 'text', 'textarea'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A collection's colour is one of these names (a hex colour would be a field of its own). */
export const NAMED_COLORS = ['sage', 'blue', 'clay', 'plum', 'gold'] as const;
export type NamedColor = (typeof NAMED_COLORS)[number];

export const ENTRY_STATUSES = ['active', 'done', 'archived'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** The longest name a collection may have, in characters (the REST schema's limit, for every door). */
export const NAME_MAX = 100;
export const FIELD_KEY_RE = /^[A-Za-z][A-Za-z0-9_]*$/;

const own = { create: 'never', patch: 'never', view: 'always' } as const;
const trim = (v: string): string => v.trim();
const namedColor = S.enums(NAMED_COLORS);
const calendar = S.literal('calendar');

/** A struct's schema with a description the answer gives it. */
export function described(struct: SomeStruct, description: string): JsonSchema {
  return { ...toJsonSchema(struct), description };
}

/**
 * Every field of a collection's field definition, once (src/domain/shared/record.ts). A
 * definition is stored in its collection's `fields` as it is shown (`type` always, `options`
 * only on a select field); `normalizeFields` (collections.ts) checks a list against each other.
 */
export const FIELD_DEF_FIELDS = {
  key: field(
    S.string({
      min: 1,
      max: 64,
      pattern: FIELD_KEY_RE,
      description: 'camelCase or snake_case key used in entry data; unique in the collection',
    }),
    { create: 'required', patch: 'never', view: 'always' },
  ),
  label: field(S.string({ min: 1, max: 100, description: 'Family-facing label' }), {
    create: 'required',
    patch: 'never',
    view: 'always',
  }),
  type: field(S.enums(FIELD_TYPES), {
    create: 'optional',
    patch: 'never',
    default: 'text',
    view: 'always',
  }),
  /** Only on select fields: the allowed values. */
  options: field(S.array(S.string({ min: 1, max: 100 }), { min: 1, max: 100 }), {
    create: 'optional',
    patch: 'never',
    nullable: 'stored',
    view: 'whenSet',
  }),
};

/** A field definition as stored and shown: `options` only on select fields. */
export type FieldDef = ViewOf<typeof FIELD_DEF_FIELDS>;
export type FieldInput = CreateOf<typeof FIELD_DEF_FIELDS>;

/** The struct of one field definition a request sends. */
export const FieldDefBody = createStruct(
  FIELD_DEF_FIELDS,
  'A field definition: `type` defaults to text; `options` is required for select and refused for other types',
);

/**
 * Every field of a collection, once (src/domain/shared/record.ts), in the order an empty PATCH
 * names them (the 400 the contract has always given). The
 * answer shows `fields` through their own table (`COLLECTION_DERIVED`, collections.ts).
 */
export const COLLECTION_FIELDS = {
  key: field(S.string(), {
    ...own,
    response: {
      type: 'string',
      description: 'Stable identifier, derived from the name at creation',
    },
  }),
  name: field(
    S.string({
      min: 1,
      max: NAME_MAX,
      description: 'Unique within the family, case-insensitively',
    }),
    {
      create: 'required',
      patch: 'value',
      view: 'always',
      clean: trim,
      check: (v) =>
        v === ''
          ? 'must not be blank'
          : Array.from(v).length <= NAME_MAX || `must be at most ${NAME_MAX} characters`,
    },
  ),
  color: field(namedColor, {
    create: 'optional',
    patch: 'value',
    nullable: 'stored',
    view: 'whenSet',
    response: described(namedColor, 'Present when set'),
  }),
  description: field(S.string({ max: 500 }), {
    create: 'optional',
    patch: 'value',
    nullable: true,
    view: 'always',
    clean: (v) => v.trim() || null,
  }),
  /** Replaced whole by a PATCH; checked as a list by `normalizeFields`. */
  fields: field(S.array(FieldDefBody as SomeStruct<FieldDef>, { max: 100 }), {
    create: 'optional',
    patch: 'value',
    default: [] as FieldDef[],
    view: 'never',
  }),
  category: field(calendar, {
    create: 'optional',
    patch: 'never',
    nullable: 'stored',
    view: 'whenSet',
    response: described(calendar, 'Present only on calendar collections'),
  }),
  /** The external feed (`src_…`) a read-only calendar collection mirrors; null otherwise. */
  sourceId: field(S.string({ description: 'Present only on the calendar of an external feed' }), {
    create: 'never',
    patch: 'never',
    nullable: true,
    view: 'whenSet',
  }),
  builtin: field(S.boolean(), {
    ...own,
    default: false,
    response: described(S.boolean(), 'Built-in collections cannot be deleted'),
  }),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
};

export type Collection = RecordOf<typeof COLLECTION_FIELDS>;

/**
 * Every field of an entry of its own, once (src/domain/shared/record.ts): `data` holds the values
 * of the fields its collection defines (checked against them, data.ts; a PATCH merges it key by
 * key) and the answer shows only those the collection still defines (`ENTRY_DERIVED`,
 * listing.ts). The calendar area adds its own fields to the entries that are events.
 */
export const ENTRY_FIELDS = {
  id: field(S.string(), own),
  collectionKey: field(S.string(), own),
  title: field(
    S.string({ min: 1, max: 500, description: 'Display label, stored separately from data' }),
    {
      create: 'required',
      patch: 'value',
      view: 'always',
      clean: trim,
      check: (v) => v !== '' || 'must not be blank',
    },
  ),
  data: field(S.record(S.any(), undefined), {
    create: 'optional',
    patch: 'value',
    default: {},
    view: 'never',
  }),
  status: field(S.enums(ENTRY_STATUSES), {
    create: 'never',
    patch: 'value',
    default: 'active',
    view: 'always',
  }),
  createdAt: field(timestamp, own),
  updatedAt: field(timestamp, own),
};

export type Entry = RecordOf<typeof ENTRY_FIELDS> & {
  /** Set on entries a CalDAV client wrote: its name for them and what it sent that no field holds. */
  dav?: DavMeta;
};

/**
 * What a CalDAV client gave an object that the household's own fields do not hold, kept so it
 * is served back as sent (docs/caldav.md). Never shown by the REST API.
 */
export interface DavMeta {
  /** The object's name in its collection, without `.ics`. */
  name: string;
  /** The client's UID. */
  uid: string;
  /** Unfolded content lines of properties and alarms the mapping does not read. */
  keep?: string[];
  /** The same, for single changed occurrences, by the occurrence's original start date. */
  keepByOccurrence?: Record<string, string[]>;
  /**
   * A to-do's DUE written with a time, and the date it was read as: served as written while the
   * entry's date field still holds that date (the field holds a date only).
   */
  due?: { line: string; date: string };
  /**
   * Whole components a to-do's object holds beside the to-do, as sent (unfolded lines of each):
   * its VTIMEZONEs and the changed occurrences (RECURRENCE-ID) of a repeating to-do, which no
   * entry holds.
   */
  components?: string[][];
}

/** Limits of text values in entry data. */
export const TEXT_MAX = 1_000;
export const TEXTAREA_MAX = 20_000;
export const KEY_MAX = 48;

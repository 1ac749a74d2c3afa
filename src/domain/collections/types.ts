/**
 * Records of the collections area. Table `collections` is keyed by the collection key, table
 * `entries` by entry id (`ent_…`); calendar events are entries of calendar collections, and the
 * calendar area adds its own fields to those records.
 */
export const COLLECTIONS = 'collections';
export const ENTRIES = 'entries';

export const FIELD_TYPES = ['date', 'number', 'person', 'select', 'text', 'textarea'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const COLORS = ['sage', 'blue', 'clay', 'plum', 'gold'] as const;
export type Color = (typeof COLORS)[number];

export const ENTRY_STATUSES = ['active', 'done', 'archived'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export interface FieldDef {
  key: string;
  label: string;
  type: FieldType;
  /** Only on select fields: the allowed values. */
  options?: string[];
}

export interface Collection {
  key: string;
  name: string;
  description: string | null;
  fields: FieldDef[];
  color: Color | null;
  category: 'calendar' | null;
  builtin: boolean;
  /** The external feed (`src_…`) a read-only calendar collection mirrors; null otherwise. */
  sourceId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Entry {
  id: string;
  collectionKey: string;
  title: string;
  status: EntryStatus;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** Set on entries a CalDAV client wrote: its name for them and what it sent that no field holds. */
  dav?: DavMeta;
}

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
export const FIELD_KEY_RE = /^[A-Za-z][A-Za-z0-9_]*$/;
export const KEY_MAX = 48;

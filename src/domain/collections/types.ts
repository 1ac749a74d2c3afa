/**
 * Records of the collections area. Table `collections` is keyed by the collection key, table
 * `entries` by entry id (`ent_…`); calendar events are entries of calendar collections, and the
 * calendar area adds its own fields to those records.
 */
export const COLLECTIONS = 'collections';
export const ENTRIES = 'entries';

export const FIELD_TYPES = ['date', 'number', 'person', 'select', 'text', 'textarea'] as const;
export type FieldType = typeof FIELD_TYPES[number];

export const COLORS = ['sage', 'blue', 'clay', 'plum', 'gold'] as const;
export type Color = typeof COLORS[number];

export const ENTRY_STATUSES = ['active', 'done', 'archived'] as const;
export type EntryStatus = typeof ENTRY_STATUSES[number];

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
}

/** Limits of text values in entry data. */
export const TEXT_MAX = 1_000;
export const TEXTAREA_MAX = 20_000;
export const FIELD_KEY_RE = /^[A-Za-z][A-Za-z0-9_]*$/;
export const KEY_MAX = 48;

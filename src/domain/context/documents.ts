/**
 * What context search indexes: one document per entry, calendar event, person
 * and collection of a family, each with a `title` (weighted above the rest) and a `text` made
 * of the values a household would search for. A record that must not appear — a deleted
 * person, an archived entry — has no document.
 */
import { visibleData } from '../collections/data.js';
import { COLLECTIONS, ENTRIES, type Collection, type Entry } from '../collections/types.js';
import type { EventRecord } from '../calendar/types.js';
import { EVENT_KEYS } from '../calendar/types.js';
import { PEOPLE, type Person } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import { collectText } from '../shared/text.js';

export type ResultType = 'entry' | 'event' | 'person' | 'collection';

export interface ContextDoc {
  /** Unique within the index: the record's table and id. */
  id: string;
  type: ResultType;
  /** The title as results show it. */
  title: string;
  /** What the title field indexes (a person's both names; otherwise the title). */
  names: string;
  /** Searchable values, joined by " · " (also the source of snippets). */
  text: string;
  /** Where snippets are cut from when not `text` (an event's place is in its summary already). */
  snippetText?: string;
  /** The record the document was made from (events need it for their next occurrence). */
  record: Entry | Person | Collection;
  collection?: Collection;
}

/** The index's id of a record. */
export function docId(table: string, id: string): string {
  return `${table}:${id}`;
}

/** Text fields of an event that are worth searching; timing, repeats and people ids are not. */
const EVENT_TEXT = ['where', 'note', 'description', 'assignee'] as const; // `where` first: see snippetText

const collect = (value: unknown, out: string[]): void => collectText(value, out, true);

/**
 * An entry's or event's document, or null when it should not be found: archived, or in a
 * collection that no longer exists. Values of `person` fields are ids, which no one types,
 * so they are left out.
 */
export function entryDoc(collection: Collection | undefined, e: Entry): ContextDoc | null {
  if (!collection || e.status === 'archived') return null;
  const parts: string[] = [];
  if (collection.category === 'calendar') {
    const d = (e as EventRecord).data;
    for (const k of EVENT_TEXT) collect(d[k], parts);
    for (const [k, v] of Object.entries(d)) if (!EVENT_KEYS.has(k)) collect(v, parts);
    const where = typeof d.where === 'string' && d.where.trim() ? 1 : 0;
    return {
      id: docId(ENTRIES, e.id),
      type: 'event',
      title: e.title,
      names: e.title,
      text: parts.join(' · '),
      snippetText: parts.slice(where).join(' · '),
      record: e,
      collection,
    };
  }
  const data = visibleData(collection, e.data);
  for (const f of collection.fields) if (f.type !== 'person') collect(data[f.key], parts);
  return {
    id: docId(ENTRIES, e.id),
    type: 'entry',
    title: e.title,
    names: e.title,
    text: parts.join(' · '),
    record: e,
    collection,
  };
}

/**
 * A person's document (shown by display name, found by either name), or null for a deleted person.
 */
export function personDoc(p: Person): ContextDoc | null {
  if (p.deletedAt !== null) return null;
  const names =
    p.familiarName && p.familiarName !== p.name ? `${p.familiarName} ${p.name}` : p.name;
  const parts = [p.kind, ...(p.email ? [p.email] : [])];
  return {
    id: docId(PEOPLE, p.id),
    type: 'person',
    title: p.familiarName ?? p.name,
    names,
    text: parts.join(' · '),
    record: p,
  };
}

/** A collection's document: its name, description and field labels. */
export function collectionDoc(c: Collection): ContextDoc {
  const parts = [...(c.description ? [c.description] : []), ...c.fields.map((f) => f.label)];
  return {
    id: docId(COLLECTIONS, c.key),
    type: 'collection',
    title: c.name,
    names: c.name,
    text: parts.join(' · '),
    record: c,
  };
}

/** Every document of the family (a full build). */
export function* allDocs(state: FamilyState): Generator<ContextDoc> {
  for (const c of state.table<Collection>(COLLECTIONS).values()) yield collectionDoc(c);
  for (const p of state.table<Person>(PEOPLE).values()) {
    const d = personDoc(p);
    if (d) yield d;
  }
  const collections = state.table<Collection>(COLLECTIONS);
  for (const e of state.table<Entry>(ENTRIES).values()) {
    const d = entryDoc(collections.get(e.collectionKey), e);
    if (d) yield d;
  }
}

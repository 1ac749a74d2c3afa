/**
 * What the CalDAV door serves of a family's state: its collections as calendars (VEVENT) or
 * to-do lists (VTODO), and each collection's objects by name with their rendered text and
 * strong ETag. Objects are rendered once per family write (the state's derived cache), so a
 * REPORT over a calendar of many series costs a lookup, and an ETag is the hash of exactly
 * the bytes served: it changes whenever anything the object shows changes (a person's email
 * in an ATTENDEE, the family's zone in its times, a feed refresh), not only its own record.
 */
import { createHash } from 'node:crypto';
import { isCalendar, listCollections, getCollection } from '../domain/collections/collections.js';
import { entriesOf } from '../domain/collections/listing.js';
import type { Collection, Entry } from '../domain/collections/types.js';
import type { EventRecord } from '../domain/calendar/types.js';
import type { FamilyState } from '../domain/shared/state.js';
import { listPeople } from '../domain/people/people.js';
import { objectUid, renderEvent } from './eventOut.js';
import { renderTodo } from './todo.js';
import { escapeXml } from './xml.js';

export interface DavCollection {
  collection: Collection;
  component: 'VEVENT' | 'VTODO';
  /** An external feed's calendar: served, never written. */
  feed: boolean;
}

export interface DavObject {
  /** The name without `.ics`. */
  name: string;
  uid: string;
  entry: Entry;
  ics: string;
  etag: string;
}

export function davCollection(c: Collection): DavCollection {
  return {
    collection: c,
    component: isCalendar(c) ? 'VEVENT' : 'VTODO',
    feed: c.sourceId !== null,
  };
}

export function davCollections(state: FamilyState): DavCollection[] {
  return listCollections(state).map(davCollection);
}

export function findCollection(state: FamilyState, key: string): DavCollection | undefined {
  const c = getCollection(state, key);
  return c ? davCollection(c) : undefined;
}

export interface ObjectIndex {
  byName: Map<string, DavObject>;
  byUid: Map<string, DavObject>;
  byId: Map<string, DavObject>;
}

function etagOf(ics: string): string {
  return `"${createHash('sha256').update(ics).digest('base64url').slice(0, 27)}"`;
}

/**
 * What an object's text depends on besides its own record: the family's zone, the year (the
 * VTIMEZONE's range), the people's names and emails (ATTENDEE lines) and, for to-dos, the
 * collection's fields. Recomputed once per write.
 */
function renderInputs(state: FamilyState, c: DavCollection, year: number): string {
  const people = state.derived('caldav:people', () =>
    createHash('sha256')
      .update(JSON.stringify(listPeople(state).map((p) => [p.id, p.email, p.name, p.familiarName])))
      .digest('base64url'),
  );
  return `${state.family.timezone}|${state.family.id}|${year}|${people}|${c.component === 'VTODO' ? JSON.stringify(c.collection.fields) : ''}`;
}

/** Rendered objects by their record (records are replaced, never changed, on every write). */
const rendered = new WeakMap<Entry, { inputs: string; ics: string; etag: string }>();

function render(
  state: FamilyState,
  c: DavCollection,
  e: Entry,
  inputs: string,
  now: Date,
): { ics: string; etag: string } {
  const hit = rendered.get(e);
  if (hit && hit.inputs === inputs) return hit;
  const ics =
    c.component === 'VEVENT'
      ? renderEvent(state, e as EventRecord, now)
      : renderTodo(state, c.collection, e);
  const fresh = { inputs, ics, etag: etagOf(ics) };
  rendered.set(e, fresh);
  return fresh;
}

/** Objects' text escaped for XML, by their record, with the text it was escaped from. */
const escaped = new WeakMap<Entry, { ics: string; xml: string }>();

/**
 * The object's text as calendar-data in an XML answer, escaped once per rendering: a query
 * answering thirty objects then copies their text instead of escaping it again.
 */
export function calendarDataXml(obj: DavObject): string {
  const hit = escaped.get(obj.entry);
  if (hit && hit.ics === obj.ics) return hit.xml;
  const xml = escapeXml(obj.ics);
  escaped.set(obj.entry, { ics: obj.ics, xml });
  return xml;
}

/**
 * The collection's objects by name, UID and id: rebuilt once per family write, rendering only
 * the records that changed since (or whose inputs did).
 */
export function objectsOf(state: FamilyState, c: DavCollection, now: Date): ObjectIndex {
  const year = now.getUTCFullYear();
  return state.derived(`caldav:objects:${c.collection.key}:${year}`, () => {
    const inputs = renderInputs(state, c, year);
    const index: ObjectIndex = { byName: new Map(), byUid: new Map(), byId: new Map() };
    for (const e of entriesOf(state, c.collection.key)) {
      // Archived to-dos are hidden; an archived event is served as CANCELLED.
      if (c.component === 'VTODO' && e.status === 'archived') continue;
      const { ics, etag } = render(state, c, e, inputs, now);
      // A name taken twice (an event moved here from another calendar) leaves the later one its id.
      const wanted = e.dav?.name ?? e.id;
      const name = index.byName.has(wanted) ? e.id : wanted;
      const uid = objectUid(state, e);
      const o: DavObject = { name, uid, entry: e, ics, etag };
      index.byName.set(name, o);
      if (!index.byUid.has(uid)) index.byUid.set(uid, o);
      index.byId.set(e.id, o);
    }
    return index;
  });
}

/** What a request path names: its collection (or 404) and an object's name from `<name>.ics`. */
import type { FamilyState } from '../domain/shared/state.js';
import { CalDavError } from './errors.js';
import { findCollection, objectsOf, type DavCollection } from './objects.js';
import { CALDAV } from './xml.js';

/** The collection the path names, or 404. */
export function collectionAt(state: FamilyState, key: string): DavCollection {
  const col = findCollection(state, key);
  if (!col) throw new CalDavError(404, `No collection ${key} in this family`);
  return col;
}

export function objectName(segment: string): string {
  if (!segment.endsWith('.ics') || segment.length <= 4)
    throw new CalDavError(404, `Objects are named <name>.ics, not ${segment.slice(0, 80)}`);
  const name = segment.slice(0, -4);
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (name.length > 200 || /[\u0000-\u001f/]/.test(name))
    throw new CalDavError(400, 'The object name is too long or holds control characters');
  return name;
}

export const MAKES_COLLECTION = new Set(['MKCALENDAR', 'MKCOL']);

/**
 * Whether the resource at these segments (after /dav/<slug>/) exists, for a request of this
 * method: a method on a missing collection or object is a 404 `DAV:error`, except the one
 * that makes it (MKCALENDAR or MKCOL for a collection, PUT for an object), which is told false.
 * Making something below a collection that does not exist is a 409 (RFC 4918 §9.7.1,
 * RFC 4791 §5.3.1); a collection inside a calendar is not made at all (RFC 4791 §5.3.1.1).
 */
export function resourceExists(
  state: FamilyState,
  segments: readonly string[],
  method: string,
  now: Date,
): boolean {
  const [key, segment] = segments;
  if (key === undefined) return true;
  const col = findCollection(state, key);
  const makes = segment === undefined ? MAKES_COLLECTION.has(method) : method === 'PUT';
  if (!col) {
    if (segment !== undefined && (method === 'PUT' || MAKES_COLLECTION.has(method)))
      throw new CalDavError(409, `No collection ${key} in this family to hold ${segment}`);
    if (makes) return false;
    throw new CalDavError(404, `No collection ${key} in this family`);
  }
  if (segment === undefined) return true;
  const inside = MAKES_COLLECTION.has(method);
  // A name that is no object's name is simply not there for a collection about to be made.
  const named = !inside || segment.endsWith('.ics');
  if (named && objectsOf(state, col, now).byName.has(objectName(segment))) return true;
  if (inside)
    throw new CalDavError(403, 'Calendars are made at /dav/<family>/<new-name>/, not inside one', {
      ns: CALDAV,
      local: 'calendar-collection-location-ok',
    });
  if (makes) return false;
  throw new CalDavError(404, `No object ${segment} in ${key}`);
}

/** What a request path names: its collection (or 404) and an object's name from `<name>.ics`. */
import type { FamilyState } from '../domain/shared/state.js';
import { CalDavError } from './errors.js';
import { findCollection, type DavCollection } from './objects.js';

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

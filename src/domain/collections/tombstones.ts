/**
 * Names of deleted CalDAV objects. A client that synchronizes by sync token must be told the
 * name it knows an object by when that object goes, and the change log only holds the API's
 * view (which has no CalDAV name); so the delete that removes an entry a client named writes
 * this small record in the same decision (docs/caldav.md, "Sync tokens").
 */
import type { RecordChange } from '../shared/state.js';
import type { Entry } from './types.js';

export const DAV_TOMBSTONES = 'dav_tombstones';

export interface DavTombstone {
  /** The deleted entry's id. */
  id: string;
  collectionKey: string;
  /** The CalDAV name the entry had, without `.ics`. */
  name: string;
  deletedAt: string;
}

/** A tombstone for each of `entries` that a CalDAV client named. */
export function tombstonesFor(entries: readonly Entry[], at: string): RecordChange[] {
  const out: RecordChange[] = [];
  for (const e of entries) {
    if (!e.dav || e.dav.name === e.id) continue;
    const t: DavTombstone = {
      id: e.id,
      collectionKey: e.collectionKey,
      name: e.dav.name,
      deletedAt: at,
    };
    out.push({ table: DAV_TOMBSTONES, id: e.id, value: t });
  }
  return out;
}

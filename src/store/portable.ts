/**
 * Export and import of one family as JSON: the family, its keys (hashes only, so integrations
 * keep working after a restore), every record in key order and the whole change log. Import
 * writes it all in one transaction and restores ids, order and sequence numbers exactly.
 */
import { Conflict, Invalid, NotFound } from '../domain/shared/errors.js';
import { SCHEMA_VERSION } from './layout.js';
import type { WholeFamilies, WholeFamily } from './ports.js';
import type { FamilyInfo } from './types.js';

export const EXPORT_FORMAT = 'household-organizer/family-export';

/**
 * One family with everything it owns (WholeFamily: records, log, keys, indexes, agenda,
 * checkpoints), as a file.
 */
export interface FamilyExport extends WholeFamily {
  format: typeof EXPORT_FORMAT;
  schemaVersion: number;
  exportedAt: string;
}

/** A consistent snapshot (read inside one transaction) of a family. */
export function exportFamily(
  store: Pick<WholeFamilies, 'snapshotFamily'>,
  slug: string,
  now: Date,
): FamilyExport {
  const snap = store.snapshotFamily(slug);
  if (!snap) throw new NotFound(`no family with slug "${slug}"`);
  return {
    format: EXPORT_FORMAT,
    schemaVersion: SCHEMA_VERSION,
    exportedAt: now.toISOString(),
    ...snap,
  };
}

/** Checks that `data` is a family export this program understands; the family in it. */
export function readExport(data: unknown): WholeFamily {
  const doc = data as Partial<FamilyExport>;
  if (!doc || doc.format !== EXPORT_FORMAT)
    throw new Invalid(`not a family export (format must be "${EXPORT_FORMAT}")`);
  if (typeof doc.schemaVersion !== 'number' || doc.schemaVersion > SCHEMA_VERSION) {
    throw new Invalid(
      `the export has schema version ${doc.schemaVersion}, newer than this program understands (${SCHEMA_VERSION})`,
    );
  }
  if (
    !doc.family ||
    !Array.isArray(doc.records) ||
    !Array.isArray(doc.log) ||
    !Array.isArray(doc.keys)
  ) {
    throw new Invalid('the export is incomplete: family, keys, records and log are required');
  }
  return {
    family: doc.family,
    keys: doc.keys,
    records: doc.records,
    log: doc.log,
    ...(doc.indexes ? { indexes: doc.indexes } : {}),
    ...(doc.agenda ? { agenda: doc.agenda } : {}),
    ...(doc.checkpoints ? { checkpoints: doc.checkpoints } : {}),
  };
}

/** Puts a whole family into the store; Conflict naming what clashes. */
export async function putWhole(
  store: Pick<WholeFamilies, 'putWholeFamily'>,
  doc: WholeFamily,
): Promise<FamilyInfo> {
  const family = doc.family;
  const outcome = await store.putWholeFamily(doc);
  if (outcome === 'slug') throw new Conflict(`a family with slug "${family.slug}" already exists`);
  if (outcome === 'id') throw new Conflict(`a family with id "${family.id}" already exists`);
  if (outcome === 'key')
    throw new Conflict(
      `one of the API keys or share links of "${family.slug}" already exists in this store`,
    );
  return family;
}

export async function importFamily(
  store: Pick<WholeFamilies, 'putWholeFamily'>,
  data: unknown,
): Promise<FamilyInfo> {
  return putWhole(store, readExport(data));
}

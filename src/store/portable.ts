/**
 * Export and import of one family as JSON: the family, its keys (hashes only, so integrations
 * keep working after a restore), every record in key order and the whole change log. Import
 * writes it all in one transaction and restores ids, order and sequence numbers exactly.
 */
import { Conflict, Invalid, NotFound } from '../domain/shared/errors.js';
import { keys, SCHEMA_VERSION } from './layout.js';
import type { Store } from './store.js';
import type { ApiKeyRecord, ChangeRecord, FamilyInfo } from './types.js';

export const EXPORT_FORMAT = 'household-organizer/family-export';

export interface FamilyExport {
  format: typeof EXPORT_FORMAT;
  schemaVersion: number;
  exportedAt: string;
  family: FamilyInfo;
  keys: ApiKeyRecord[];
  records: { table: string; id: string; value: unknown }[];
  log: ChangeRecord[];
  /** Store-wide index entries pointing at this family (share-token hashes). */
  indexes?: { index: string; key: string }[];
}

/** A consistent snapshot (read inside one transaction) of a family. */
export function exportFamily(store: Store, slug: string, now: Date): FamilyExport {
  return store.db.transactionSync(() => {
    const family = store.getFamilyBySlug(slug);
    if (!family) throw new NotFound(`no family with slug "${slug}"`);
    const records = Array.from(store.familyRecords(family.id));
    const log: ChangeRecord[] = [];
    for (const { value } of store.db.getRange({ start: keys.logRangeStart(family.id, 0), end: keys.logRangeEnd(family.id) })) {
      log.push(value as ChangeRecord);
    }
    const indexes: { index: string; key: string }[] = [];
    for (const { key, value } of store.db.getRange({ start: ['idx', ''], end: ['idx', '\uffff'] })) {
      if (value === family.id) indexes.push({ index: (key as string[])[1]!, key: (key as string[])[2]! });
    }
    return {
      format: EXPORT_FORMAT, schemaVersion: SCHEMA_VERSION, exportedAt: now.toISOString(),
      family, keys: store.listKeys(family.id), records, log, indexes,
    };
  });
}

export async function importFamily(store: Store, data: unknown): Promise<FamilyInfo> {
  const doc = data as Partial<FamilyExport>;
  if (!doc || doc.format !== EXPORT_FORMAT) throw new Invalid(`not a family export (format must be "${EXPORT_FORMAT}")`);
  if (typeof doc.schemaVersion !== 'number' || doc.schemaVersion > SCHEMA_VERSION) {
    throw new Invalid(`the export has schema version ${doc.schemaVersion}, newer than this program understands (${SCHEMA_VERSION})`);
  }
  if (!doc.family || !Array.isArray(doc.records) || !Array.isArray(doc.log) || !Array.isArray(doc.keys)) {
    throw new Invalid('the export is incomplete: family, keys, records and log are required');
  }
  const family = doc.family;
  const outcome = await store.db.transaction(() => {
    if (store.db.get(keys.slug(family.slug)) !== undefined) return 'slug';
    if (store.db.get(keys.family(family.id)) !== undefined) return 'id';
    for (const k of doc.keys!) if (store.db.get(keys.apiKey(k.id)) !== undefined) return 'key';
    for (const ix of doc.indexes ?? []) if (store.db.get(keys.index(ix.index, ix.key)) !== undefined) return 'key';
    store.db.put(keys.slug(family.slug), family.id);
    store.db.put(keys.family(family.id), family);
    for (const k of doc.keys!) store.db.put(keys.apiKey(k.id), k);
    store.db.put(keys.keysVersion(), store.keysVersion() + 1);
    for (const r of doc.records!) store.db.put(keys.record(family.id, r.table, r.id), r.value);
    for (const r of doc.log!) store.db.put(keys.log(family.id, r.seq), r);
    for (const ix of doc.indexes ?? []) store.db.put(keys.index(ix.index, ix.key), family.id);
    return 'ok';
  });
  if (outcome === 'slug') throw new Conflict(`a family with slug "${family.slug}" already exists`);
  if (outcome === 'id') throw new Conflict(`a family with id "${family.id}" already exists`);
  if (outcome === 'key') throw new Conflict('one of the exported API keys already exists in this store');
  await store.db.flushed;
  return family;
}

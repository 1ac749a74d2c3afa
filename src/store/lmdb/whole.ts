/** Whole families in LMDB (the `WholeFamilies` seam): export's snapshot, import's write. */
import { keys } from '../layout.js';
import type { WholeFamilies, WholeFamily } from '../ports.js';
import type { LmdbEnv } from './env.js';
import { writeAgendaChange, type LmdbAgenda } from './agenda.js';
import type { LmdbCommits } from './commits.js';
import type { LmdbDirectory } from './directory.js';

export class LmdbWholeFamilies implements WholeFamilies {
  constructor(
    private readonly env: LmdbEnv,
    private readonly parts: { directory: LmdbDirectory; log: LmdbCommits; agenda: LmdbAgenda },
  ) {}

  /** A consistent snapshot (read inside one transaction) of a family, or undefined. */
  snapshotFamily(slug: string): WholeFamily | undefined {
    const { db } = this.env;
    const { directory, log, agenda: jobs } = this.parts;
    return db.transactionSync(() => {
      const family = directory.getFamilyBySlug(slug);
      if (!family) return undefined;
      const records = Array.from(log.familyRecords(family.id));
      const changes = log.readLog(family.id, 0, Number.MAX_SAFE_INTEGER);
      const indexes: { index: string; key: string }[] = [];
      for (const { key, value } of db.getRange({
        start: keys.indexRangeStart(),
        end: keys.indexRangeEnd(),
      })) {
        if (value === family.id)
          indexes.push({ index: (key as string[])[1], key: (key as string[])[2] });
      }
      const agenda = jobs.familyJobs(family.id).map(({ familyId: _f, ...job }) => job);
      const checkpoints: { consumer: string; seq: number }[] = [];
      for (const { key, value } of db.getRange({ start: ['ckpt', ''], end: ['ckpt', '\uffff'] })) {
        const k = key as [string, string, string];
        if (k[2] === family.id) checkpoints.push({ consumer: k[1], seq: value as number });
      }
      const familyKeys = directory.listKeys(family.id);
      return { family, keys: familyKeys, records, log: changes, indexes, agenda, checkpoints };
    });
  }

  /**
   * Writes a whole family (an import) in one transaction, unless its slug, id, keys or index
   * entries already exist: then nothing is written and the clash is named.
   */
  async putWholeFamily(doc: WholeFamily): Promise<'ok' | 'slug' | 'id' | 'key'> {
    const { family } = doc;
    const { directory } = this.parts;
    return directory.writeKeys(() => {
      // Read inside the transaction: a write may wait for the environment to be reopened.
      const { db } = this.env;
      if (db.get(keys.slug(family.slug)) !== undefined) return 'slug';
      if (db.get(keys.family(family.id)) !== undefined) return 'id';
      for (const k of doc.keys) if (db.get(keys.apiKey(k.id)) !== undefined) return 'key';
      for (const ix of doc.indexes ?? [])
        if (db.get(keys.index(ix.index, ix.key)) !== undefined) return 'key';
      db.putSync(keys.slug(family.slug), family.id);
      db.putSync(keys.family(family.id), family);
      for (const k of doc.keys) db.putSync(keys.apiKey(k.id), k);
      directory.bumpKeysVersion();
      for (const r of doc.records) db.putSync(keys.record(family.id, r.table, r.id), r.value);
      for (const r of doc.log) db.putSync(keys.log(family.id, r.seq), r);
      for (const ix of doc.indexes ?? []) db.putSync(keys.index(ix.index, ix.key), family.id);
      for (const job of doc.agenda ?? []) writeAgendaChange(db, family.id, { put: job });
      for (const c of doc.checkpoints ?? [])
        db.putSync(keys.checkpoint(c.consumer, family.id), c.seq);
      return 'ok' as const;
    });
  }
}

/**
 * The LMDB store: families, API keys, every family's records and change log, idempotency
 * records. One environment file under `storage.dataDir`; several processes may open it at once
 * (the CLI while `serve` runs), LMDB serializes their write transactions.
 *
 * Durability: lmdb-js resolves a transaction's promise when it is committed and visible; with
 * overlapping sync the flush to disk may still be running. `commit` waits for `flushed` too, so
 * a resolved commit survives kill -9 and a power cut.
 */
import { mkdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { Conflict } from '../domain/shared/errors.js';
import type { IndexChange, RecordChange } from '../domain/shared/state.js';
import { keys, SCHEMA_VERSION } from './layout.js';
import { openPrivately } from './files.js';
import type { ApiKeyRecord, ChangeRecord, FamilyInfo, IdempotencyRecord } from './types.js';

export class StoreVersionError extends Error {}

export const STORE_FILE = 'household.mdb';

export class Store {
  private constructor(readonly db: RootDatabase, readonly path: string) {}

  /**
   * Opens (creating if needed, private to this user: files.ts) the store under `dataDir` and
   * checks its schema version. A folder or store that cannot be made or opened → StoreAccessError.
   */
  static open(dataDir: string): Store {
    const path = join(dataDir, STORE_FILE);
    const db = openPrivately(dataDir, () => open({ path, mapSize: 2 ** 34, maxReaders: 254 }));
    const store = new Store(db, path);
    const version = db.get(keys.schemaVersion()) as number | undefined;
    if (version === undefined) {
      db.putSync(keys.schemaVersion(), SCHEMA_VERSION);
    } else if (version > SCHEMA_VERSION) {
      db.close();
      throw new StoreVersionError(
        `the store at ${path} has schema version ${version}, newer than this program understands (${SCHEMA_VERSION}); upgrade Household Organizer or restore a matching backup`);
    }
    return store;
  }

  /**
   * Whether `dataDir` holds a store (commands that must not create one check this first). Only
   * a missing file or folder is "no store"; a folder this user may not read counts as one, so
   * opening it then reports the real cause.
   */
  static exists(dataDir: string): boolean {
    try {
      statSync(join(dataDir, STORE_FILE));
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code !== 'ENOENT' && code !== 'ENOTDIR';
    }
  }

  // ---- families -------------------------------------------------------------------------

  getFamily(familyId: string): FamilyInfo | undefined {
    return this.db.get(keys.family(familyId)) as FamilyInfo | undefined;
  }

  getFamilyBySlug(slug: string): FamilyInfo | undefined {
    const id = this.db.get(keys.slug(slug)) as string | undefined;
    return id === undefined ? undefined : this.getFamily(id);
  }

  listFamilies(): FamilyInfo[] {
    const out: FamilyInfo[] = [];
    for (const { value } of this.db.getRange({ start: keys.familyRangeStart(), end: keys.familyRangeEnd() })) {
      out.push(value as FamilyInfo);
    }
    return out;
  }

  /**
   * Creates a family with its first records (built-in collections) and an optional first key,
   * all in one transaction; a taken slug → Conflict (checked inside the write transaction, so
   * two processes cannot both take it).
   */
  async createFamily(family: FamilyInfo, seed: RecordChange[], firstKey?: ApiKeyRecord): Promise<void> {
    const ok = await this.db.transaction(() => {
      if (this.db.get(keys.slug(family.slug)) !== undefined) return false;
      this.db.put(keys.slug(family.slug), family.id);
      this.db.put(keys.family(family.id), family);
      for (const c of seed) this.db.put(keys.record(family.id, c.table, c.id), c.value);
      if (firstKey) {
        this.db.put(keys.apiKey(firstKey.id), firstKey);
        this.db.put(keys.keysVersion(), this.keysVersion() + 1);
      }
      return true;
    });
    if (!ok) throw new Conflict(`a family with slug "${family.slug}" already exists`);
    await this.db.flushed;
  }

  // ---- API keys -------------------------------------------------------------------------

  getKey(keyId: string): ApiKeyRecord | undefined {
    return this.db.get(keys.apiKey(keyId)) as ApiKeyRecord | undefined;
  }

  listKeys(familyId?: string): ApiKeyRecord[] {
    const out: ApiKeyRecord[] = [];
    for (const { value } of this.db.getRange({ start: keys.apiKeyRangeStart(), end: keys.apiKeyRangeEnd() })) {
      const k = value as ApiKeyRecord;
      if (familyId === undefined || k.familyId === familyId) out.push(k);
    }
    return out;
  }

  async putKey(key: ApiKeyRecord): Promise<void> {
    await this.db.transaction(() => {
      this.db.put(keys.apiKey(key.id), key);
      this.db.put(keys.keysVersion(), this.keysVersion() + 1);
    });
    await this.db.flushed;
  }

  /**
   * A number that changes whenever a key is created or revoked (by this process or the CLI):
   * a cache of verified keys is valid while it stays the same.
   */
  keysVersion(): number {
    return (this.db.get(keys.keysVersion()) as number | undefined) ?? 0;
  }

  /** Records a key's use without waiting for the disk: losing it in a crash is harmless. */
  touchKey(keyId: string, at: string): void {
    void this.db.transaction(() => {
      const k = this.db.get(keys.apiKey(keyId)) as ApiKeyRecord | undefined;
      if (k) this.db.put(keys.apiKey(keyId), { ...k, lastUsedAt: at });
    });
  }

  // ---- records and change log -------------------------------------------------------------

  /** Every record of a family, in key (table, id) order. */
  *familyRecords(familyId: string): Generator<{ table: string; id: string; value: unknown }> {
    for (const { key, value } of this.db.getRange({ start: keys.recordRangeStart(familyId), end: keys.recordRangeEnd(familyId) })) {
      const k = key as [string, string, string, string];
      yield { table: k[2], id: k[3], value };
    }
  }

  lastSeq(familyId: string): number {
    for (const { key } of this.db.getRange({ start: keys.logRangeEnd(familyId), end: keys.logRangeStart(familyId, -1), reverse: true, limit: 1 })) {
      return (key as [string, string, number])[2];
    }
    return 0;
  }

  /**
   * Commits a decision's record changes and change-log records in one transaction and resolves
   * once it is durable. `guard` runs inside the transaction; returning false aborts it (the
   * actor uses it to refuse writes after an earlier commit of the same family failed).
   */
  async commit(familyId: string, changes: readonly RecordChange[], log: readonly ChangeRecord[], guard?: () => boolean, indexes: readonly IndexChange[] = []): Promise<void> {
    const done = await this.db.transaction(() => {
      if (guard && !guard()) return false;
      for (const ix of indexes) {
        const key = keys.index(ix.index, ix.key);
        if (ix.familyId === null) this.db.remove(key);
        else this.db.put(key, ix.familyId);
      }
      for (const c of changes) {
        const key = keys.record(familyId, c.table, c.id);
        if (c.value === null || c.value === undefined) this.db.remove(key);
        else this.db.put(key, c.value);
      }
      for (const r of log) this.db.put(keys.log(familyId, r.seq), r);
      return true;
    });
    if (done === false) throw new Error('commit refused: an earlier commit of this family failed');
    await this.db.flushed;
  }

  /** The family a store-wide index entry points at (e.g. a share token's hash). */
  lookupIndex(index: IndexChange['index'], key: string): string | undefined {
    return this.db.get(keys.index(index, key)) as string | undefined;
  }

  /** Change-log records with seq > after, in order, at most `limit`. */
  readLog(familyId: string, after: number, limit: number): ChangeRecord[] {
    const out: ChangeRecord[] = [];
    for (const { value } of this.db.getRange({ start: keys.logRangeStart(familyId, after), end: keys.logRangeEnd(familyId), limit })) {
      out.push(value as ChangeRecord);
    }
    return out;
  }

  // ---- idempotency ----------------------------------------------------------------------

  getIdempotency(keyId: string, idemKey: string, nowMs: number): IdempotencyRecord | undefined {
    const r = this.db.get(keys.idempotency(keyId, idemKey)) as IdempotencyRecord | undefined;
    return r && r.expiresAt > nowMs ? r : undefined;
  }

  async putIdempotency(keyId: string, idemKey: string, record: IdempotencyRecord): Promise<void> {
    await this.db.put(keys.idempotency(keyId, idemKey), record);
    await this.db.flushed;
  }

  /** Removes up to `batch` expired idempotency records; returns how many it removed. */
  async sweepIdempotency(nowMs: number, batch = 500): Promise<number> {
    const expired: unknown[] = [];
    for (const { key, value } of this.db.getRange({ start: keys.idempotencyRangeStart(), end: keys.idempotencyRangeEnd() })) {
      if ((value as IdempotencyRecord).expiresAt <= nowMs) expired.push(key);
      if (expired.length >= batch) break;
    }
    if (expired.length) await this.db.transaction(() => { for (const k of expired) this.db.remove(k as string[]); });
    return expired.length;
  }

  // ---- whole-store operations ------------------------------------------------------------

  /** A consistent copy of the environment (safe while other processes write). */
  async backup(targetDir: string): Promise<string> {
    mkdirSync(targetDir, { recursive: true });
    const target = join(targetDir, STORE_FILE);
    if (existsSync(target)) throw new Conflict(`${target} already exists`);
    await this.db.backup(target, true);
    return target;
  }

  async close(): Promise<void> {
    await this.db.flushed;
    await this.db.close();
  }
}

/** Families, API keys and the store-wide token index in LMDB (the `Directory` seam). */
import { Conflict } from '../../domain/shared/errors.js';
import type { IndexChange, RecordChange } from '../../domain/shared/state.js';
import { keys } from '../layout.js';
import type { Directory, KeysTransaction } from '../ports.js';
import { mergeQueuedUpdate } from '../types.js';
import type { ApiKeyRecord, FamilyInfo, FamilyPatch, QueuedFamilyUpdate } from '../types.js';
import type { LmdbEnv } from './env.js';

/** How long a read of the keys version is trusted (see keysVersion). */
const KEYS_VERSION_MS = 100;

export class LmdbDirectory implements Directory {
  private keysVersionCache: { value: number; at: number } | null = null;
  /** Last uses noted by touchKey whose background write has not run yet. */
  private readonly touched = new Map<string, string>();

  constructor(private readonly env: LmdbEnv) {}

  private get db() {
    return this.env.db;
  }

  getFamily(familyId: string): FamilyInfo | undefined {
    return this.db.get(keys.family(familyId)) as FamilyInfo | undefined;
  }

  getFamilyBySlug(slug: string): FamilyInfo | undefined {
    const id = this.db.get(keys.slug(slug)) as string | undefined;
    return id === undefined ? undefined : this.getFamily(id);
  }

  listFamilies(): FamilyInfo[] {
    const out: FamilyInfo[] = [];
    const range = { start: keys.familyRangeStart(), end: keys.familyRangeEnd() };
    for (const { value } of this.db.getRange(range)) out.push(value as FamilyInfo);
    return out;
  }

  /**
   * Creates a family with its first records (built-in collections) and an optional first key,
   * all in one transaction; a taken slug → Conflict (checked inside the write transaction, so
   * two processes cannot both take it).
   */
  async createFamily(
    family: FamilyInfo,
    seed: RecordChange[],
    firstKey?: ApiKeyRecord,
  ): Promise<void> {
    const ok = await this.writeKeys(() => {
      if (this.db.get(keys.slug(family.slug)) !== undefined) return false;
      this.db.putSync(keys.slug(family.slug), family.id);
      this.db.putSync(keys.family(family.id), family);
      for (const c of seed) this.db.putSync(keys.record(family.id, c.table, c.id), c.value);
      if (firstKey) {
        this.db.putSync(keys.apiKey(firstKey.id), firstKey);
        this.bumpKeysVersion();
      }
      return true;
    });
    if (!ok) throw new Conflict(`a family with slug "${family.slug}" already exists`);
  }

  /** See Directory.queueFamilyUpdate. */
  async queueFamilyUpdate(
    familyId: string,
    patch: FamilyPatch,
    id: string,
    at: string,
  ): Promise<QueuedFamilyUpdate | undefined> {
    return this.env.write(() => {
      if (this.db.get(keys.family(familyId)) === undefined) return undefined;
      const before = this.db.get(keys.familyUpdate(familyId)) as QueuedFamilyUpdate | undefined;
      const queued = mergeQueuedUpdate(before, familyId, patch, id, at);
      this.db.putSync(keys.familyUpdate(familyId), queued);
      const version = (this.db.get(keys.familyUpdatesVersion()) as number | undefined) ?? 0;
      this.db.putSync(keys.familyUpdatesVersion(), version + 1);
      return queued;
    });
  }

  queuedFamilyUpdate(familyId: string): QueuedFamilyUpdate | undefined {
    return this.db.get(keys.familyUpdate(familyId)) as QueuedFamilyUpdate | undefined;
  }

  queuedFamilyUpdates(): QueuedFamilyUpdate[] {
    const out: QueuedFamilyUpdate[] = [];
    const range = { start: keys.familyUpdateRangeStart(), end: keys.familyUpdateRangeEnd() };
    for (const { value } of this.db.getRange(range)) out.push(value as QueuedFamilyUpdate);
    return out;
  }

  /** One read, no cache: the daemon asks every 100 ms. */
  familyUpdatesVersion(): number {
    return (this.db.get(keys.familyUpdatesVersion()) as number | undefined) ?? 0;
  }

  getKey(keyId: string): ApiKeyRecord | undefined {
    return this.withTouch(this.db.get(keys.apiKey(keyId)) as ApiKeyRecord | undefined);
  }

  /** A key with its last use as noted by this process, while that write is still on its way. */
  private withTouch(k: ApiKeyRecord | undefined): ApiKeyRecord | undefined {
    const at = k ? this.touched.get(k.id) : undefined;
    if (!k || !at) return k;
    if (!k.lastUsedAt || k.lastUsedAt < at) return { ...k, lastUsedAt: at };
    this.touched.delete(k.id); // written: the store says as much now
    return k;
  }

  listKeys(familyId?: string): ApiKeyRecord[] {
    const out: ApiKeyRecord[] = [];
    const range = { start: keys.apiKeyRangeStart(), end: keys.apiKeyRangeEnd() };
    for (const { value } of this.db.getRange(range)) {
      const k = value as ApiKeyRecord;
      if (familyId === undefined || k.familyId === familyId) out.push(this.withTouch(k)!);
    }
    return out;
  }

  async putKey(key: ApiKeyRecord): Promise<void> {
    await this.writeKeys(() => {
      this.db.putSync(keys.apiKey(key.id), key);
      this.bumpKeysVersion();
    });
  }

  /** See Directory.transactKeys. */
  async transactKeys<R>(fn: KeysTransaction<R>): Promise<R> {
    return this.writeKeys(() => {
      const { writes, result } = fn(
        (id) => this.db.get(keys.apiKey(id)) as ApiKeyRecord | undefined,
      );
      for (const k of writes) this.db.putSync(keys.apiKey(k.id), k);
      if (writes.length) this.bumpKeysVersion();
      return result;
    });
  }

  /**
   * A number that changes whenever a key is created or revoked (by this process or the CLI):
   * a cache of verified keys is valid while it stays the same.
   */
  keysVersion(): number {
    // Read from the store at most every KEYS_VERSION_MS: a busy daemon asks on every request,
    // and each read after a commit renews LMDB's read transaction. This process's own key
    // writes reset it at once (below); another process's (the CLI's) show within that time.
    const at = performance.now();
    const cached = this.keysVersionCache;
    if (cached && at - cached.at < KEYS_VERSION_MS) return cached.value;
    const value = (this.db.get(keys.keysVersion()) as number | undefined) ?? 0;
    this.keysVersionCache = { value, at };
    return value;
  }

  /** Bumps the keys version inside a write transaction (a key was made, revoked or imported). */
  bumpKeysVersion(): void {
    const next = ((this.db.get(keys.keysVersion()) as number | undefined) ?? 0) + 1;
    this.db.putSync(keys.keysVersion(), next);
    this.keysVersionCache = null;
  }

  /** `write` for changes to keys: the cached keys version is forgotten once they are durable. */
  async writeKeys<T>(fn: () => T): Promise<T> {
    try {
      return await this.env.write(fn);
    } finally {
      this.keysVersionCache = null;
    }
  }

  /**
   * Records a key's use without waiting for the disk: losing it (a crash, a full disk) is harmless.
   */
  touchKey(keyId: string, at: string): void {
    // Seen at once by this process's reads (a listing right after the use shows it), written
    // in the background; forgotten once a read finds it written.
    this.touched.set(keyId, at);
    this.env.background(() => {
      const k = this.db.get(keys.apiKey(keyId)) as ApiKeyRecord | undefined;
      if (k) this.db.putSync(keys.apiKey(keyId), { ...k, lastUsedAt: at });
    });
  }

  lookupIndex(index: IndexChange['index'], key: string): string | undefined {
    return this.db.get(keys.index(index, key)) as string | undefined;
  }
}

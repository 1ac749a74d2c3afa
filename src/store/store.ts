/**
 * The LMDB store: families, API keys, every family's records and change log, store-wide
 * indexes, idempotency answers, the durable agenda and the checkpoints of change-log consumers.
 * One environment file under `storage.dataDir`; several processes may open it at once (the CLI
 * while `serve` runs), LMDB serializes their write transactions.
 *
 * The LMDB handle is private: everything else goes through the named methods below, so the key
 * layout (layout.ts, docs/storage.md) is known in one place.
 *
 * Durability: lmdb-js resolves a transaction's promise when it is committed and visible; with
 * overlapping sync the flush to disk may still be running. Every write here also waits for
 * `flushed`, so a resolved write survives kill -9 and a power cut.
 */
import { mkdirSync, existsSync, statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { Conflict } from '../domain/shared/errors.js';
import type { AgendaChange, AgendaJob, IndexChange, RecordChange } from '../domain/shared/state.js';
import { keys, SCHEMA_VERSION } from './layout.js';
import { openPrivately } from './files.js';
import { guardCommitFailures } from './commitFailures.js';
import { sealOlderIdempotencyRecords } from './sealIdempotency.js';
import type {
  ApiKeyRecord, ChangeRecord, FamilyInfo, IdempotencyRecord, IdempotencyWrite, StoredAgendaJob,
} from './types.js';

export class StoreVersionError extends Error {}

/**
 * A write the store could not make. `full`: the disk (or the LMDB map) has no room — the
 * daemon answers 507 and keeps serving reads; `failed`: any other I/O failure — 503.
 */
export class StoreWriteError extends Error {
  constructor(readonly kind: 'full' | 'failed', message: string, override readonly cause?: unknown) {
    super(message);
  }
}

export const STORE_FILE = 'household.mdb';

/** Everything one decision writes, committed in one transaction. */
export interface CommitBatch {
  records?: readonly RecordChange[];
  log?: readonly ChangeRecord[];
  indexes?: readonly IndexChange[];
  agenda?: readonly AgendaChange[];
  /** How far change-log consumers (by name) have read this family's log. */
  checkpoints?: readonly { consumer: string; seq: number }[];
  idempotency?: readonly IdempotencyWrite[];
}

/** One family with everything it owns: what export writes and import restores. */
export interface WholeFamily {
  family: FamilyInfo;
  keys: ApiKeyRecord[];
  records: { table: string; id: string; value: unknown }[];
  log: ChangeRecord[];
  indexes?: { index: string; key: string }[];
  /** Its scheduled jobs (reminders, retries…), so a restored family keeps its timetable. */
  agenda?: AgendaJob[];
  /** How far the change-log consumers (webhook outbox…) had read, so nothing is sent twice. */
  checkpoints?: { consumer: string; seq: number }[];
}

export interface StoreOptions {
  /** Initial size of the memory map; lmdb-js grows it when it fills. */
  mapSizeBytes?: number;
}

/** Called when writes start failing and when they work again (the daemon logs each once). */
export type WriteHealthListener = (state: 'failing' | 'recovered', error?: StoreWriteError) => void;

/**
 * Observes each group commit once it is durable: milliseconds from the start of its
 * transaction, of which waiting for the flush to disk, and the family batches it carried.
 */
export type CommitListener = (durationMs: number, flushMs: number, batches: number) => void;

/** Less free space than this after a failed commit means the disk is full (ENOSPC may surface as EIO). */
const FULL_BELOW_BYTES = 8 * 1024 * 1024;
/** How long a read of the keys version is trusted (see keysVersion). */
const KEYS_VERSION_MS = 100;

interface PendingCommit {
  familyId: string;
  batch: CommitBatch;
  guard: (() => boolean) | undefined;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class Store {
  private failing: StoreWriteError | null = null;
  private pendingCommits: PendingCommit[] = [];
  private keysVersionCache: { value: number; at: number } | null = null;
  private healthListener: WriteHealthListener | null = null;
  private reopenListener: ((failed?: unknown) => void) | null = null;
  private readonly commitListeners: CommitListener[] = [];
  /** LMDB transactions of this process not yet settled: the environment is reopened only at 0. */
  private inFlight = 0;
  /** A commit failed: reopen the environment before the next write (see reopen). */
  private reopenWanted = false;
  private reopening: Promise<void> | null = null;
  /** Waiting for no transaction in flight and no reopen owed (see whenIdle). */
  private idleWaiters: (() => void)[] = [];

  private constructor(
    private db: RootDatabase, private readonly openEnv: () => RootDatabase,
    readonly path: string, readonly dataDir: string,
  ) {}

  /**
   * Opens (creating if needed, private to this user: files.ts) the store under `dataDir` and
   * checks its schema version. A folder or store that cannot be made or opened → StoreAccessError.
   */
  static open(dataDir: string, opts: StoreOptions = {}): Store {
    guardCommitFailures();
    const path = join(dataDir, STORE_FILE);
    // overlappingSync off: LMDB flushes inside the commit, so a failed commit leaves no flush
    // promise pending forever, and closing the environment to reopen it after a failure
    // settles at once (with it on, close() waited for that flush and never returned).
    const openEnv = () => openPrivately(dataDir, () => open({
      path, mapSize: opts.mapSizeBytes ?? 2 ** 34, maxReaders: 254, overlappingSync: false,
    }));
    const db = openEnv();
    const store = new Store(db, openEnv, path, dataDir);
    const version = db.get(keys.schemaVersion()) as number | undefined;
    if (version === undefined) {
      db.putSync(keys.schemaVersion(), SCHEMA_VERSION);
    } else if (version > SCHEMA_VERSION) {
      db.close();
      throw new StoreVersionError(
        `the store at ${path} has schema version ${version}, newer than this program understands (${SCHEMA_VERSION}); upgrade Household Organizer or restore a matching backup`);
    }
    store.indexOlderIdempotencyRecords();
    sealOlderIdempotencyRecords(db);
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

  /** Whether writes are failing right now (a full disk), for /healthz and the log. */
  get writeFailure(): StoreWriteError | null { return this.failing; }

  onWriteHealth(listener: WriteHealthListener): void {
    this.healthListener = listener;
  }

  /** Observes each reopening of the environment after a failed commit (the daemon logs it). */
  onReopen(listener: (failed?: unknown) => void): void {
    this.reopenListener = listener;
  }

  /** Adds an observer of group commits (metrics). */
  onCommit(listener: CommitListener): void {
    this.commitListeners.push(listener);
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
    const ok = await this.writeKeys(() => {
      if (this.db.get(keys.slug(family.slug)) !== undefined) return false;
      this.db.put(keys.slug(family.slug), family.id);
      this.db.put(keys.family(family.id), family);
      for (const c of seed) this.db.put(keys.record(family.id, c.table, c.id), c.value);
      if (firstKey) {
        this.db.put(keys.apiKey(firstKey.id), firstKey);
        this.bumpKeysVersion();
      }
      return true;
    });
    if (!ok) throw new Conflict(`a family with slug "${family.slug}" already exists`);
  }

  /**
   * Changes a family's name, time zone or location (`family update`), in one transaction;
   * undefined fields stay, a null location removes it. Unknown family → undefined.
   */
  async updateFamily(familyId: string, patch: { name?: string; timezone?: string; location?: string | null }): Promise<FamilyInfo | undefined> {
    return this.write(() => {
      const before = this.db.get(keys.family(familyId)) as FamilyInfo | undefined;
      if (!before) return undefined;
      const next: FamilyInfo = { ...before };
      if (patch.name !== undefined) next.name = patch.name;
      if (patch.timezone !== undefined) next.timezone = patch.timezone;
      if (patch.location === null) delete next.location;
      else if (patch.location !== undefined) next.location = patch.location;
      this.db.put(keys.family(familyId), next);
      return next;
    });
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
    await this.writeKeys(() => {
      this.db.put(keys.apiKey(key.id), key);
      this.bumpKeysVersion();
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
    if (this.keysVersionCache && at - this.keysVersionCache.at < KEYS_VERSION_MS) return this.keysVersionCache.value;
    const value = (this.db.get(keys.keysVersion()) as number | undefined) ?? 0;
    this.keysVersionCache = { value, at };
    return value;
  }

  /** Bumps the keys version inside a write transaction (a key was made, revoked or imported). */
  private bumpKeysVersion(): void {
    const next = ((this.db.get(keys.keysVersion()) as number | undefined) ?? 0) + 1;
    this.db.put(keys.keysVersion(), next);
    this.keysVersionCache = null;
  }

  /** `write` for changes to keys: the cached keys version is forgotten once they are durable too. */
  private async writeKeys<T>(fn: () => T): Promise<T> {
    try {
      return await this.write(fn);
    } finally {
      this.keysVersionCache = null;
    }
  }

  /** Records a key's use without waiting for the disk: losing it (a crash, a full disk) is harmless. */
  touchKey(keyId: string, at: string): void {
    if (this.reopening || this.reopenWanted) return;
    this.inFlight++;
    this.db.transaction(() => {
      const k = this.db.get(keys.apiKey(keyId)) as ApiKeyRecord | undefined;
      if (k) this.db.put(keys.apiKey(keyId), { ...k, lastUsedAt: at });
    }).catch((err: unknown) => { swallowCommitError(err); }).finally(() => {
      this.inFlight--;
      this.checkIdle();
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

  getRecord<T>(familyId: string, table: string, id: string): T | undefined {
    return this.db.get(keys.record(familyId, table, id)) as T | undefined;
  }

  lastSeq(familyId: string): number {
    for (const { key } of this.db.getRange({ start: keys.logRangeEnd(familyId), end: keys.logRangeStart(familyId, -1), reverse: true, limit: 1 })) {
      return (key as [string, string, number])[2];
    }
    return 0;
  }

  /**
   * Commits everything a decision (or a batch of decisions of one family) writes in one
   * transaction and resolves once it is durable. `guard` runs inside the transaction;
   * returning false aborts it. A write the disk refuses → StoreWriteError (nothing written).
   */
  commit(familyId: string, batch: CommitBatch, guard?: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pendingCommits.push({ familyId, batch, guard, resolve, reject });
      // setImmediate: after every request read in this poll phase has decided its batch.
      if (this.pendingCommits.length === 1) setImmediate(() => this.flushCommits());
    });
  }

  /**
   * Writes every commit asked for in this turn of the event loop — typically one batch from
   * each of several busy families — in one transaction and one flush. One transaction per
   * family batch cost ~40 µs of CPU per write when writes were spread over many families.
   * A batch whose guard refuses is left out alone; a commit that fails fails them all (the disk
   * refused the one transaction they shared).
   */
  private flushCommits(): void {
    const commits = this.pendingCommits;
    this.pendingCommits = [];
    const refused = new Set<PendingCommit>();
    const timing = { startedAt: performance.now(), flushAt: 0 };
    this.write(() => {
      for (const c of commits) {
        if (c.guard && !c.guard()) { refused.add(c); continue; }
        this.writeBatch(c.familyId, c.batch);
      }
    }, timing).then(
      () => {
        const end = performance.now();
        for (const c of commits) {
          if (refused.has(c)) c.reject(new StoreWriteError('failed', 'commit refused by its guard'));
          else c.resolve();
        }
        // An observer's failure must never touch the commits it observes.
        for (const l of this.commitListeners) {
          try { l(end - timing.startedAt, end - timing.flushAt, commits.length - refused.size); } catch { /* ignored */ }
        }
      },
      (err: unknown) => { for (const c of commits) c.reject(err); },
    );
  }

  private writeBatch(familyId: string, batch: CommitBatch): void {
    {
      for (const ix of batch.indexes ?? []) {
        const key = keys.index(ix.index, ix.key);
        if (ix.familyId === null) this.db.remove(key);
        else this.db.put(key, ix.familyId);
      }
      for (const c of batch.records ?? []) {
        const key = keys.record(familyId, c.table, c.id);
        if (c.value === null || c.value === undefined) this.db.remove(key);
        else this.db.put(key, c.value);
      }
      for (const r of batch.log ?? []) this.db.put(keys.log(familyId, r.seq), r);
      for (const a of batch.agenda ?? []) this.writeAgenda(familyId, a);
      for (const c of batch.checkpoints ?? []) this.db.put(keys.checkpoint(c.consumer, familyId), c.seq);
      for (const i of batch.idempotency ?? []) {
        this.db.put(keys.idempotency(i.keyId, i.idemKey), i.record);
        this.db.put(keys.idempotencyExpiry(i.record.expiresAt, i.keyId, i.idemKey), 1);
      }
    }
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

  getCheckpoint(consumer: string, familyId: string): number {
    return (this.db.get(keys.checkpoint(consumer, familyId)) as number | undefined) ?? 0;
  }

  // ---- the agenda ------------------------------------------------------------------------

  private writeAgenda(familyId: string, change: AgendaChange): void {
    const id = 'put' in change ? change.put.id : change.remove;
    const where = keys.agendaJob(familyId, id);
    const old = this.db.get(where) as number | undefined;
    if (old !== undefined) this.db.remove(keys.agenda(old, familyId, id));
    if ('put' in change) {
      const job: StoredAgendaJob = { ...change.put, familyId };
      this.db.put(keys.agenda(job.dueAt, familyId, id), job);
      this.db.put(where, job.dueAt);
    } else if (old !== undefined) {
      this.db.remove(where);
    }
  }

  /** Jobs due at or before `uptoMs`, earliest first, at most `limit`. */
  dueJobs(uptoMs: number, limit: number): StoredAgendaJob[] {
    const out: StoredAgendaJob[] = [];
    for (const { value } of this.db.getRange({ start: keys.agendaRangeStart(), end: keys.agendaRangeEnd(uptoMs), limit })) {
      out.push(value as StoredAgendaJob);
    }
    return out;
  }

  /** The due time of the earliest job on the agenda, or null when it is empty. */
  earliestDue(): number | null {
    for (const { value } of this.db.getRange({ start: keys.agendaRangeStart(), end: keys.agendaRangeEnd(Number.MAX_SAFE_INTEGER), limit: 1 })) {
      return (value as StoredAgendaJob).dueAt;
    }
    return null;
  }

  /** How many jobs are on the agenda due at or before `uptoMs`, counting at most `limit` (keys only). */
  agendaCount(uptoMs: number, limit: number): number {
    return this.db.getKeysCount({ start: keys.agendaRangeStart(), end: keys.agendaRangeEnd(uptoMs), limit });
  }

  /** A family's job by id, if it is on the agenda. */
  getJob(familyId: string, jobId: string): StoredAgendaJob | undefined {
    const due = this.db.get(keys.agendaJob(familyId, jobId)) as number | undefined;
    return due === undefined ? undefined : this.db.get(keys.agenda(due, familyId, jobId)) as StoredAgendaJob | undefined;
  }

  /** Every job of a family on the agenda (for listings such as a routine's next run). */
  familyJobs(familyId: string): StoredAgendaJob[] {
    const out: StoredAgendaJob[] = [];
    for (const { key, value } of this.db.getRange({ start: keys.agendaJobRangeStart(familyId), end: keys.agendaJobRangeEnd(familyId) })) {
      const job = this.db.get(keys.agenda(value as number, familyId, (key as string[])[2]!)) as StoredAgendaJob | undefined;
      if (job) out.push(job);
    }
    return out;
  }

  // ---- idempotency ----------------------------------------------------------------------

  getIdempotency(keyId: string, idemKey: string, nowMs: number): IdempotencyRecord | undefined {
    const r = this.db.get(keys.idempotency(keyId, idemKey)) as IdempotencyRecord | undefined;
    return r && r.expiresAt > nowMs ? r : undefined;
  }

  /**
   * Removes up to `batch` expired idempotency records (read through the expiry index, so the
   * cost follows what expired, not what is kept); returns how many it removed.
   */
  async sweepIdempotency(nowMs: number, batch = 500): Promise<number> {
    const expired: { exp: (string | number)[]; rec: string[]; expiresAt: number }[] = [];
    for (const { key } of this.db.getRange({ start: keys.idempotencyExpiryRangeStart(), end: keys.idempotencyExpiryRangeEnd(nowMs), limit: batch })) {
      const k = key as [string, number, string, string];
      expired.push({ exp: k, rec: keys.idempotency(k[2], k[3]), expiresAt: k[1] });
    }
    if (!expired.length) return 0;
    await this.write(() => {
      for (const e of expired) {
        this.db.remove(e.exp);
        // A key reused after expiry has a newer record: leave that one alone.
        const r = this.db.get(e.rec) as IdempotencyRecord | undefined;
        if (r && r.expiresAt <= e.expiresAt) this.db.remove(e.rec);
      }
    });
    return expired.length;
  }

  /** Stores written before the expiry index existed: index their records once. */
  private indexOlderIdempotencyRecords(): void {
    const marker = ['meta', 'idempotencyExpiryIndexed'];
    if (this.db.get(marker)) return;
    this.db.transactionSync(() => {
      for (const { key, value } of this.db.getRange({ start: ['idem', ''], end: ['idem', '\uffff'] })) {
        const k = key as [string, string, string];
        this.db.put(keys.idempotencyExpiry((value as IdempotencyRecord).expiresAt, k[1], k[2]), 1);
      }
      this.db.put(marker, true);
    });
  }

  // ---- whole families: export and import ---------------------------------------------------

  /** A consistent snapshot (read inside one transaction) of a family, or undefined. */
  snapshotFamily(slug: string): WholeFamily | undefined {
    return this.db.transactionSync(() => {
      const family = this.getFamilyBySlug(slug);
      if (!family) return undefined;
      const records = Array.from(this.familyRecords(family.id));
      const log = this.readLog(family.id, 0, Number.MAX_SAFE_INTEGER);
      const indexes: { index: string; key: string }[] = [];
      for (const { key, value } of this.db.getRange({ start: keys.indexRangeStart(), end: keys.indexRangeEnd() })) {
        if (value === family.id) indexes.push({ index: (key as string[])[1]!, key: (key as string[])[2]! });
      }
      const agenda = this.familyJobs(family.id).map(({ familyId: _f, ...job }) => job);
      const checkpoints: { consumer: string; seq: number }[] = [];
      for (const { key, value } of this.db.getRange({ start: ['ckpt', ''], end: ['ckpt', '\uffff'] })) {
        const k = key as [string, string, string];
        if (k[2] === family.id) checkpoints.push({ consumer: k[1], seq: value as number });
      }
      return { family, keys: this.listKeys(family.id), records, log, indexes, agenda, checkpoints };
    });
  }

  /**
   * Writes a whole family (an import) in one transaction, unless its slug, id, keys or index
   * entries already exist: then nothing is written and the clash is named.
   */
  async putWholeFamily(doc: WholeFamily): Promise<'ok' | 'slug' | 'id' | 'key'> {
    const { family } = doc;
    return this.writeKeys(() => {
      if (this.db.get(keys.slug(family.slug)) !== undefined) return 'slug';
      if (this.db.get(keys.family(family.id)) !== undefined) return 'id';
      for (const k of doc.keys) if (this.db.get(keys.apiKey(k.id)) !== undefined) return 'key';
      for (const ix of doc.indexes ?? []) if (this.db.get(keys.index(ix.index, ix.key)) !== undefined) return 'key';
      this.db.put(keys.slug(family.slug), family.id);
      this.db.put(keys.family(family.id), family);
      for (const k of doc.keys) this.db.put(keys.apiKey(k.id), k);
      this.bumpKeysVersion();
      for (const r of doc.records) this.db.put(keys.record(family.id, r.table, r.id), r.value);
      for (const r of doc.log) this.db.put(keys.log(family.id, r.seq), r);
      for (const ix of doc.indexes ?? []) this.db.put(keys.index(ix.index, ix.key), family.id);
      for (const job of doc.agenda ?? []) this.writeAgenda(family.id, { put: job });
      for (const c of doc.checkpoints ?? []) this.db.put(keys.checkpoint(c.consumer, family.id), c.seq);
      return 'ok' as const;
    });
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
    while (this.reopening || this.reopenWanted) await this.whenIdle();
    await this.db.flushed;
    await this.db.close();
  }

  // ---- the one write path ----------------------------------------------------------------

  /**
   * Runs `fn` in a write transaction and resolves once it is durable. A commit the disk
   * refuses becomes a StoreWriteError whose kind says whether the disk is full; the first
   * failure and the first success after it are reported once to the health listener.
   */
  private async write<T>(fn: () => T, timing?: { flushAt: number }): Promise<T> {
    // After a failed commit, new writes wait for the fresh environment.
    while (this.reopening || this.reopenWanted) await this.whenIdle();
    let result: T;
    this.inFlight++;
    try {
      try {
        result = await this.db.transaction(fn) as T;
        if (timing) timing.flushAt = performance.now();
        await this.db.flushed;
      } finally {
        this.inFlight--;
      }
    } catch (err) {
      this.reopenWanted = true;
      const failure = await this.classify(err);
      // Reopen before the failure is reported: the caller (an actor) reloads its family from
      // disk next, and must read the environment the next write will use.
      await this.whenIdle();
      if (!this.failing) {
        this.failing = failure;
        this.healthListener?.('failing', failure);
      } else {
        this.failing = failure;
      }
      throw failure;
    }
    // A write went through: the environment works, no reopen needed.
    this.reopenWanted = false;
    this.checkIdle();
    if (this.failing) {
      this.failing = null;
      this.healthListener?.('recovered');
    }
    return result;
  }

  /** Resolves once no transaction is in flight and no reopen is owed (reopening first if one is). */
  private whenIdle(): Promise<void> {
    const idle = new Promise<void>((resolve) => { this.idleWaiters.push(resolve); });
    this.checkIdle();
    return idle;
  }

  /** Called as each transaction settles: the last one out reopens the environment if a commit failed. */
  private checkIdle(): void {
    if (this.inFlight > 0 || this.reopening) return;
    if (this.reopenWanted) {
      this.reopening = this.reopen().finally(() => {
        this.reopening = null;
        this.checkIdle();
      });
      return;
    }
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Closes and reopens the LMDB environment in place. After a failed write LMDB may refuse
   * all further work — a failed write of its meta page marks the environment fatal
   * (MDB_PANIC for every later transaction, reads included) until it is closed — so every
   * failed commit is followed by a fresh environment, opened from what is on disk (LMDB's
   * last committed state). Runs only when no transaction of this process is in flight; new
   * writes wait for it. Closing settles within microtasks (overlappingSync is off), so no
   * request is served in between.
   */
  private async reopen(): Promise<void> {
    this.reopenWanted = false;
    const old = this.db;
    try {
      await Promise.race([old.close(), new Promise((r) => setTimeout(r, 2000).unref())]);
    } catch { /* a failed environment may refuse to close cleanly: open anew regardless */ }
    try {
      this.db = this.openEnv();
    } catch (err) {
      // Opening an existing store needs no new space, so this is not expected; until it works
      // nothing can be read or written: try again each second (writes wait meanwhile).
      this.reopenWanted = true;
      this.reopenListener?.(err);
      await new Promise((r) => setTimeout(r, 1000).unref());
      return;
    }
    this.keysVersionCache = null;
    this.reopenListener?.();
  }

  private async classify(err: unknown): Promise<StoreWriteError> {
    if (err instanceof StoreWriteError) return err;
    // lmdb-js rejects with "Commit failed" and keeps the system error on a second promise.
    let cause: unknown = err;
    const inner = (err as { commitError?: Promise<unknown> } | null)?.commitError;
    if (inner && typeof inner.then === 'function') {
      cause = await Promise.race([
        inner.then(() => err, (e: unknown) => e),
        new Promise((r) => setTimeout(() => r(err), 100).unref()),
      ]);
    }
    const text = String((cause as Error)?.message ?? cause);
    const code = (cause as { code?: unknown })?.code;
    const noRoom = code === 28 || code === 'ENOSPC' || code === 'EDQUOT' || code === -30792
      || /no space left|MDB_MAP_FULL|quota/i.test(text) || this.diskNearlyFull();
    return noRoom
      ? new StoreWriteError('full', `the disk holding ${this.dataDir} is full: ${text}`, cause)
      : new StoreWriteError('failed', `the store could not write: ${text}`, cause);
  }

  private diskNearlyFull(): boolean {
    try {
      const s = statfsSync(this.dataDir);
      return s.bavail * s.bsize < FULL_BELOW_BYTES;
    } catch {
      return false;
    }
  }
}

/** A background write that failed: its reason is reported by the next awaited write; keep it from being unhandled. */
function swallowCommitError(err: unknown): void {
  const inner = (err as { commitError?: Promise<unknown> } | null)?.commitError;
  if (inner && typeof inner.catch === 'function') inner.catch(() => undefined);
}

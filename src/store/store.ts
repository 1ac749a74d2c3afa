/**
 * The store: families, API keys, every family's records and change log, store-wide indexes,
 * idempotency answers, the durable agenda and the checkpoints of change-log consumers. `Store`
 * is the one object the daemon holds; it implements each seam of ports.ts by handing the call
 * to that seam's part, and LMDB (lmdb/) is the one backend of those parts today: one
 * environment file under `storage.dataDir`, which several processes may open at once (the CLI
 * while `serve` runs) as LMDB serializes their write transactions.
 */
import { mkdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { Conflict } from '../domain/shared/errors.js';
import type { IndexChange, RecordChange } from '../domain/shared/state.js';
import { keys, SCHEMA_VERSION } from './layout.js';
import { openPrivately } from './files.js';
import { guardCommitFailures } from './lmdb/commitFailures.js';
import { sealOlderIdempotencyRecords } from './lmdb/sealIdempotency.js';
import type {
  CommitBatch,
  Directory,
  HouseholdStore,
  KeysTransaction,
  StoreWrites,
  WholeFamily,
} from './ports.js';
import type {
  ApiKeyRecord,
  ChangeRecord,
  FamilyInfo,
  IdempotencyRecord,
  OAuthKind,
  OAuthWrite,
  QueuedFamilyUpdate,
  StoredAgendaJob,
} from './types.js';
import { LmdbEnv, type WriteHealthListener } from './lmdb/env.js';
import { StoreVersionError, StoreWriteError } from './errors.js';
import { LmdbDirectory } from './lmdb/directory.js';
import { LmdbCommits, type CommitListener } from './lmdb/commits.js';
import { LmdbAgenda } from './lmdb/agenda.js';
import { LmdbIdempotency } from './lmdb/idempotency.js';
import { LmdbWholeFamilies } from './lmdb/whole.js';
import { LmdbOAuth } from './lmdb/oauth.js';

export { StoreVersionError, StoreWriteError };
export type { CommitBatch, CommitListener, StoreWrites, WholeFamily, WriteHealthListener };

export const STORE_FILE = 'household.mdb';

export interface StoreOptions {
  /** Initial size of the memory map; lmdb-js grows it when it fills. */
  mapSizeBytes?: number;
}

/**
 * The store on this machine's disk. A cluster node keeps one too, as the rebuilt state of the
 * log, and works with it through `withWrites` (below): its reads, the log's writes.
 */
export class Store implements HouseholdStore {
  private readonly directory: LmdbDirectory;
  private readonly log: LmdbCommits;
  private readonly agenda: LmdbAgenda;
  private readonly idempotency: LmdbIdempotency;
  private readonly whole: LmdbWholeFamilies;
  private readonly oauth: LmdbOAuth;

  private constructor(
    private readonly env: LmdbEnv,
    readonly path: string,
    readonly dataDir: string,
  ) {
    this.directory = new LmdbDirectory(env);
    this.log = new LmdbCommits(env);
    this.agenda = new LmdbAgenda(env);
    this.idempotency = new LmdbIdempotency(env);
    this.oauth = new LmdbOAuth(env);
    this.whole = new LmdbWholeFamilies(env, {
      directory: this.directory,
      log: this.log,
      agenda: this.agenda,
    });
  }

  /**
   * Opens (creating if needed, private to this user: files.ts) the store under `dataDir` and
   * checks its schema version. A folder or store that cannot be made or opened → StoreAccessError.
   */
  static open(dataDir: string, opts: StoreOptions = {}): Store {
    guardCommitFailures();
    const path = join(dataDir, STORE_FILE);
    const mapSize = opts.mapSizeBytes ?? 2 ** 34;
    // overlappingSync off: LMDB flushes inside the commit, so a failed commit leaves no flush
    // promise pending forever, and closing the environment to reopen it after a failure
    // settles at once (with it on, close() waited for that flush and never returned).
    const openEnv = () =>
      openPrivately(dataDir, () =>
        open({
          path,
          mapSize,
          maxReaders: 254,
          overlappingSync: false,
          // Values as plain MessagePack maps. msgpackr's default, records, defines each
          // object's shape inside every value (the store keeps no shared structures), which
          // cost a write a third more to encode and saved ~1.5 % of the bytes. Either form
          // reads back: values written as records before stay readable. lmdb-js hands this
          // msgpackr option on (open.js); its types do not list it.
          ...({ useRecords: false } as object),
        }),
      );
    const db = openEnv();
    const store = new Store(new LmdbEnv(db, dataDir, openEnv), path, dataDir);
    const version = db.get(keys.schemaVersion()) as number | undefined;
    if (version === undefined) {
      db.putSync(keys.schemaVersion(), SCHEMA_VERSION);
    } else if (version > SCHEMA_VERSION) {
      // The version error is what the operator must see; a failure to close the store we are
      // refusing changes nothing for them.
      db.close().catch(() => undefined);
      throw new StoreVersionError(
        `the store at ${path} has schema version ${version}, newer than this program understands ` +
          `(${SCHEMA_VERSION}); upgrade Household Organizer or restore a matching backup`,
      );
    }
    store.idempotency.indexOlderRecords();
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
  get writeFailure(): StoreWriteError | null {
    return this.env.writeFailure;
  }

  onWriteHealth(listener: WriteHealthListener): void {
    this.env.healthListener = listener;
  }

  /** Observes each reopening of the environment after a failed commit (the daemon logs it). */
  onReopen(listener: (failed?: unknown) => void): void {
    this.env.reopenListener = listener;
  }

  /** Adds an observer of group commits (metrics). */
  onCommit(listener: CommitListener): void {
    this.log.listeners.push(listener);
  }

  // ---- Directory ------------------------------------------------------------------------
  getFamily(familyId: string): FamilyInfo | undefined {
    return this.directory.getFamily(familyId);
  }
  getFamilyBySlug(slug: string): FamilyInfo | undefined {
    return this.directory.getFamilyBySlug(slug);
  }
  listFamilies(): FamilyInfo[] {
    return this.directory.listFamilies();
  }
  createFamily(family: FamilyInfo, seed: RecordChange[], firstKey?: ApiKeyRecord): Promise<void> {
    return this.directory.createFamily(family, seed, firstKey);
  }
  queueFamilyUpdate(
    ...args: Parameters<Directory['queueFamilyUpdate']>
  ): Promise<QueuedFamilyUpdate | undefined> {
    return this.directory.queueFamilyUpdate(...args);
  }
  queuedFamilyUpdate(familyId: string): QueuedFamilyUpdate | undefined {
    return this.directory.queuedFamilyUpdate(familyId);
  }
  queuedFamilyUpdates(): QueuedFamilyUpdate[] {
    return this.directory.queuedFamilyUpdates();
  }
  familyUpdatesVersion(): number {
    return this.directory.familyUpdatesVersion();
  }
  getKey(keyId: string): ApiKeyRecord | undefined {
    return this.directory.getKey(keyId);
  }
  listKeys(familyId?: string): ApiKeyRecord[] {
    return this.directory.listKeys(familyId);
  }
  putKey(key: ApiKeyRecord): Promise<void> {
    return this.directory.putKey(key);
  }
  transactKeys<R>(fn: KeysTransaction<R>): Promise<R> {
    return this.directory.transactKeys(fn);
  }
  keysVersion(): number {
    return this.directory.keysVersion();
  }
  touchKey(keyId: string, at: string): void {
    this.directory.touchKey(keyId, at);
  }
  lookupIndex(index: IndexChange['index'], key: string): string | undefined {
    return this.directory.lookupIndex(index, key);
  }

  // ---- BatchCommits and LogReads --------------------------------------------------------
  commit(familyId: string, batch: CommitBatch, guard?: () => boolean): Promise<void> {
    return this.log.commit(familyId, batch, guard);
  }
  lastSeq(familyId: string): number {
    return this.log.lastSeq(familyId);
  }
  familyRecords(familyId: string): Generator<{ table: string; id: string; value: unknown }> {
    return this.log.familyRecords(familyId);
  }
  getRecord<T>(familyId: string, table: string, id: string): T | undefined {
    return this.log.getRecord<T>(familyId, table, id);
  }
  readLog(familyId: string, after: number, limit: number): ChangeRecord[] {
    return this.log.readLog(familyId, after, limit);
  }
  getCheckpoint(consumer: string, familyId: string): number {
    return this.log.getCheckpoint(consumer, familyId);
  }

  // ---- AgendaReads ----------------------------------------------------------------------
  dueJobs(uptoMs: number, limit: number): StoredAgendaJob[] {
    return this.agenda.dueJobs(uptoMs, limit);
  }
  earliestDue(): number | null {
    return this.agenda.earliestDue();
  }
  agendaCount(uptoMs: number, limit: number): number {
    return this.agenda.agendaCount(uptoMs, limit);
  }
  getJob(familyId: string, jobId: string): StoredAgendaJob | undefined {
    return this.agenda.getJob(familyId, jobId);
  }
  familyJobs(familyId: string): StoredAgendaJob[] {
    return this.agenda.familyJobs(familyId);
  }

  // ---- IdempotencyRecords ---------------------------------------------------------------
  getIdempotency(keyId: string, idemKey: string, nowMs: number): IdempotencyRecord | undefined {
    return this.idempotency.getIdempotency(keyId, idemKey, nowMs);
  }
  sweepIdempotency(nowMs: number, batch = 500): Promise<number> {
    return this.idempotency.sweepIdempotency(nowMs, batch);
  }

  // ---- WholeFamilies --------------------------------------------------------------------
  snapshotFamily(slug: string): WholeFamily | undefined {
    return this.whole.snapshotFamily(slug);
  }
  putWholeFamily(doc: WholeFamily): Promise<'ok' | 'slug' | 'id' | 'key'> {
    return this.whole.putWholeFamily(doc);
  }

  // ---- OAuthCredentials -----------------------------------------------------------------
  getOAuth<T>(kind: OAuthKind, id: string): T | undefined {
    return this.oauth.getOAuth<T>(kind, id);
  }
  listOAuth<T>(kind: OAuthKind): T[] {
    return this.oauth.listOAuth<T>(kind);
  }
  transactOAuth<R>(
    fn: (read: <T>(kind: OAuthKind, id: string) => T | undefined) => {
      writes: readonly OAuthWrite[];
      result: R;
    },
  ): Promise<R> {
    return this.oauth.transactOAuth(fn);
  }

  // ---- whole-store operations ------------------------------------------------------------

  /** A consistent copy of the environment (safe while other processes write). */
  async backup(targetDir: string): Promise<string> {
    mkdirSync(targetDir, { recursive: true });
    const target = join(targetDir, STORE_FILE);
    if (existsSync(target)) throw new Conflict(`${target} already exists`);
    await this.env.db.backup(target, true);
    return target;
  }

  async close(): Promise<void> {
    await this.env.settle();
    await this.env.db.flushed;
    await this.env.db.close();
  }
}

/**
 * The store with its writes sent through `writes` and its reads its own: a cluster node's
 * (src/cluster/), whose every write goes to the replicated log first and reaches this LMDB once
 * the log acknowledged it. Wired once, when the node starts; the LMDB store itself keeps
 * writing directly (what the node's follower applies from the log).
 */
export function withWrites(store: Store, writes: StoreWrites): HouseholdStore {
  // Reads (and the whole-store operations) are the store's own, through the prototype; the
  // writes are the given ones.
  const view = Object.create(store) as Store;
  return Object.assign(view, writes);
}

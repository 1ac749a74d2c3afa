/**
 * The seams of the store (its ports): what the rest of the daemon needs from it, one small
 * interface per concern, so that a second backend can stand behind the same calls and every
 * module takes only the port it uses. LMDB (src/store/lmdb/)
 * is the one implementation today; `Store` (store.ts) composes its parts.
 *
 * Writes return promises that resolve once the write is durable, as a backend that replicates
 * over the network must. Reads are synchronous: every caller reads on the request's turn of the
 * event loop (the actor loads a family, the auth check finds a key). A replicated backend keeps
 * them so by applying the replicated stream to a local copy and reading that copy; only the
 * commit waits for the network. docs/storage.md, "Seams", says which key each part owns.
 */
import type { StoreWriteError } from './errors.js';
import type { AgendaChange, AgendaJob, IndexChange, RecordChange } from '../domain/shared/state.js';
import type {
  ApiKeyRecord,
  ChangeRecord,
  FamilyInfo,
  FamilyPatch,
  IdempotencyRecord,
  IdempotencyWrite,
  OAuthKind,
  OAuthWrite,
  QueuedFamilyUpdate,
  StoredAgendaJob,
} from './types.js';

/** Everything one decision (or one family's batch of decisions) writes, committed at once. */
export interface CommitBatch {
  records?: readonly RecordChange[];
  log?: readonly ChangeRecord[];
  indexes?: readonly IndexChange[];
  agenda?: readonly AgendaChange[];
  /** How far change-log consumers (by name) have read this family's log. */
  checkpoints?: readonly { consumer: string; seq: number }[];
  idempotency?: readonly IdempotencyWrite[];
  /**
   * The last change-log seq the writer saw when it decided the batch. When given, the batch is
   * refused (nothing written) unless the family's log still ends there: two writers of one
   * family (two nodes, or a process that lost its lease) cannot both append.
   */
  expectedLastSeq?: number;
  /** The family's own settings as the batch leaves them (a `family.updated`). */
  family?: FamilyInfo;
  /** The queued update (by id) the batch applied: removed unless a newer one replaced it. */
  settlesQueuedUpdate?: string;
}

/** The write path: one family's batch in, durable or refused as a whole. */
export interface BatchCommits {
  /**
   * Commits the batch in one transaction and resolves once it is durable. `guard` runs inside
   * the transaction; false refuses the batch. A refused batch or a write the disk refuses →
   * StoreWriteError, and nothing of the batch is written.
   */
  commit(familyId: string, batch: CommitBatch, guard?: () => boolean): Promise<void>;
  /** The seq of the family's last change-log record (0 for none). */
  lastSeq(familyId: string): number;
}

/** A family's records and change log as committed, and how far consumers have read it. */
export interface LogReads {
  /** Every record of a family, in key (table, id) order. */
  familyRecords(familyId: string): Iterable<{ table: string; id: string; value: unknown }>;
  getRecord<T>(familyId: string, table: string, id: string): T | undefined;
  /** Change-log records with seq > after, in order, at most `limit`. */
  readLog(familyId: string, after: number, limit: number): ChangeRecord[];
  getCheckpoint(consumer: string, familyId: string): number;
}

/** The durable agenda: jobs by due time, across families. Jobs are written through commits. */
export interface AgendaReads {
  /** Jobs due at or before `uptoMs`, earliest first, at most `limit`. */
  dueJobs(uptoMs: number, limit: number): StoredAgendaJob[];
  /** The due time of the earliest job on the agenda, or null when it is empty. */
  earliestDue(): number | null;
  /** How many jobs are due at or before `uptoMs`, counting at most `limit`. */
  agendaCount(uptoMs: number, limit: number): number;
  /** A family's job by id, if it is on the agenda. */
  getJob(familyId: string, jobId: string): StoredAgendaJob | undefined;
  /** Every job of a family on the agenda. */
  familyJobs(familyId: string): StoredAgendaJob[];
}

/** Kept answers of idempotent requests (written through commits, beside their change). */
export interface IdempotencyRecords {
  /** The live record of (key, idempotency key), if any. */
  getIdempotency(keyId: string, idemKey: string, nowMs: number): IdempotencyRecord | undefined;
  /** Removes up to `batch` expired records; resolves with how many it removed. */
  sweepIdempotency(nowMs: number, batch?: number): Promise<number>;
}

/** The OAuth door's clients, grants, codes and tokens (docs/oauth.md), beside the API keys. */
export interface OAuthCredentials {
  getOAuth<T>(kind: OAuthKind, id: string): T | undefined;
  listOAuth<T>(kind: OAuthKind): T[];
  /**
   * Reads and writes OAuth records in one durable transaction: `fn` sees the records as they
   * are inside it, so a code or a refresh token is spent exactly once even by two requests
   * (or two processes) at the same moment.
   */
  transactOAuth<R>(
    fn: (read: <T>(kind: OAuthKind, id: string) => T | undefined) => {
      writes: readonly OAuthWrite[];
      result: R;
    },
  ): Promise<R>;
}

/** What a keys transaction decides from the keys it reads: the records to write, and its answer. */
export type KeysTransaction<R> = (read: (keyId: string) => ApiKeyRecord | undefined) => {
  writes: readonly ApiKeyRecord[];
  result: R;
};

/** Families, their API keys and the store-wide token index: who is who. */
export interface Directory {
  getFamily(familyId: string): FamilyInfo | undefined;
  getFamilyBySlug(slug: string): FamilyInfo | undefined;
  listFamilies(): FamilyInfo[];
  /** A new family with its first records and key, at once; a taken slug → Conflict. */
  createFamily(family: FamilyInfo, seed: RecordChange[], firstKey?: ApiKeyRecord): Promise<void>;
  /**
   * Queues a change of a family's settings for its actor (the CLI must not write a family a
   * daemon holds in memory; src/family/queuedUpdates.ts): merged over one still queued, given
   * the new id, and announced through familyUpdatesVersion. Unknown family → undefined.
   */
  queueFamilyUpdate(
    familyId: string,
    patch: FamilyPatch,
    id: string,
    at: string,
  ): Promise<QueuedFamilyUpdate | undefined>;
  /** The change queued for a family, if any (removed by the commit that applies it). */
  queuedFamilyUpdate(familyId: string): QueuedFamilyUpdate | undefined;
  queuedFamilyUpdates(): QueuedFamilyUpdate[];
  /** Changes whenever a change is queued, by any process (the daemon polls it). */
  familyUpdatesVersion(): number;
  getKey(keyId: string): ApiKeyRecord | undefined;
  listKeys(familyId?: string): ApiKeyRecord[];
  putKey(key: ApiKeyRecord): Promise<void>;
  /**
   * Reads and writes keys in one durable transaction (a compare-and-set): `fn` sees the keys as
   * they are inside it, so a one-time secret (setup code, sign-in link, pairing link) is spent
   * exactly once even by concurrent requests or processes, and a revocation ends the sessions
   * derived from the key in the same write.
   */
  transactKeys<R>(fn: KeysTransaction<R>): Promise<R>;
  /** Changes whenever a key is made or revoked by any process: a key cache's validity. */
  keysVersion(): number;
  /** Records a key's use without waiting for the disk (losing it is harmless). */
  touchKey(keyId: string, at: string): void;
  /** The family a store-wide index entry points at (a share token's hash). */
  lookupIndex(index: IndexChange['index'], key: string): string | undefined;
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

/** Export and import of whole families. */
export interface WholeFamilies {
  /** A consistent snapshot of a family, or undefined. */
  snapshotFamily(slug: string): WholeFamily | undefined;
  /** Writes a whole family unless its slug, id, keys or index entries exist (then names which). */
  putWholeFamily(doc: WholeFamily): Promise<'ok' | 'slug' | 'id' | 'key'>;
}

/**
 * Every write the store takes, in one place: what a cluster node routes through its replicated
 * log (src/cluster/) while the embedded store writes them to LMDB directly.
 */
export { StoreWriteError } from './errors.js';

export type StoreWrites = Pick<BatchCommits, 'commit'> &
  Pick<Directory, 'createFamily' | 'queueFamilyUpdate' | 'putKey' | 'transactKeys'> &
  Pick<WholeFamilies, 'putWholeFamily'> &
  Pick<OAuthCredentials, 'transactOAuth'>;

/** Whether the store can write, and its observers (health, logs, metrics). */
export interface StoreHealth {
  /** Whether writes are failing right now (a full disk), for /healthz and the log. */
  readonly writeFailure: StoreWriteError | null;
  onWriteHealth(listener: (state: 'failing' | 'recovered', error?: StoreWriteError) => void): void;
  /** Observes each reopening of the store after a failed commit (the daemon logs it). */
  onReopen(listener: (failed?: unknown) => void): void;
  /** Adds an observer of group commits (metrics): their time, flush time and batch count. */
  onCommit(listener: (durationMs: number, flushMs: number, batches: number) => void): void;
}

/** A consistent copy of the whole store (the embedded `backup`, scheduled backups). */
export interface StoreCopies {
  /** Writes the copy into `targetDir`; answers the copy's file. */
  backup(targetDir: string): Promise<string>;
}

/**
 * Every seam at once: what the daemon's composition holds and hands out port by port (the
 * embedded LMDB store, or a cluster node's LMDB behind the replicated log).
 */
export interface HouseholdStore
  extends
    BatchCommits,
    LogReads,
    AgendaReads,
    IdempotencyRecords,
    Directory,
    WholeFamilies,
    OAuthCredentials,
    StoreHealth,
    StoreCopies {
  close(): Promise<void>;
}

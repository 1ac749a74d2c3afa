/**
 * The write path and the log in LMDB (the `BatchCommits` and `LogReads` seams): a family's
 * batch goes into one transaction with the batches of every other family decided in the same
 * turn of the event loop, and resolves once it is flushed.
 */
import { keys } from '../layout.js';
import type { BatchCommits, CommitBatch, LogReads } from '../ports.js';
import type { ChangeRecord, QueuedFamilyUpdate } from '../types.js';
import { StoreWriteError, type LmdbEnv } from './env.js';
import { writeAgendaChange } from './agenda.js';

/**
 * Observes each group commit once it is durable: milliseconds from the start of its
 * transaction, of which waiting for the flush to disk, and the family batches it carried.
 */
export type CommitListener = (durationMs: number, flushMs: number, batches: number) => void;

interface PendingCommit {
  familyId: string;
  batch: CommitBatch;
  guard: (() => boolean) | undefined;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class LmdbCommits implements BatchCommits, LogReads {
  private pending: PendingCommit[] = [];
  readonly listeners: CommitListener[] = [];

  constructor(private readonly env: LmdbEnv) {}

  private get db() {
    return this.env.db;
  }

  commit(familyId: string, batch: CommitBatch, guard?: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ familyId, batch, guard, resolve, reject });
      // setImmediate: after every request read in this poll phase has decided its batch.
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  /**
   * Writes every commit asked for in this turn of the event loop — typically one batch from
   * each of several busy families — in one transaction and one flush. One transaction per
   * family batch cost ~40 µs of CPU per write when writes were spread over many families.
   * A batch whose guard or expected seq refuses is left out alone; a commit that fails fails
   * them all (the disk refused the one transaction they shared).
   */
  private flush(): void {
    const commits = this.pending;
    this.pending = [];
    const refused = new Map<PendingCommit, string>();
    const timing = { startedAt: performance.now(), flushAt: 0 };
    this.env
      .write(() => {
        for (const c of commits) {
          const why = this.refusal(c);
          if (why) refused.set(c, why);
          else this.writeBatch(c.familyId, c.batch);
        }
      }, timing)
      .then(
        () => {
          const end = performance.now();
          for (const c of commits) {
            const why = refused.get(c);
            if (why) c.reject(new StoreWriteError('failed', why));
            else c.resolve();
          }
          // An observer's failure must never touch the commits it observes.
          for (const l of this.listeners) {
            try {
              l(end - timing.startedAt, end - timing.flushAt, commits.length - refused.size);
            } catch {
              /* ignored */
            }
          }
        },
        (err: unknown) => {
          for (const c of commits) c.reject(err);
        },
      );
  }

  /** Why a batch may not be written (inside the transaction), or null. */
  private refusal(c: PendingCommit): string | null {
    if (c.guard && !c.guard()) return 'commit refused by its guard';
    const expected = c.batch.expectedLastSeq;
    if (expected !== undefined && !this.logEndsAt(c.familyId, expected)) {
      const last = this.lastSeq(c.familyId);
      return `the family's log ends at ${last}, not at ${expected} as the batch expected`;
    }
    return null;
  }

  /**
   * Whether the family's log ends at `seq`. Its numbers run from 1 without a gap (each batch
   * appends the next ones, and only after this check), so two point lookups answer it: `seq`
   * is there and `seq + 1` is not. Reading the last record through a reverse cursor instead was
   * a tenth of the main thread's time with writes spread over fifty families (one check per
   * family batch, and the record decoded for its key).
   */
  private logEndsAt(familyId: string, seq: number): boolean {
    if (this.db.doesExist(keys.log(familyId, seq + 1))) return false;
    return seq === 0 ? this.lastSeq(familyId) === 0 : this.db.doesExist(keys.log(familyId, seq));
  }

  private writeBatch(familyId: string, batch: CommitBatch): void {
    // Inside a write transaction putSync/removeSync write into it and return at once (the
    // store's parts all write this way): the transaction's promise carries any failure, so
    // there is no per-put promise left for nobody to handle.
    const db = this.db;
    for (const ix of batch.indexes ?? []) {
      const key = keys.index(ix.index, ix.key);
      if (ix.familyId === null) db.removeSync(key);
      else db.putSync(key, ix.familyId);
    }
    for (const c of batch.records ?? []) {
      const key = keys.record(familyId, c.table, c.id);
      if (c.value === null || c.value === undefined) db.removeSync(key);
      else db.putSync(key, c.value);
    }
    for (const r of batch.log ?? []) db.putSync(keys.log(familyId, r.seq), r);
    for (const a of batch.agenda ?? []) writeAgendaChange(db, familyId, a);
    for (const c of batch.checkpoints ?? [])
      db.putSync(keys.checkpoint(c.consumer, familyId), c.seq);
    for (const i of batch.idempotency ?? []) {
      db.putSync(keys.idempotency(i.keyId, i.idemKey), i.record);
      db.putSync(keys.idempotencyExpiry(i.record.expiresAt, i.keyId, i.idemKey), 1);
    }
    // The family's settings (the Directory's key) change only with what they move.
    if (batch.family) db.putSync(keys.family(familyId), batch.family);
    if (batch.settlesQueuedUpdate !== undefined) {
      const queued = db.get(keys.familyUpdate(familyId)) as QueuedFamilyUpdate | undefined;
      if (queued?.id === batch.settlesQueuedUpdate) db.removeSync(keys.familyUpdate(familyId));
    }
  }

  lastSeq(familyId: string): number {
    const range = {
      start: keys.logRangeEnd(familyId),
      end: keys.logRangeStart(familyId, -1),
      reverse: true,
      limit: 1,
    };
    for (const key of this.db.getKeys(range)) return (key as [string, string, number])[2];
    return 0;
  }

  *familyRecords(familyId: string): Generator<{ table: string; id: string; value: unknown }> {
    const range = { start: keys.recordRangeStart(familyId), end: keys.recordRangeEnd(familyId) };
    for (const { key, value } of this.db.getRange(range)) {
      const k = key as [string, string, string, string];
      yield { table: k[2], id: k[3], value };
    }
  }

  getRecord<T>(familyId: string, table: string, id: string): T | undefined {
    return this.db.get(keys.record(familyId, table, id)) as T | undefined;
  }

  readLog(familyId: string, after: number, limit: number): ChangeRecord[] {
    const out: ChangeRecord[] = [];
    const range = {
      start: keys.logRangeStart(familyId, after),
      end: keys.logRangeEnd(familyId),
      limit,
    };
    for (const { value } of this.db.getRange(range)) out.push(value as ChangeRecord);
    return out;
  }

  getCheckpoint(consumer: string, familyId: string): number {
    return (this.db.get(keys.checkpoint(consumer, familyId)) as number | undefined) ?? 0;
  }
}

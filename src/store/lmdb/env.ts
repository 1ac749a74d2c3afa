/**
 * The LMDB environment and its one write path, shared by the store's parts (this folder). The
 * handle stays inside src/store/: the key layout (../layout.ts, docs/storage.md) is known here
 * only.
 *
 * Durability: lmdb-js resolves a transaction's promise when it is committed and visible; with
 * overlapping sync the flush to disk may still be running. Every write here also waits for
 * `flushed`, so a resolved write survives kill -9 and a power cut.
 */
import { statfsSync } from 'node:fs';
import type { RootDatabase } from 'lmdb';

/**
 * A write the store could not make. `full`: the disk (or the LMDB map) has no room — the
 * daemon answers 507 and keeps serving reads; `failed`: any other I/O failure — 503.
 */
export class StoreWriteError extends Error {
  constructor(readonly kind: 'full' | 'failed', message: string, override readonly cause?: unknown) {
    super(message);
  }
}

/** Called when writes start failing and when they work again (the daemon logs each once). */
export type WriteHealthListener = (state: 'failing' | 'recovered', error?: StoreWriteError) => void;

/**
 * Less free space than this after a failed commit means the disk is full (ENOSPC may surface
 * as EIO).
 */
const FULL_BELOW_BYTES = 8 * 1024 * 1024;

export class LmdbEnv {
  private failing: StoreWriteError | null = null;
  healthListener: WriteHealthListener | null = null;

  constructor(readonly db: RootDatabase, readonly dataDir: string) {}

  /** Whether writes are failing right now (a full disk), for /healthz and the log. */
  get writeFailure(): StoreWriteError | null { return this.failing; }

  /**
   * Runs `fn` in a write transaction and resolves once it is durable. A commit the disk
   * refuses becomes a StoreWriteError whose kind says whether the disk is full; the first
   * failure and the first success after it are reported once to the health listener.
   */
  async write<T>(fn: () => T, timing?: { flushAt: number }): Promise<T> {
    let result: T;
    try {
      result = await this.db.transaction(fn);
      if (timing) timing.flushAt = performance.now();
      await this.db.flushed;
    } catch (err) {
      const failure = await this.classify(err);
      if (!this.failing) {
        this.failing = failure;
        this.healthListener?.('failing', failure);
      } else {
        this.failing = failure;
      }
      throw failure;
    }
    if (this.failing) {
      this.failing = null;
      this.healthListener?.('recovered');
    }
    return result;
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

/**
 * A background write that failed: its reason is reported by the next awaited write; keep it
 * from being unhandled.
 */
export function swallowCommitError(err: unknown): void {
  const inner = (err as { commitError?: Promise<unknown> } | null)?.commitError;
  if (inner && typeof inner.catch === 'function') inner.catch(() => undefined);
}

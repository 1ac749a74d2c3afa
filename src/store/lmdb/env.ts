/**
 * The LMDB environment and its one write path, shared by the store's parts (this folder). The
 * handle stays inside src/store/: the key layout (../layout.ts, docs/storage.md) is known here
 * only.
 *
 * Durability: lmdb-js resolves a transaction's promise when it is committed and visible; with
 * overlapping sync the flush to disk may still be running. Every write here also waits for
 * `flushed`, so a resolved write survives kill -9 and a power cut. (The store opens LMDB with
 * overlapping sync off, so the flush is part of the commit: see reopen.)
 */
import { statfsSync } from 'node:fs';
import type { RootDatabase } from 'lmdb';
import { StoreWriteError } from '../errors.js';

export { StoreWriteError };

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
  /** Observes each reopening after a failed commit; `failed` when opening again failed. */
  reopenListener: ((failed?: unknown) => void) | null = null;
  /** LMDB transactions of this process not yet settled: the environment is reopened only at 0. */
  private inFlight = 0;
  /** A commit failed: reopen the environment before the next write (see reopen). */
  private reopenWanted = false;
  private reopening: Promise<void> | null = null;
  /** Waiting for no transaction in flight and no reopen owed (see whenIdle). */
  private idleWaiters: (() => void)[] = [];
  private current: RootDatabase;

  /** `openEnv` opens the environment again, after a failed commit (see reopen). */
  constructor(
    db: RootDatabase,
    readonly dataDir: string,
    private readonly openEnv: () => RootDatabase,
  ) {
    this.current = db;
  }

  /** The environment now: parts read it on every call, as a reopen replaces it. */
  get db(): RootDatabase {
    return this.current;
  }

  /** Whether writes are failing right now (a full disk), for /healthz and the log. */
  get writeFailure(): StoreWriteError | null {
    return this.failing;
  }

  /**
   * Runs `fn` in a write transaction and resolves once it is durable. A commit the disk
   * refuses becomes a StoreWriteError whose kind says whether the disk is full; the first
   * failure and the first success after it are reported once to the health listener.
   */
  async write<T>(fn: () => T, timing?: { flushAt: number }): Promise<T> {
    // After a failed commit, new writes wait for the fresh environment.
    while (this.reopening || this.reopenWanted) await this.whenIdle();
    let result: T;
    this.inFlight++;
    try {
      try {
        result = await this.db.transaction(fn);
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

  /**
   * A write nobody waits for (a key's last use): skipped while a reopen is owed, its failure
   * kept from being unhandled, counted in flight so the environment is not closed under it.
   */
  background(fn: () => void): void {
    if (this.reopening || this.reopenWanted) return;
    this.inFlight++;
    this.db
      .transaction(fn)
      .catch((err: unknown) => {
        swallowCommitError(err);
      })
      .finally(() => {
        this.inFlight--;
        this.checkIdle();
      });
  }

  /** Waits until no transaction is in flight and no reopen is owed; for closing. */
  async settle(): Promise<void> {
    while (this.reopening || this.reopenWanted) await this.whenIdle();
  }

  /** Resolves once no transaction is in flight and no reopen is owed (reopening first if one is). */
  private whenIdle(): Promise<void> {
    const idle = new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
    });
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
   * writes wait for it. Closing settles within microtasks (overlappingSync is off: store.ts),
   * so no request is served in between.
   */
  private async reopen(): Promise<void> {
    this.reopenWanted = false;
    const old = this.current;
    try {
      await Promise.race([old.close(), new Promise((r) => setTimeout(r, 2000).unref())]);
    } catch {
      /* a failed environment may refuse to close cleanly: open anew regardless */
    }
    try {
      this.current = this.openEnv();
    } catch (err) {
      // Opening an existing store needs no new space, so this is not expected; until it works
      // nothing can be read or written: try again each second (writes wait meanwhile).
      this.reopenWanted = true;
      this.reopenListener?.(err);
      await new Promise((r) => setTimeout(r, 1000).unref());
      return;
    }
    this.reopenListener?.();
  }

  private async classify(err: unknown): Promise<StoreWriteError> {
    if (err instanceof StoreWriteError) return err;
    // lmdb-js rejects with "Commit failed" and keeps the system error on a second promise.
    let cause: unknown = err;
    const inner = (err as { commitError?: Promise<unknown> } | null)?.commitError;
    if (inner && typeof inner.then === 'function') {
      cause = await Promise.race([
        inner.then(
          () => err,
          (e: unknown) => e,
        ),
        new Promise((r) => setTimeout(() => r(err), 100).unref()),
      ]);
    }
    const text = String((cause as Error)?.message ?? cause);
    const code = (cause as { code?: unknown })?.code;
    const noRoom =
      code === 28 ||
      code === 'ENOSPC' ||
      code === 'EDQUOT' ||
      code === -30792 ||
      /no space left|MDB_MAP_FULL|quota/i.test(text) ||
      this.diskNearlyFull();
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

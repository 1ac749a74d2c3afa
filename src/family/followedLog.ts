/**
 * The one interface the live streams follow a family's change log through: where its durable
 * end is, the records after a sequence, and a wait for the next one. The local log answers it
 * from the store and the actors' commit nudges; a replicated log can stand behind it later
 * without the streams changing.
 */
import type { ChangeRecord } from '../store/types.js';

export interface FollowedLog {
  /** The last durable sequence number of the family (0 when its log is empty). */
  head(familyId: string): number;
  /** Durable records with `seq > after`, in order, at most `limit` of them. */
  read(familyId: string, after: number, limit: number): ChangeRecord[];
  /**
   * Resolves with the new head once a record with `seq > after` is durable; resolves with the
   * head as it is when `signal` aborts (the caller checks why it woke).
   */
  next(familyId: string, after: number, signal?: AbortSignal): Promise<number>;
}

/** What the local log needs of the daemon. */
export interface LocalLogDeps {
  /** Change-log records with seq > after as stored (some may not be durable yet). */
  readLog(familyId: string, after: number, limit: number): ChangeRecord[];
  /** The durable head: the family's actor knows it; a family without one has nothing in flight. */
  durableHead(familyId: string): number;
}

interface Waiter {
  after: number;
  resolve: (head: number) => void;
}

/**
 * The log of this process. The store shows a committed transaction before it is flushed, so
 * reads stop at the durable head the family's actor knows, never past it; the actor's nudge
 * after each durable batch (`committed`) wakes the waiters.
 */
export class LocalFollowedLog implements FollowedLog {
  private readonly waiters = new Map<string, Set<Waiter>>();

  constructor(private readonly deps: LocalLogDeps) {}

  /** The actor's nudge: the family's log is durable up to `lastSeq`. */
  committed(familyId: string, lastSeq: number): void {
    const waiting = this.waiters.get(familyId);
    if (!waiting) return;
    for (const w of waiting) {
      if (lastSeq > w.after) {
        waiting.delete(w);
        w.resolve(lastSeq);
      }
    }
    if (!waiting.size) this.waiters.delete(familyId);
  }

  head(familyId: string): number {
    return this.deps.durableHead(familyId);
  }

  read(familyId: string, after: number, limit: number): ChangeRecord[] {
    const head = this.head(familyId);
    if (after >= head) return [];
    const records = this.deps.readLog(familyId, after, Math.min(limit, head - after));
    let n = records.length;
    while (n > 0 && records[n - 1].seq > head) n--;
    return n === records.length ? records : records.slice(0, n);
  }

  next(familyId: string, after: number, signal?: AbortSignal): Promise<number> {
    const head = this.head(familyId);
    if (head > after || signal?.aborted) return Promise.resolve(head);
    return new Promise<number>((resolve) => {
      let set = this.waiters.get(familyId);
      if (!set) this.waiters.set(familyId, (set = new Set()));
      const w: Waiter = {
        after,
        resolve: (h) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(h);
        },
      };
      const onAbort = () => {
        set.delete(w);
        if (!set.size) this.waiters.delete(familyId);
        resolve(this.head(familyId));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      set.add(w);
    });
  }
}

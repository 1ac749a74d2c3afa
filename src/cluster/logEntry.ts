/**
 * One message of a family's log in JetStream (log.ts): a commit batch or an owner's fence, the
 * chain it belongs to (`prev`) and the one rule of when it counts, and the two refusals of an
 * append. The writer (log.ts) and the readers (replicated.ts, follower.ts) share these.
 */
import type { CommitBatch } from '../store/ports.js';

/** One message of a family's subject. */
export type LogEntry = (
  | /** A commit batch: `lastSeq` is the family's change-log seq after it. */
    {
      v: 1;
      kind: 'batch';
      node: string;
      lastSeq: number;
      batch: Omit<CommitBatch, 'expectedLastSeq'>;
    }
    /** A node took the family: whoever appended before must now be refused (the fence). */
  | { v: 1; kind: 'owner'; node: string; lastSeq: number }
) &
  Chained;

/** The chain an entry belongs to (see the top of this file). */
export interface Chained {
  /**
   * The stream sequence of the subject's message the writer appended after (0: none), set by
   * `append`. Absent in entries written before it was recorded: those always count.
   */
  prev?: number;
}

export interface StoredEntry {
  streamSeq: number;
  entry: LogEntry;
  /** Whether the entry counts: false for one stored beside another with the same `prev`. */
  valid: boolean;
}

/** Where an append landed. */
export interface Appended {
  /** The stream sequence of the entry that counts (an earlier attempt's, after a retry). */
  seq: number;
  /** Entries that do not count may follow it (repeats of it): the writer reads past them. */
  more: boolean;
}

/** Whether an entry read right after `before` counts. */
export function counts(entry: Chained, before: number): boolean {
  return entry.prev === undefined || entry.prev === before;
}

/** The append was refused because someone else appended first (this writer is fenced). */
export class FencedError extends Error {}
/** The batch is larger than the servers accept in one message (`max_payload`). */
export class EntryTooLargeError extends Error {}

/** Set on messages every node's follower must apply (follower.ts); absent, it skips them. */
export const SHARED_HEADER = 'Household-Shared';

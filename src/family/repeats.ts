/**
 * Repeats of a request sent with an `Idempotency-Key`, as the family actor sees them. The
 * actor is where a write is decided — after the family's takeover caught its state up with
 * the log (on a cluster node), against the very state the decision reads — so it is where a
 * repeat is recognised for certain: the HTTP middleware's look at the store before the
 * request reaches the actor is a fast path only (docs/scaling.md, "Exactly once").
 */
import type { IdempotencyRecord, IdempotencyWrite } from '../store/types.js';

/** How a command keeps its answer under an Idempotency-Key (set by the REST door). */
export interface KeptAnswer<A> {
  /** The API key the answer is kept for. */
  keyId: string;
  /** Where it is kept (a hash of the Idempotency-Key: src/door/replaySeal.ts). */
  slot: string;
  /**
   * Whether an answer already kept in the slot makes this command a repeat: true for a
   * request's commands until one of them kept its answer, false after (a later command of the
   * same request replaces the answer, as a notification's settled delivery does).
   */
  repeatCheck: boolean;
  /** The record to keep for the answer, committed with the change (null: nothing to keep). */
  keep: (answer: A) => IdempotencyWrite | null;
}

/**
 * The command is a repeat: an answer is kept in its slot. Nothing was decided; the caller
 * answers from the record (the same answer, or 422 when it was kept for another request).
 */
export class AnsweredBefore extends Error {
  constructor(readonly record: IdempotencyRecord) {
    super('a request with this Idempotency-Key was answered before');
  }
}

/** The command is a repeat of one decided in the same batch, not yet durable: 409. */
export class AnswerInFlight extends Error {
  constructor() {
    super('a request with this Idempotency-Key is still being processed');
  }
}

/** The slot's identity within a batch. */
export function slotOf(kept: Pick<KeptAnswer<unknown>, 'keyId' | 'slot'>): string {
  return `${kept.keyId}\u0000${kept.slot}`;
}

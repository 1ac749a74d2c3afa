/**
 * The family actor: the one place a family's state lives in memory and the one path its writes
 * take (docs/design.md, "The write path").
 *
 * Commands wait in a mailbox and are handled in arrival order, in batches (group commit):
 *   1. decide — each queued command's pure decider turns (state, command, now, ids) into
 *      changes; a refused command (a domain error, a record that cannot be stored) fails alone;
 *   2. evolve — its changes are applied to memory at once, so the next command of the same
 *      batch decides on them, and its answer is rendered from exactly that state;
 *   3. commit — the whole batch (records, change log, indexes, agenda jobs, idempotency answers)
 *      goes to LMDB in one transaction;
 *   4. answer — only once that transaction is durable.
 * While a batch is being written, new commands queue and reads wait: memory is ahead of the
 * disk only during that window, and nobody — API, public page, feed, webhook — reads it then.
 * When the batch is durable the waiting reads run first, then the next batch is decided.
 * If the commit fails (a full disk, an I/O error), only the batch's own requests fail; the
 * family is reloaded from disk (so no sequence number is lost) and the queue goes on. What one
 * batch holds, and the change-log records a decision adds to it, are in batch.ts.
 */
import type {
  AgendaReads,
  BatchCommits,
  Directory,
  IdempotencyRecords,
  LogReads,
} from '../store/ports.js';
import type { ChangeRecord } from '../store/types.js';
import { DomainError } from '../domain/shared/errors.js';
import { decideUpdateFamily } from '../domain/family/settings.js';
import type { IdGenerator } from '../domain/shared/ids.js';
import {
  FamilyState,
  type Caller,
  type Command,
  type Decision,
  type FamilyInfo,
  type Reactions,
} from '../domain/shared/state.js';
import { seedRecords } from '../domain/areas.js';
import { AGENDA_TABLE } from '../domain/shared/agenda.js';
import { applyDecision } from '../domain/shared/decision.js';
import { assertStorable } from './storable.js';
import { AnsweredBefore, AnswerInFlight, slotOf, type KeptAnswer } from './repeats.js';
import {
  addToBatch,
  changeRecords,
  decisionWrites,
  newBatch,
  writesNothing,
  type Batch,
} from './batch.js';

export interface ActorDeps {
  /** The seams an actor and its registry use (src/store/ports.ts), not the whole store. */
  store: BatchCommits &
    LogReads &
    AgendaReads &
    Pick<IdempotencyRecords, 'getIdempotency'> &
    Pick<Directory, 'getFamily' | 'lookupIndex' | 'queuedFamilyUpdate'>;
  now: () => Date;
  newId: IdGenerator;
  publicUrl: string;
  /** Every area's reactions, composed once from the list of areas (`areaReactions`). */
  react: Reactions;
  /** Which outbound channels are configured (email, push, sms), handed to deciders. */
  transports?: { email: boolean; push: boolean; sms: boolean };
  /** Nudged once a batch is durable: the family and its last durable sequence number. */
  onCommitted?: (family: FamilyInfo, lastSeq: number) => void;
  /** Told once a batch that put agenda jobs is durable: the earliest due time it put. */
  onAgendaChanged?: (earliestDueAt: number) => void;
}

export interface ExecuteOptions<R, A> {
  /**
   * The answer, rendered from the state right after this command (before any later one); it
   * may show the change-log records the command made (a display's action answers its change).
   */
  answer?: (result: R, state: FamilyState, log: readonly ChangeRecord[]) => A;
  /**
   * The request's Idempotency-Key: a command whose answer is already kept is not decided
   * again (it rejects with AnsweredBefore, or AnswerInFlight within one batch); otherwise its
   * answer is kept in the same transaction as its change.
   */
  idempotency?: KeptAnswer<A>;
}

/** A decided command and what it is answered once its batch is durable. */
interface Answered {
  q: Queued;
  answer: unknown;
  failed?: unknown;
}

interface Queued {
  command: Command<unknown>;
  ref: Caller;
  opts: ExecuteOptions<unknown, unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export class FamilyActor {
  readonly state: FamilyState;
  /** The last sequence number handed out (decided, maybe not yet durable). */
  private lastAssignedSeq: number;
  /** The last sequence number on disk. */
  private durableSeq: number;
  private queue: Queued[] = [];
  private writing = false;
  private waitingReads: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  lastUsed: number;

  private constructor(
    private readonly deps: ActorDeps,
    family: FamilyInfo,
  ) {
    this.state = new FamilyState(family);
    this.lastAssignedSeq = this.durableSeq = this.load();
    this.lastUsed = deps.now().getTime();
  }

  /**
   * Loads a family's state from the store. Missing seed records (built-ins) are added and
   * committed before the actor answers anything.
   */
  static async activate(deps: ActorDeps, family: FamilyInfo): Promise<FamilyActor> {
    // The stored settings, not the caller's copy (a key cache may hold one from before a change).
    const actor = new FamilyActor(deps, deps.store.getFamily(family.id) ?? family);
    const missing = seedRecords(actor.family, deps.now().toISOString(), actor.state);
    if (missing.length) {
      await deps.store.commit(family.id, { records: missing });
      actor.state.apply(missing);
    }
    // A `family update` queued while nobody held the family: applied before anything else runs.
    // If it cannot be written now, it stays queued and the daemon's poll tries again.
    await actor.applyQueuedUpdate().catch(() => undefined);
    return actor;
  }

  /**
   * Runs the `family update` the CLI queued for this family, if any, as a command (the same
   * re-planning as the API's PATCH) that also removes it from the queue. One the domain refuses
   * (a zone this runtime no longer knows) is dropped rather than retried at every load.
   */
  async applyQueuedUpdate(): Promise<FamilyInfo | null> {
    const queued = this.deps.store.queuedFamilyUpdate(this.state.family.id);
    if (!queued) return null;
    const ref: Caller = { keyId: null, personId: null, keyName: 'command line' };
    try {
      return await this.execute(
        (state, ctx) => decideUpdateFamily(state, queued.patch, ctx, queued.id),
        ref,
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      await this.execute(
        () => ({ result: null, changes: [], events: [], settlesQueuedUpdate: queued.id }),
        ref,
      );
      return null;
    }
  }

  get family(): FamilyInfo {
    return this.state.family;
  }
  /** The last change-log sequence number that is durable. */
  get lastDurableSeq(): number {
    return this.durableSeq;
  }
  get busy(): boolean {
    return this.writing || this.queue.length > 0 || this.waitingReads.length > 0;
  }

  /**
   * Runs `fn` on the family's durable state: at once when no write is in flight, else as soon
   * as the batch being written is durable (or has failed and the family is reloaded).
   */
  read<R>(fn: (state: FamilyState) => R): Promise<R> {
    this.lastUsed = this.deps.now().getTime();
    if (!this.writing) {
      // Runs at once; what fn throws becomes the rejection, as it is.
      return new Promise<R>((resolve) => {
        resolve(fn(this.state));
      });
    }
    return new Promise<R>((resolve, reject) => {
      this.waitingReads.push(() => {
        try {
          resolve(fn(this.state));
        } catch (err) {
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on what fn threw, as it is
          reject(err);
        }
      });
    });
  }

  /**
   * Runs a command through the mailbox and resolves with its answer (the result, or what
   * `opts.answer` renders from it) once its changes are durable. A domain error thrown by the
   * decider rejects this call only and writes nothing.
   */
  execute<R, A = R>(command: Command<R>, ref: Caller, opts: ExecuteOptions<R, A> = {}): Promise<A> {
    this.lastUsed = this.deps.now().getTime();
    return new Promise<A>((resolve, reject) => {
      this.queue.push({
        command: command,
        ref,
        opts: opts as ExecuteOptions<unknown, unknown>,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  /** Resolves when nothing is queued or being written. */
  drain(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Decides everything queued and writes it as one batch (see the steps at the top). */
  private pump(): void {
    if (this.writing || this.queue.length === 0) {
      if (!this.busy) this.wakeIdle();
      return;
    }
    const items = this.queue;
    this.queue = [];
    const now = this.deps.now();
    // Only this actor appends to the family's log: a log that moved meanwhile is refused.
    const batch = newBatch(this.durableSeq);
    const answered: Answered[] = [];
    const slots = new Set<string>();
    for (const q of items) {
      const a = this.decideOne(q, batch, now, slots);
      if (a) answered.push(a);
    }
    if (writesNothing(batch)) {
      // Only answers (e.g. re-linking what is linked): memory equals the disk, answer now.
      for (const a of answered) settle(a);
      this.pump();
      return;
    }
    this.commit(batch, answered);
  }

  /**
   * Steps 1 and 2 for one command: the repeat check, decide, evolve, render its answer, and
   * add what it writes to the batch. Returns what to answer once the batch is durable, or
   * nothing when the command was refused at once.
   */
  private decideOne(q: Queued, batch: Batch, now: Date, slots: Set<string>): Answered | null {
    // 0. a repeat of an answered request is not decided again: the state the decision would
    //    read is the state the answer's record is in (the same batch included)
    const kept = q.opts.idempotency;
    if (kept?.repeatCheck) {
      const prior = this.deps.store.getIdempotency(kept.keyId, kept.slot, now.getTime());
      const repeat = prior
        ? new AnsweredBefore(prior)
        : slots.has(slotOf(kept))
          ? new AnswerInFlight()
          : null;
      if (repeat) {
        q.reject(repeat);
        return null;
      }
    }
    // 1. decide
    let decision: Decision<unknown>;
    try {
      decision = q.command(this.state, {
        now,
        newId: this.deps.newId,
        caller: q.ref,
        family: this.state.family,
        publicUrl: this.deps.publicUrl,
        lastSeq: this.lastAssignedSeq,
        react: this.deps.react,
        ...(this.deps.transports ? { transports: this.deps.transports } : {}),
      });
      assertStorable(decision);
    } catch (err) {
      q.reject(err);
      return null;
    }
    const log = changeRecords(decision, q.ref, now, {
      newId: this.deps.newId,
      nextSeq: () => ++this.lastAssignedSeq,
    });
    // 2. evolve, and render the answer from exactly this state
    applyDecision(this.state, decision);
    let answer: unknown = decision.result;
    let failed: unknown;
    try {
      if (q.opts.answer) answer = q.opts.answer(decision.result, this.state, log);
    } catch (err) {
      failed = err;
    }
    addToBatch(batch, decision, log);
    if (failed !== undefined) return { q, answer: undefined, failed };
    if (decisionWrites(decision) && kept) {
      const record = kept.keep(answer);
      if (record) batch.idempotency.push(record);
      slots.add(slotOf(kept));
    }
    return { q, answer };
  }

  /** Steps 3 and 4: writes the batch, then answers (or fails its requests and reloads). */
  private commit(batch: Batch, answered: Answered[]): void {
    this.writing = true;
    const upTo = this.lastAssignedSeq;
    this.deps.store.commit(this.state.family.id, batch).then(
      () => {
        // 4. answer, let the waiting reads see the durable state, then the next batch
        this.durableSeq = upTo;
        this.writing = false;
        for (const a of answered) settle(a);
        this.runWaitingReads();
        if (batch.log.length) this.deps.onCommitted?.(this.state.family, upTo);
        const puts = batch.agenda.flatMap((a) => ('put' in a ? [a.put.dueAt] : []));
        if (puts.length) this.deps.onAgendaChanged?.(Math.min(...puts));
        this.pump();
      },
      (err: unknown) => {
        // Memory is ahead of the disk: forget it and reload what is durable.
        this.lastAssignedSeq = this.durableSeq = this.reload();
        this.writing = false;
        for (const a of answered) a.q.reject(err);
        this.runWaitingReads();
        this.pump();
      },
    );
  }

  private load(): number {
    const loaded: { table: string; id: string; value: unknown }[] = [];
    for (const r of this.deps.store.familyRecords(this.state.family.id)) loaded.push(r);
    for (const job of this.deps.store.familyJobs(this.state.family.id)) {
      const { familyId: _family, ...own } = job;
      loaded.push({ table: AGENDA_TABLE, id: job.id, value: own });
    }
    this.state.apply(loaded);
    return this.deps.store.lastSeq(this.state.family.id);
  }

  private reload(): number {
    this.state.reset();
    // The family's settings may have been part of the failed batch: take them from disk too.
    this.state.family = this.deps.store.getFamily(this.state.family.id) ?? this.state.family;
    return this.load();
  }

  private runWaitingReads(): void {
    const reads = this.waitingReads;
    this.waitingReads = [];
    for (const r of reads) r();
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

function settle(a: Answered): void {
  if (a.failed !== undefined) a.q.reject(a.failed);
  else a.q.resolve(a.answer);
}

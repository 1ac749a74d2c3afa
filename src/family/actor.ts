/**
 * The family actor: the one place a family's state lives in memory and the one path its writes
 * take (DESIGN §1).
 *
 * Every command goes through the mailbox in arrival order:
 *   1. decide — the pure domain function turns (state, command, now, ids) into changes;
 *   2. evolve — the changes are applied to memory at once, so the next command decides on them;
 *   3. commit — the records and their change-log records go to LMDB in one transaction;
 *   4. answer — only after that transaction is durable.
 * Commits of consecutive commands overlap (lmdb-js groups them into one disk flush), which is
 * what lets one family take thousands of durable writes a second while the order of the change
 * log is still the mailbox order. If a commit ever fails, the actor is marked broken: later
 * commits abort inside their transaction, every waiting request gets an error, and the registry
 * drops the actor so the next request reloads the state from disk.
 */
import type { Store } from '../store/store.js';
import type { ChangeRecord } from '../store/types.js';
import { DomainError } from '../domain/shared/errors.js';
import type { IdGenerator } from '../domain/shared/ids.js';
import { FamilyState, type ActorRef, type Command, type Decision, type FamilyInfo } from '../domain/shared/state.js';
import { seedRecords } from '../domain/seeds.js';

export interface ActorDeps {
  store: Store;
  now: () => Date;
  newId: IdGenerator;
  publicUrl: string;
  /** Called after a commit is durable with the new change-log records (webhooks, agenda). */
  onCommitted?: (family: FamilyInfo, records: readonly ChangeRecord[]) => void;
}

export class FamilyActor {
  readonly state: FamilyState;
  private seq: number;
  private pending = 0;
  private tail: Promise<void> = Promise.resolve();
  private broken: Error | null = null;
  lastUsed = Date.now();

  private constructor(private readonly deps: ActorDeps, family: FamilyInfo) {
    this.state = new FamilyState(family);
    const s = deps.store;
    const loaded: { table: string; id: string; value: unknown }[] = [];
    for (const r of s.familyRecords(family.id)) loaded.push(r);
    this.state.apply(loaded);
    this.seq = s.lastSeq(family.id);
  }

  /**
   * Loads a family's state from the store. Missing seed records (built-ins) are added and
   * committed before the actor answers anything.
   */
  static async activate(deps: ActorDeps, family: FamilyInfo): Promise<FamilyActor> {
    const actor = new FamilyActor(deps, family);
    const missing = seedRecords(family, deps.now().toISOString(), actor.state);
    if (missing.length) {
      await deps.store.commit(family.id, missing, []);
      actor.state.apply(missing);
    }
    return actor;
  }

  get family(): FamilyInfo { return this.state.family; }
  get lastCommittedSeq(): number { return this.seq; }
  get busy(): boolean { return this.pending > 0; }
  get isBroken(): boolean { return this.broken !== null; }

  /** Runs a read against memory. Reads never wait for the disk. */
  read<R>(fn: (state: FamilyState) => R): R {
    this.lastUsed = Date.now();
    return fn(this.state);
  }

  /**
   * Runs a command through the mailbox and resolves with its result once its changes are
   * durable. A DomainError thrown by the decider rejects this call only and writes nothing.
   */
  execute<R>(command: Command<R>, actor: ActorRef): Promise<R> {
    this.lastUsed = Date.now();
    if (this.broken) return Promise.reject(this.broken);
    const now = this.deps.now();
    // 1. decide (synchronously: the mailbox order is the call order on the event loop)
    let decision: Decision<R>;
    try {
      decision = command(this.state, {
        now, newId: this.deps.newId, actor, family: this.state.family, publicUrl: this.deps.publicUrl,
      });
    } catch (err) {
      return Promise.reject(err);
    }
    if (decision.changes.length === 0 && decision.events.length === 0 && !decision.indexes?.length) return Promise.resolve(decision.result);
    const at = now.toISOString();
    const log: ChangeRecord[] = decision.events.map((e) => ({
      seq: ++this.seq, at, type: e.type, actor: { keyId: actor.keyId, personId: actor.personId },
      object: e.object, ...(e.previous !== undefined ? { previous: e.previous } : {}),
    }));
    // 2. evolve
    this.state.apply(decision.changes);
    // 3. commit (overlapping with later commands' commits, in order)
    this.pending++;
    const committed = this.deps.store.commit(this.state.family.id, decision.changes, log, () => this.broken === null, decision.indexes);
    const done = committed.then(
      () => {
        this.pending--;
        if (log.length) this.deps.onCommitted?.(this.state.family, log);
        return decision.result;
      },
      (err: unknown) => {
        this.pending--;
        this.broken ??= err instanceof Error ? err : new Error(String(err));
        throw this.broken;
      },
    );
    this.tail = done.then(() => undefined, () => undefined);
    // 4. answer when durable
    return done;
  }

  /** Resolves when every accepted command's commit has finished. */
  async drain(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }
}

export function isExpected(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

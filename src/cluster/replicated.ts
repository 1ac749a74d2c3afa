/**
 * The write path of a cluster node (the `BatchCommits` seam): a family's batch is appended to
 * its JetStream subject first, and applied to the node's LMDB only once JetStream acknowledged
 * it, so LMDB is the rebuilt state of the families this node owns — never the only copy. Only
 * the lease holder writes; taking a family means catching its LMDB up from the log and then
 * appending an `owner` entry, so that whoever wrote before (a paused former owner) is refused
 * by JetStream's expected-last-subject-sequence check on its next append.
 *
 * How far this node's LMDB has applied a family's subject is a checkpoint (`CHECKPOINT`)
 * written in the same LMDB transaction as the batch it follows: a crash between the
 * acknowledgement and the local write leaves the checkpoint behind, and the catch-up replays.
 */
import { StoreWriteError } from '../store/errors.js';
import { OwnedElsewhere } from '../family/ownership.js';
import type { BatchCommits, CommitBatch, LogReads } from '../store/ports.js';
import type { JetStreamLog } from './log.js';
import { FencedError, type Appended, type LogEntry } from './logEntry.js';
import type { HeldLease, Leases } from './lease.js';

/** The checkpoint consumer name of the applied JetStream stream sequence. */
export const CHECKPOINT = 'cluster.stream';

export type LocalStore = BatchCommits & Pick<LogReads, 'getCheckpoint'>;

export interface ReplicationStats {
  appends: number;
  fenced: number;
  replayed: number;
  /** Entries read and passed over: stored beside another with the same expectation. */
  ignored: number;
  takeovers: number;
}

/** What the node is told when it takes a family or loses it (the daemon drops its actor). */
export interface OwnershipEvents {
  taken(familyId: string): void;
  lost(familyId: string): void;
}

export class ReplicatedCommits implements BatchCommits {
  /** Per family: the tail of its queued commits, so appends leave in order, one at a time. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Takeovers under way, so that concurrent first requests of a family share one. */
  private readonly taking = new Map<string, Promise<HeldLease | null>>();
  events: OwnershipEvents = { taken: () => undefined, lost: () => undefined };
  readonly stats: ReplicationStats = {
    appends: 0,
    fenced: 0,
    replayed: 0,
    ignored: 0,
    takeovers: 0,
  };

  constructor(
    private readonly local: LocalStore,
    private readonly log: JetStreamLog,
    private readonly leases: Leases,
  ) {}

  get node(): string {
    return this.leases.node;
  }

  lastSeq(familyId: string): number {
    return this.local.lastSeq(familyId);
  }

  /**
   * Takes the family when nobody holds it (or this node already does): catches the local
   * copy up from the log and fences earlier writers. Resolves with the lease, or null when
   * another node owns the family.
   */
  own(familyId: string): Promise<HeldLease | null> {
    // The lease is held from its acquisition on, but the family is this node's only once the
    // catch-up and the fence are done: until then, whoever asks waits for them.
    const taking = this.taking.get(familyId);
    if (taking) return taking;
    const held = this.leases.holding(familyId);
    if (held) return Promise.resolve(held);
    const took = this.take(familyId).finally(() => this.taking.delete(familyId));
    this.taking.set(familyId, took);
    return took;
  }

  private async take(familyId: string): Promise<HeldLease | null> {
    const lease = await this.leases.acquire(familyId);
    if (!lease) return null;
    await this.enqueue(familyId, async () => {
      const head = await this.catchUp(familyId);
      const lastSeq = this.local.lastSeq(familyId);
      const entry: LogEntry = { v: 1, kind: 'owner', node: this.node, lastSeq };
      const landed = await this.log.append(familyId, entry, head);
      const checkpoint = { consumer: CHECKPOINT, seq: landed.seq };
      await this.local.commit(familyId, { checkpoints: [checkpoint] });
      if (landed.more) await this.pastRepeats(familyId);
      this.stats.takeovers += 1;
      this.events.taken(familyId);
    }).catch((err: unknown) => {
      // Someone appended between the catch-up and the fence: try again on the next call.
      this.leases.drop(familyId);
      throw err;
    });
    return lease;
  }

  /**
   * Whether this node holds the family and its local copy is caught up: false while a takeover
   * is still replaying (the lease is won, the state not yet complete).
   */
  ready(familyId: string): boolean {
    return !this.taking.has(familyId) && this.leases.holding(familyId) !== undefined;
  }

  /** Applies every entry of the family's log this node's LMDB lacks; the subject's head. */
  async catchUp(familyId: string): Promise<number> {
    return (await this.apply(familyId)).head;
  }

  /**
   * Applies the entries after this node's checkpoint. Those that do not count (log.ts: stored
   * beside another with the same expectation) are passed over, the checkpoint moving past
   * them. Says how many that count another node wrote.
   */
  private async apply(familyId: string): Promise<{ head: number; foreign: number }> {
    let head = this.local.getCheckpoint(CHECKPOINT, familyId);
    let foreign = 0;
    for await (const { streamSeq, entry, valid } of this.log.read(familyId, head)) {
      const checkpoint = { consumer: CHECKPOINT, seq: streamSeq };
      const batch: CommitBatch =
        valid && entry.kind === 'batch'
          ? { ...entry.batch, checkpoints: [...(entry.batch.checkpoints ?? []), checkpoint] }
          : { checkpoints: [checkpoint] };
      await this.local.commit(familyId, batch);
      head = streamSeq;
      if (valid) this.stats.replayed += 1;
      else this.stats.ignored += 1;
      if (valid && entry.node !== this.node) foreign += 1;
    }
    return { head, foreign };
  }

  /**
   * After an append whose earlier attempt is the one that counts: reads past the repeats that
   * follow it, so the next append names the subject's real head. An entry of another node
   * among them means that node took the family meanwhile: this one lost it.
   */
  private async pastRepeats(familyId: string): Promise<void> {
    const { foreign } = await this.apply(familyId);
    if (foreign > 0) {
      this.leases.drop(familyId);
      this.events.lost(familyId);
    }
  }

  /**
   * Appends the batch to the family's subject and, once acknowledged, writes it to LMDB. The
   * guard and the expected seq are checked before the append (the log, once written, is the
   * truth). Another node holding the lease → OwnedElsewhere (the front forwards the request); fenced → the lease is dropped and the
   * commit fails with StoreWriteError; nothing of the batch is written locally in either case.
   */
  async commit(familyId: string, batch: CommitBatch, guard?: () => boolean): Promise<void> {
    // A lapsed lease nobody else took (a renewal lost while NATS elected a leader) is taken
    // again the regular way: catch up, fence, then write.
    if (!this.leases.holding(familyId)) await this.own(familyId).catch(() => null);
    return this.enqueue(familyId, async () => {
      if (!this.leases.holding(familyId)) {
        const owner = await this.leases.owner(familyId).catch(() => null);
        throw new OwnedElsewhere(familyId, owner);
      }
      if (guard && !guard()) throw new StoreWriteError('failed', 'commit refused by its guard');
      const { expectedLastSeq, ...rest } = batch;
      const last = this.local.lastSeq(familyId);
      if (expectedLastSeq !== undefined && last !== expectedLastSeq) {
        throw new StoreWriteError(
          'failed',
          `the family's log ends at ${last}, not at ${expectedLastSeq} as the batch expected`,
        );
      }
      const lastSeq = rest.log?.length ? rest.log[rest.log.length - 1].seq : last;
      const entry: LogEntry = { v: 1, kind: 'batch', node: this.node, lastSeq, batch: rest };
      const head = this.local.getCheckpoint(CHECKPOINT, familyId);
      let landed: Appended;
      try {
        landed = await this.log.append(familyId, entry, head);
      } catch (err) {
        if (err instanceof FencedError) {
          this.stats.fenced += 1;
          this.leases.drop(familyId);
          this.events.lost(familyId);
          throw new StoreWriteError('failed', err.message, err);
        }
        const why = `the cluster log refused the batch: ${(err as Error).message}`;
        throw new StoreWriteError('failed', why, err);
      }
      this.stats.appends += 1;
      const checkpoint = { consumer: CHECKPOINT, seq: landed.seq };
      const checkpoints = [...(rest.checkpoints ?? []), checkpoint];
      await this.local.commit(familyId, { ...rest, checkpoints });
      if (landed.more) await this.pastRepeats(familyId);
    });
  }

  private enqueue<T>(familyId: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(familyId) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    this.queues.set(familyId, tail);
    void tail.then(() => {
      if (this.queues.get(familyId) === tail) this.queues.delete(familyId);
    });
    return run;
  }
}

/**
 * The outbox: follows each family's change log from its checkpoint and hands the deliveries the
 * records owe to the sender (docs/webhooks.md).
 *
 * `onCommitted` only nudges it (family, last durable sequence); it never trusts records handed
 * over in memory. A pass for a family:
 *   1. reads the durable checkpoint (a record in the family's own tables) the first time, and
 *      from then on goes on from what it has read into memory;
 *   2. reads the log after that, up to the family's durable sequence, a page at a time, while
 *      the family's open deliveries in memory stay under READ_AHEAD;
 *   3. turns each record into one delivery per enabled destination subscribed to its type and
 *      created before it — skipping a pair that already has its job (a retry made before a
 *      crash: it stays the job's) — and hands them to the sender: no write on the way;
 *   4. the recorder moves the durable checkpoint past a record once all its deliveries have
 *      settled, in the command that records them (checkpoint.ts).
 * One pass per family runs at a time; a nudge during a pass makes it go round once more.
 * Families without an enabled destination are skipped without a read.
 */
import type { Logger } from 'pino';
import type { FamilyRegistry } from '../family/registry.js';
import type { Directory, LogReads } from '../store/ports.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import type { IdGenerator } from '../domain/shared/ids.js';
import { AGENDA_TABLE } from '../domain/shared/agenda.js';
import { hasEnabledDestination } from '../domain/webhooks/destinations.js';
import { decideReclaim, outboxCheckpoint, wants } from '../domain/webhooks/jobs.js';
import {
  DESTINATIONS,
  OUTBOX,
  OUTBOX_ID,
  jobIdOf,
  type DestinationRecord,
} from '../domain/webhooks/types.js';
import { CheckpointTracker, READ_AHEAD } from './checkpoint.js';
import { fromJob, type Delivery } from './delivery.js';
import { WEBHOOKS_CALLER, type Recorder } from './recorder.js';

/** Records per read. */
const PAGE = 500;
/**
 * Deliveries the sender may hold (queued or sending) before the outbox stops reading: with the
 * per-family READ_AHEAD it bounds the memory a backlog takes, across any number of families.
 */
export const QUEUE_CAP = 4_096;
/**
 * A pass waits this long before it reads, so that one read covers the writes of a busy family
 * that land meanwhile.
 */
const GATHER_MS = 5;

/** Where the outbox hands its deliveries (the sender), seen as a queue with a size. */
export interface DeliverySink {
  submit(deliveries: readonly Delivery[]): void;
  /** Deliveries handed over and not settled yet. */
  readonly pending: number;
}

export interface OutboxDeps {
  store: Pick<LogReads, 'getRecord' | 'readLog'> & Pick<Directory, 'listFamilies'>;
  registry: FamilyRegistry;
  sink: DeliverySink;
  recorder: () => Recorder;
  now: () => Date;
  newId: IdGenerator;
  logger: Logger;
  boot: string;
  leaseMs: number;
}

export class Outbox {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly trackers = new Map<string, CheckpointTracker>();
  /** Families that stopped reading because the sender was full; read again when it has room. */
  private readonly starved = new Map<string, FamilyInfo>();
  private stopped = false;

  constructor(private readonly deps: OutboxDeps) {}

  tracker(familyId: string): CheckpointTracker | undefined {
    return this.trackers.get(familyId);
  }

  /** The sender has room again: the families that stopped for it read on. */
  room(): void {
    if (!this.starved.size) return;
    const families = Array.from(this.starved.values());
    this.starved.clear();
    for (const f of families) this.nudge(f);
  }

  /** A family's log grew (durably), or its deliveries settled and it may read further. */
  nudge(family: FamilyInfo): void {
    if (this.stopped) return;
    // Cheap in-memory look: the actor that just committed is in memory.
    const actor = this.deps.registry.peek(family.id);
    if (actor && !hasEnabledDestination(actor.state)) {
      // Nothing is owed to anyone: what the outbox held is unwanted now (the sender drops it).
      if (!this.trackers.get(family.id)?.size) this.trackers.delete(family.id);
      return;
    }
    // Stopped for the sender's room: `room()` nudges it again (no pass per write meanwhile).
    if (this.starved.has(family.id)) return;
    if (this.running.has(family.id)) {
      this.again.add(family.id);
      return;
    }
    const p = this.pass(family)
      .catch((err: unknown) =>
        this.deps.logger.error(
          { err, family: family.slug },
          'the webhook outbox pass failed; the next write or start retries it',
        ),
      )
      .finally(() => {
        this.running.delete(family.id);
        if (this.again.delete(family.id)) this.nudge(family);
      });
    this.running.set(family.id, p);
  }

  /**
   * At start: every family that follows its log for webhooks catches up, and takes over the
   * deliveries an earlier run had leased (it stopped or crashed while they waited to be sent).
   */
  async start(): Promise<void> {
    for (const family of this.deps.store.listFamilies()) {
      if (this.stopped) return;
      await this.resume(family);
    }
  }

  /**
   * One family's part of `start`: also what a cluster node does when it takes a family over
   * (src/cluster/topology.ts), so deliveries resume from the replicated checkpoint with the same
   * webhook-ids.
   */
  async resume(family: FamilyInfo): Promise<void> {
    const { store, registry, sink, now, boot, leaseMs } = this.deps;
    if (this.stopped) return;
    if (store.getRecord(family.id, OUTBOX, OUTBOX_ID) === undefined) return;
    try {
      const actor = await registry.get(family);
      const jobs = await actor.execute(
        (s) => decideReclaim(s, { boot, until: now().getTime() + leaseMs }),
        WEBHOOKS_CALLER,
      );
      sink.submit(jobs.map((j) => fromJob(family, j)));
      this.nudge(family);
    } catch (err) {
      this.deps.logger.error(
        { err, family: family.slug },
        'could not resume the webhook outbox of a family',
      );
    }
  }

  stop(): Promise<void> {
    this.stopped = true;
    return Promise.allSettled(Array.from(this.running.values())).then(() => undefined);
  }

  get busy(): boolean {
    return this.running.size > 0;
  }

  /** Resolves when no pass is running (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled(Array.from(this.running.values()));
  }

  private async pass(family: FamilyInfo): Promise<void> {
    const { store, registry, sink, newId } = this.deps;
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
    for (;;) {
      if (this.stopped) return;
      const actor = await registry.get(family);
      const upTo = actor.lastDurableSeq;
      // Read and turned into deliveries on the durable state in one go, so that what the
      // destinations were and which jobs exist belong to the same moment.
      const out = await actor.read((s) => {
        if (!hasEnabledDestination(s)) return null;
        const checkpoint = outboxCheckpoint(s);
        let t = this.trackers.get(family.id);
        if (!t) this.trackers.set(family.id, (t = new CheckpointTracker(checkpoint, checkpoint)));
        // The checkpoint jumps when the first destination is enabled (nothing was owed before).
        if (checkpoint > t.readTo) t.readTo = checkpoint;
        if (checkpoint > t.durable) t.durable = checkpoint;
        if (t.readTo >= upTo || t.size >= READ_AHEAD) return null;
        const room = QUEUE_CAP - sink.pending;
        if (room <= 0) {
          this.starved.set(family.id, family);
          return null;
        }
        const destinations = Array.from(s.table<DestinationRecord>(DESTINATIONS).values());
        const deliveries: Delivery[] = [];
        let read = 0;
        for (const record of store.readLog(family.id, t.readTo, Math.min(PAGE, upTo - t.readTo))) {
          if (record.seq > upTo) break;
          read++;
          const event = { record, body: null };
          let owed = 0;
          for (const d of destinations) {
            if (!wants(d, record)) continue;
            const key = jobIdOf(d.id, record.id);
            if (s.get(AGENDA_TABLE, key)) continue;
            owed++;
            deliveries.push({
              family,
              key,
              destinationId: d.id,
              deliveryId: newId('dlv'),
              eventId: record.id,
              seq: record.seq,
              type: record.type,
              attempt: 0,
              job: null,
              event,
              queuedAt: performance.now(),
            });
          }
          t.read(record.seq, owed);
          if (t.size >= READ_AHEAD || deliveries.length >= room) break;
        }
        return { deliveries, read };
      });
      if (!out || !out.read) return;
      if (out.deliveries.length) sink.submit(out.deliveries);
      // Records that owed nothing move the checkpoint too.
      else this.deps.recorder().touch(family);
    }
  }
}

/**
 * The outbox: follows each family's change log from its checkpoint and turns the records into
 * delivery jobs (docs/webhooks.md).
 *
 * `onCommitted` only nudges it (family, last durable sequence); it never trusts records handed
 * over in memory. A pass for a family:
 *   1. reads the checkpoint from the family's durable state (a record in the family's own
 *      tables, so it commits atomically with the jobs it accounts for);
 *   2. reads the log after it, up to the family's durable sequence, a page at a time;
 *   3. executes ONE command carrying those records: its decision puts the jobs (leased to this
 *      process) and moves the checkpoint — a crash leaves both done or neither;
 *   4. hands the jobs to the sender once they are durable, and goes on while more is logged.
 * One pass per family runs at a time; a nudge during a pass makes it go round once more.
 * Families without an enabled destination are skipped without a read.
 */
import type { Logger } from 'pino';
import type { FamilyRegistry } from '../family/registry.js';
import type { Store } from '../store/store.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import { hasEnabledDestination } from '../domain/webhooks/destinations.js';
import { decideEnqueue, decideReclaim, outboxCheckpoint, type LogPointer } from '../domain/webhooks/deliveries.js';
import { OUTBOX, OUTBOX_ID } from '../domain/webhooks/types.js';
import { WEBHOOKS_ACTOR, type Deliverer } from './deliverer.js';

/** Records per enqueue command. */
const PAGE = 500;
/**
 * A pass waits this long before it reads, so that one enqueue covers the writes of a busy
 * family that land meanwhile instead of adding a commit after each of them.
 */
const GATHER_MS = 10;

export interface OutboxDeps {
  store: Store;
  registry: FamilyRegistry;
  deliverer: Deliverer;
  now: () => Date;
  logger: Logger;
  boot: string;
  leaseMs: number;
}

export class Outbox {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private stopped = false;

  constructor(private readonly deps: OutboxDeps) {}

  /** A family's log grew (durably). */
  nudge(family: FamilyInfo): void {
    if (this.stopped) return;
    // Cheap in-memory look: the actor that just committed is in memory.
    const actor = this.deps.registry.peek(family.id);
    if (actor && !hasEnabledDestination(actor.state)) return;
    if (this.running.has(family.id)) {
      this.again.add(family.id);
      return;
    }
    const p = this.pass(family)
      .catch((err: unknown) => this.deps.logger.error({ err, family: family.slug }, 'the webhook outbox pass failed; the next write or start retries it'))
      .finally(() => {
        this.running.delete(family.id);
        if (this.again.delete(family.id)) this.nudge(family);
      });
    this.running.set(family.id, p);
  }

  /**
   * At start: every family that follows its log for webhooks catches up, and takes over the
   * deliveries an earlier run had leased (it stopped or crashed while sending them).
   */
  async start(): Promise<void> {
    const { store, registry, deliverer, now, boot, leaseMs } = this.deps;
    for (const family of store.listFamilies()) {
      if (this.stopped) return;
      if (store.getRecord(family.id, OUTBOX, OUTBOX_ID) === undefined) continue;
      try {
        const actor = await registry.get(family);
        const jobs = await actor.execute((s) => decideReclaim(s, { boot, until: now().getTime() + leaseMs }), WEBHOOKS_ACTOR);
        deliverer.submit(family, jobs);
        this.nudge(family);
      } catch (err) {
        this.deps.logger.error({ err, family: family.slug }, 'could not resume the webhook outbox of a family');
      }
    }
  }

  stop(): Promise<void> {
    this.stopped = true;
    return Promise.allSettled(Array.from(this.running.values())).then(() => undefined);
  }

  get busy(): boolean { return this.running.size > 0; }

  /** Resolves when no pass is running (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled(Array.from(this.running.values()));
  }

  private async pass(family: FamilyInfo): Promise<void> {
    const { store, registry, deliverer, now, boot, leaseMs } = this.deps;
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
    for (;;) {
      if (this.stopped) return;
      const actor = await registry.get(family);
      // 1. checkpoint and durable end
      const [from, wanted] = await actor.read((s) => [outboxCheckpoint(s), hasEnabledDestination(s)] as const);
      const upTo = actor.lastDurableSeq;
      if (!wanted || from >= upTo) return;
      // 2. records after it, durable only
      const records: LogPointer[] = [];
      for (const r of store.readLog(family.id, from, Math.min(PAGE, upTo - from))) {
        if (r.seq > upTo) break;
        records.push({ seq: r.seq, id: r.id, type: r.type });
      }
      if (!records.length) return;
      // 3. one decision: jobs + checkpoint
      const jobs = await actor.execute((s, ctx) => decideEnqueue(s, records, { boot, until: now().getTime() + leaseMs }, ctx), WEBHOOKS_ACTOR);
      // 4. send them
      if (jobs.length) deliverer.submit(family, jobs);
    }
  }
}

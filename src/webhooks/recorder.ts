/**
 * Records delivery outcomes: ONE command per family per short window (docs/webhooks.md,
 * "Recording"), carrying every answer that came in meanwhile — history entries in answer order,
 * usage, each destination's stats once, retry jobs for failed first attempts — together with
 * the deliveries moved to the agenda because they waited too long, and the outbox checkpoint
 * moved past every record whose deliveries have now all settled. One such command per family
 * is in flight at a time; answers arriving meanwhile wait for the next.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { FamilyRegistry } from '../family/registry.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import {
  decideOutcomes,
  type AttemptOutcome,
  type OutcomeResult,
} from '../domain/webhooks/deliveries.js';
import { DELIVER_KIND, type DeliveryJob } from '../domain/webhooks/types.js';
import { READ_AHEAD, type CheckpointTracker } from './checkpoint.js';
import type { Delivery } from './delivery.js';
import type { Caller } from '../domain/shared/state.js';

/** Who records webhook outcomes in the change log (a disabled destination). */
export const WEBHOOKS_CALLER: Caller = { keyId: null, personId: null, keyName: 'webhooks' };

/**
 * How long answers gather before they are recorded together: a family receiving deliveries
 * adds about 1000 / WINDOW_MS commands a second to its writes, whatever their number.
 */
export const WINDOW_MS = 200;
/** After a failed recording command (a full disk), the next try waits this long. */
const RETRY_MS = 1_000;

interface Answer {
  delivery: Delivery;
  outcome: AttemptOutcome & { jitter: number };
}

interface FamilyQueue {
  family: FamilyInfo;
  answers: Answer[];
  spills: Delivery[];
  /**
   * A checkpoint move is owed even without answers (records that owed nothing, dropped deliveries).
   */
  touched: boolean;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
}

export interface RecorderDeps {
  registry: FamilyRegistry;
  config: Config;
  logger: Logger;
  boot: string;
  leaseMs: number;
  now: () => Date;
  random?: () => number;
  onOutcome?: (outcome: 'delivered' | 'failed' | 'gave_up', responseStatus: number | null) => void;
  /** The family's checkpoint tracker (the outbox's), if it reads the family's log. */
  tracker: (familyId: string) => CheckpointTracker | undefined;
  /** Deliveries of the family waiting too long in this process, taken out of the sender's queue. */
  takeStale: (familyId: string) => Delivery[];
  /** Deliveries now backed by a leased job, back to the sender. */
  resubmit: (family: FamilyInfo, deliveries: Delivery[]) => void;
  /** Records of the family settled: the outbox may read further. */
  settled: (family: FamilyInfo) => void;
}

export class Recorder {
  private readonly queues = new Map<string, FamilyQueue>();
  private idleWaiters: (() => void)[] = [];
  private stopping = false;

  constructor(private readonly deps: RecorderDeps) {}

  /** An attempt's answer (or failure) to record. */
  add(delivery: Delivery, outcome: AttemptOutcome): void {
    const q = this.queue(delivery.family);
    q.answers.push({
      delivery,
      outcome: { ...outcome, jitter: (this.deps.random ?? Math.random)() },
    });
    this.schedule(q);
  }

  /**
   * A first attempt that turned out unwanted (destination disabled, deleted, unsubscribed): nothing
   * to record.
   */
  dropped(delivery: Delivery): void {
    if (delivery.job) return;
    this.deps.tracker(delivery.family.id)?.settle(delivery.seq);
    this.touch(delivery.family);
  }

  /** The family's checkpoint may have moved (records that owed no delivery). */
  touch(family: FamilyInfo): void {
    const q = this.queue(family);
    q.touched = true;
    this.schedule(q);
  }

  get pending(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.answers.length + (q.flushing || q.timer ? 1 : 0);
    return n;
  }

  /**
   * Resolves when nothing waits to be recorded; whoever waits for that need not wait out the
   * window.
   */
  idle(): Promise<void> {
    if (this.queues.size === 0) return Promise.resolve();
    for (const q of this.queues.values()) {
      if (q.timer) {
        clearTimeout(q.timer);
        q.timer = null;
        void this.flush(q);
      }
    }
    // A flush with nothing to write is done at once.
    if (this.queues.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Records what is waiting now (a clean stop). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (let round = 0; round < 3; round++) {
      const running = [...this.queues.values()].map((q) => {
        if (q.timer) {
          clearTimeout(q.timer);
          q.timer = null;
        }
        return q.flushing ?? this.flush(q);
      });
      if (!running.length) return;
      await Promise.allSettled(running);
      if ([...this.queues.values()].every((q) => !q.answers.length && !q.touched && !q.flushing))
        return;
    }
    // A disk that keeps failing: what is left is not durable, and is sent again after the restart.
  }

  private queue(family: FamilyInfo): FamilyQueue {
    let q = this.queues.get(family.id);
    if (!q)
      this.queues.set(
        family.id,
        (q = { family, answers: [], spills: [], touched: false, timer: null, flushing: null }),
      );
    return q;
  }

  private schedule(q: FamilyQueue, delay = WINDOW_MS): void {
    if (q.timer || q.flushing) return;
    q.timer = setTimeout(
      () => {
        q.timer = null;
        void this.flush(q);
      },
      this.stopping ? 0 : delay,
    );
  }

  private flush(q: FamilyQueue): Promise<void> {
    const answers = q.answers;
    q.answers = [];
    q.touched = false;
    const tracker = this.deps.tracker(q.family.id);
    // Only a family whose read-ahead is filling up looks for deliveries stuck behind a slow
    // receiver.
    const spills =
      tracker && tracker.size >= READ_AHEAD / 2 && !this.stopping
        ? this.deps.takeStale(q.family.id)
        : [];
    const settling: number[] = [];
    for (const a of answers) if (!a.delivery.job) settling.push(a.delivery.seq);
    for (const s of spills) settling.push(s.seq);
    const checkpoint = tracker ? tracker.checkpointAfter(settling) : undefined;
    if (
      !answers.length &&
      !spills.length &&
      (checkpoint === undefined || checkpoint <= tracker!.durable)
    ) {
      this.forget(q);
      return Promise.resolve();
    }
    const until = this.deps.now().getTime() + this.deps.leaseMs;
    const spillJobs: DeliveryJob[] = spills.map((s) => ({
      id: s.key,
      kind: DELIVER_KIND,
      dueAt: until,
      data: {
        destinationId: s.destinationId,
        deliveryId: s.deliveryId,
        eventId: s.eventId,
        seq: s.seq,
        type: s.type,
        attempt: 0,
        lease: { boot: this.deps.boot },
      },
    }));
    const run = async () => {
      const actor = await this.deps.registry.get(q.family);
      const results = await actor.execute(
        (s, ctx) =>
          decideOutcomes(
            s,
            {
              outcomes: answers.map((a) => a.outcome),
              spills: spillJobs,
              ...(checkpoint !== undefined ? { checkpoint } : {}),
            },
            this.deps.config.webhooks.retryScheduleSeconds,
            ctx,
          ),
        WEBHOOKS_CALLER,
      );
      if (tracker) {
        for (const seq of settling) tracker.settle(seq);
        if (checkpoint !== undefined && checkpoint > tracker.durable) tracker.durable = checkpoint;
      }
      answers.forEach((a, i) => this.told(results[i], a.outcome.responseStatus));
      if (spills.length) {
        this.deps.resubmit(
          q.family,
          spills.map((s, i) => ({ ...s, job: spillJobs[i], event: null })),
        );
      }
      this.deps.settled(q.family);
    };
    q.flushing = run()
      .then(
        () => {
          q.flushing = null;
        },
        (err: unknown) => {
          q.flushing = null;
          this.deps.logger.error(
            { err, family: q.family.slug },
            'recording webhook outcomes failed; trying again',
          );
          // Nothing of it is durable: the answers wait for the next try, the spilled deliveries go
          // back to the queue.
          q.answers = answers.concat(q.answers);
          q.touched = true;
          if (spills.length) this.deps.resubmit(q.family, spills);
          if (!this.stopping) this.schedule(q, RETRY_MS);
        },
      )
      .then(() => {
        if (q.answers.length || q.touched) this.schedule(q);
        else this.forget(q);
      });
    return q.flushing;
  }

  private told(r: OutcomeResult, status: number | null): void {
    this.deps.onOutcome?.(
      r.status === 'succeeded' ? 'delivered' : r.status === 'retrying' ? 'failed' : 'gave_up',
      status,
    );
  }

  private forget(q: FamilyQueue): void {
    if (q.answers.length || q.touched || q.timer || q.flushing) return;
    this.queues.delete(q.family.id);
    if (this.queues.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }
}

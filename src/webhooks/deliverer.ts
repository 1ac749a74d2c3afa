/**
 * The sender: takes leased delivery jobs, sends each attempt and records its outcome through
 * the family's actor. At most MAX_IN_FLIGHT sends at once, and at most PER_DESTINATION to one
 * destination, taken round-robin, so a receiver that hangs until the timeout slows only itself.
 *
 * Steps for one job:
 *   1. read the durable state: is the job still this lease's attempt, does its destination still
 *      want it (a destination disabled, deleted or unsubscribed meanwhile gets nothing);
 *   2. read the change-log record and build the body once for this attempt;
 *   3. send it (outside any command: no I/O in the mailbox);
 *   4. execute one command recording the outcome and removing or moving the job.
 * A crash between 3 and 4 leaves the job leased on the agenda; the next start takes it over and
 * sends it again with the same `webhook-id` (at least once: receivers dedupe on it).
 */
import type { WebhooksDeps } from './webhooks.js';
import type { ActorRef, FamilyInfo } from '../domain/shared/state.js';
import { signingSecrets } from '../domain/webhooks/destinations.js';
import { decideOutcome, deliverable, liveJob } from '../domain/webhooks/deliveries.js';
import type { DeliveryJob } from '../domain/webhooks/types.js';
import { sendAttempt } from './attempt.js';
import { eventPayload } from './payload.js';

/** Who records webhook outcomes in the change log (a disabled destination). */
export const WEBHOOKS_ACTOR: ActorRef = { keyId: null, personId: null, keyName: 'webhooks' };

/**
 * Sends at once (recording their outcomes is not counted: it waits on the disk, not the
 * network): many while the event loop has room, few while it is busy, so deliveries cannot
 * crowd the families' writes off the one thread but use what is idle.
 */
const MAX_IN_FLIGHT = 128;
const MAX_IN_FLIGHT_BUSY = 16;
/** Event-loop utilization above which the thread counts as busy (sampled every 100 ms). */
const BUSY_ELU = 0.8;
const PER_DESTINATION = 8;
/** At shutdown, sends still running after this long are cancelled (their jobs stay owed). */
const STOP_GRACE_MS = 2_000;

export interface DelivererDeps extends Omit<WebhooksDeps, 'newId'> {
  /** This run of the daemon: leases name it. */
  boot: string;
  /** [0, 1) for the retry jitter. */
  random?: () => number;
}

interface Item { family: FamilyInfo; job: DeliveryJob }
interface Lane { active: number; queue: Item[] }

export class Deliverer {
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with queued work and room, in turn order. */
  private readonly ready: string[] = [];
  private readonly inReady = new Set<string>();
  /** Jobs this process holds (queued or sending), by family and job id. */
  private readonly owned = new Set<string>();
  private active = 0;
  private stopping = false;
  /** One per send in flight (a shared signal would collect a listener per send). */
  private readonly aborters = new Set<AbortController>();
  private readonly running = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];

  private cap = MAX_IN_FLIGHT;
  private readonly sampler: NodeJS.Timeout;

  constructor(private readonly deps: DelivererDeps) {
    let last = performance.eventLoopUtilization();
    this.sampler = setInterval(() => {
      const now = performance.eventLoopUtilization();
      const busy = performance.eventLoopUtilization(now, last).utilization > BUSY_ELU;
      last = now;
      this.cap = busy ? MAX_IN_FLIGHT_BUSY : MAX_IN_FLIGHT;
      if (!busy) this.pump();
    }, 100);
    this.sampler.unref();
  }

  owns(familyId: string, jobId: string): boolean {
    return this.owned.has(`${familyId}\u0000${jobId}`);
  }

  /** Queues leased jobs for sending. */
  submit(family: FamilyInfo, jobs: readonly DeliveryJob[]): void {
    if (this.stopping) return;
    for (const job of jobs) {
      const key = `${family.id}\u0000${job.id}`;
      if (this.owned.has(key)) continue;
      this.owned.add(key);
      const laneKey = `${family.id}\u0000${job.data.destinationId}`;
      let lane = this.lanes.get(laneKey);
      if (!lane) this.lanes.set(laneKey, (lane = { active: 0, queue: [] }));
      lane.queue.push({ family, job });
      this.markReady(laneKey, lane);
    }
    this.pump();
  }

  /** Resolves when nothing is queued or being sent (tests, the benchmark). */
  idle(): Promise<void> {
    if (this.owned.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  get pending(): number { return this.owned.size; }

  /** Takes no more work; lets running sends finish for a moment, then cancels the rest. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sampler);
    for (const lane of this.lanes.values()) {
      for (const item of lane.queue) this.owned.delete(`${item.family.id}\u0000${item.job.id}`);
      lane.queue = [];
    }
    const all = Promise.allSettled(Array.from(this.running));
    const timer = setTimeout(() => { for (const a of this.aborters) a.abort(); }, STOP_GRACE_MS);
    await all;
    clearTimeout(timer);
    this.wakeIdle();
  }

  private markReady(key: string, lane: Lane): void {
    if (lane.queue.length && lane.active < PER_DESTINATION && !this.inReady.has(key)) {
      this.inReady.add(key);
      this.ready.push(key);
    }
  }

  private pump(): void {
    while (!this.stopping && this.active < this.cap && this.ready.length) {
      const key = this.ready.shift()!;
      this.inReady.delete(key);
      const lane = this.lanes.get(key)!;
      const item = lane.queue.shift()!;
      lane.active++;
      this.active++;
      this.markReady(key, lane);
      const key2 = `${item.family.id}\u0000${item.job.id}`;
      let released = false;
      // The slot is free as soon as the answer is in; recording it joins the family's next
      // commit (the actor batches), so a slow disk does not hold the senders.
      const release = () => {
        if (released) return;
        released = true;
        lane.active--;
        this.active--;
        if (!lane.queue.length && lane.active === 0) this.lanes.delete(key);
        else this.markReady(key, lane);
        this.pump();
      };
      const p: Promise<void> = this.run(item, release).catch((err: unknown) => {
        this.deps.logger.error({ err, family: item.family.slug, destination: item.job.data.destinationId }, 'a webhook delivery failed to run; it stays owed');
      }).finally(() => {
        release();
        this.running.delete(p);
        this.owned.delete(key2);
        if (this.owned.size === 0) this.wakeIdle();
      });
      this.running.add(p);
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async run({ family, job }: Item, done: () => void): Promise<void> {
    const { store, registry, config, now, boot } = this.deps;
    const actor = await registry.get(family);
    // 1. Still ours, still wanted?
    const found = await actor.read((s) => {
      const live = liveJob(s, job.id);
      if (!live || live.data.attempt !== job.data.attempt || live.data.lease?.boot !== boot) return null;
      const d = deliverable(s, live.data);
      return d ? { url: d.url, secrets: signingSecrets(d, now()) } : null;
    });
    if (!found) return;
    // 2. The record, durable (the job was put after it was).
    const record = store.readLog(family.id, job.data.seq - 1, 1)[0];
    if (!record || record.id !== job.data.eventId) {
      this.deps.logger.error({ family: family.slug, seq: job.data.seq }, 'the change-log record of a webhook delivery is missing; dropping it');
      await actor.execute((s) => {
        const live = liveJob(s, job.id);
        return { result: undefined, changes: [], events: [], agenda: live && live.data.attempt === job.data.attempt ? [{ remove: job.id }] : [] };
      }, WEBHOOKS_ACTOR);
      return;
    }
    const body = JSON.stringify(eventPayload(record, family.slug));
    // 3. Send.
    const at = now();
    const aborter = new AbortController();
    this.aborters.add(aborter);
    const result = await sendAttempt(this.deps.egress, config, { url: found.url, secrets: found.secrets, id: record.id, body, at, signal: aborter.signal })
      .finally(() => this.aborters.delete(aborter));
    done();
    if (result.aborted) return;
    // 4. Record.
    const jitter = (this.deps.random ?? Math.random)();
    const recorded = await actor.execute((s, ctx) => decideOutcome(s, {
      destinationId: job.data.destinationId, deliveryId: job.data.deliveryId, eventId: record.id, type: record.type,
      attempt: job.data.attempt + 1, at: at.toISOString(), ok: result.ok, responseStatus: result.responseStatus,
      durationMs: result.durationMs, error: result.error, retryAfterMs: result.retryAfterMs, jobId: job.id, boot,
    }, config.webhooks.retryScheduleSeconds, jitter, ctx), WEBHOOKS_ACTOR);
    this.deps.onOutcome?.(recorded.status === 'succeeded' ? 'delivered' : recorded.status === 'retrying' ? 'failed' : 'gave_up', result.responseStatus);
  }
}

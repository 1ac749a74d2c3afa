/**
 * The sender: sends deliveries and hands their answers to the recorder. At most MAX_IN_FLIGHT
 * sends at once, at most PER_DESTINATION to one destination, taken round-robin, so a receiver
 * that hangs until the timeout slows only itself; and no more sends per tick than the budget
 * allows (budget.ts), so deliveries use what the families' writes leave of the thread.
 *
 * Steps for one delivery:
 *   1. on the family's durable state: does its destination still want it (a destination
 *      disabled, deleted or unsubscribed meanwhile gets nothing) — and, for a job, is the job
 *      still this lease's attempt;
 *   2. the body: built once per record and shared by its destinations (a first attempt has the
 *      record from the outbox's read; a job reads it from the log);
 *   3. sign it for the destination and send it (outside any command: no I/O in the mailbox);
 *   4. the recorder records the answer with the others of its window.
 * A crash before 4 leaves the delivery owed: a first attempt's record is still after the
 * checkpoint, a job is still leased; after the restart it is sent again with the same
 * `webhook-id` (at least once: receivers dedupe on it).
 */
import type { Logger } from 'pino';
import type { FamilyRegistry } from '../family/registry.js';
import type { LogReads } from '../store/ports.js';
import { signingSecrets } from '../domain/webhooks/destinations.js';
import { deliverable, liveJob } from '../domain/webhooks/jobs.js';
import type { DestinationRecord } from '../domain/webhooks/types.js';
import type { Transport } from './sendThread.js';
import { eventPayload } from './payload.js';
import { SendBudget } from './budget.js';
import type { Delivery } from './delivery.js';
import type { Recorder } from './recorder.js';

import { WEBHOOKS_CALLER } from './recorder.js';
import { noChange } from '../domain/shared/decision.js';

export { WEBHOOKS_CALLER };

/**
 * Sends at once (recording their answers is not counted: it waits on the disk, not the network).
 */
const MAX_IN_FLIGHT = 256;
const PER_DESTINATION = 8;
/** At shutdown, sends still running after this long are cancelled (they stay owed). */
const STOP_GRACE_MS = 2_000;
/**
 * A first attempt that has waited this long behind a destination whose sends are all taken (a
 * receiver that hangs) is moved to the agenda as a leased job, so that the family's checkpoint
 * and its other destinations do not wait on it.
 */
export const SPILL_AFTER_MS = 10_000;

export interface SenderDeps {
  store: Pick<LogReads, 'readLog'>;
  registry: FamilyRegistry;
  /** Where attempts are signed and sent (the delivery thread, sendThread.ts). */
  transport: Transport;
  now: () => Date;
  logger: Logger;
  /** HTTP requests in flight on average: while many are, sends keep a small share (budget.ts). */
  requestsInFlight?: (() => number) | undefined;
  /** This run of the daemon: leases name it. */
  boot: string;
  recorder: () => Recorder;
  /**
   * Told every tick while the sender holds fewer than `roomBelow` deliveries (the outbox reads on).
   */
  room?: () => void;
  roomBelow?: number;
}

interface Lane {
  active: number;
  queue: Delivery[];
}

export class Sender {
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with queued work and room, in turn order. */
  private readonly ready: string[] = [];
  private readonly inReady = new Set<string>();
  /** Deliveries this process holds (queued or sending), by family and job id. */
  private readonly owned = new Set<string>();
  private active = 0;
  private stopping = false;
  private readonly running = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];
  private readonly budget: SendBudget;

  constructor(private readonly deps: SenderDeps) {
    this.budget = new SendBudget(() => {
      this.pump();
      if (this.owned.size < (deps.roomBelow ?? 0)) deps.room?.();
    }, deps.requestsInFlight);
  }

  owns(familyId: string, jobId: string): boolean {
    return this.owned.has(`${familyId}\u0000${jobId}`);
  }

  /** Queues deliveries for sending. */
  submit(deliveries: readonly Delivery[]): void {
    if (this.stopping) return;
    for (const d of deliveries) {
      const key = `${d.family.id}\u0000${d.key}`;
      if (this.owned.has(key)) continue;
      this.owned.add(key);
      const laneKey = `${d.family.id}\u0000${d.destinationId}`;
      let lane = this.lanes.get(laneKey);
      if (!lane) this.lanes.set(laneKey, (lane = { active: 0, queue: [] }));
      lane.queue.push(d);
      this.markReady(laneKey, lane);
    }
    this.pump();
  }

  /**
   * Takes out the family's first attempts that waited SPILL_AFTER_MS behind a destination whose
   * sends are all taken (the recorder puts them on the agenda and hands them back as jobs).
   */
  takeStale(familyId: string): Delivery[] {
    const out: Delivery[] = [];
    const before = performance.now() - SPILL_AFTER_MS;
    for (const [laneKey, lane] of this.lanes) {
      if (!laneKey.startsWith(`${familyId}\u0000`) || lane.active < PER_DESTINATION) continue;
      const keep: Delivery[] = [];
      for (const d of lane.queue) {
        if (!d.job && d.queuedAt < before) {
          out.push(d);
          this.owned.delete(`${familyId}\u0000${d.key}`);
        } else keep.push(d);
      }
      lane.queue = keep;
    }
    if (out.length && this.owned.size === 0) this.wakeIdle();
    return out;
  }

  /** Resolves when nothing is queued or being sent (tests, the benchmark). */
  idle(): Promise<void> {
    if (this.owned.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  get pending(): number {
    return this.owned.size;
  }

  /** Takes no more work; lets running sends finish for a moment, then cancels the rest. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.budget.stop();
    for (const lane of this.lanes.values()) {
      for (const d of lane.queue) this.owned.delete(`${d.family.id}\u0000${d.key}`);
      lane.queue = [];
    }
    const all = Promise.allSettled(Array.from(this.running));
    const timer = setTimeout(() => this.deps.transport.abort(), STOP_GRACE_MS);
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
    while (
      !this.stopping &&
      this.active < MAX_IN_FLIGHT &&
      this.ready.length &&
      this.budget.take()
    ) {
      const key = this.ready.shift()!;
      this.inReady.delete(key);
      const lane = this.lanes.get(key)!;
      const item = lane.queue.shift();
      if (!item) {
        this.markReady(key, lane);
        continue;
      }
      lane.active++;
      this.active++;
      this.markReady(key, lane);
      const ownKey = `${item.family.id}\u0000${item.key}`;
      let released = false;
      // The slot is free as soon as the answer is in; recording it joins the family's next
      // window, so a slow disk does not hold the senders.
      const release = () => {
        if (released) return;
        released = true;
        lane.active--;
        this.active--;
        if (!lane.queue.length && lane.active === 0) this.lanes.delete(key);
        else this.markReady(key, lane);
        this.pump();
      };
      const p: Promise<void> = this.run(item, release)
        .catch((err: unknown) => {
          this.deps.logger.error(
            { err, family: item.family.slug, destination: item.destinationId },
            'a webhook delivery failed to run; it stays owed',
          );
          return false;
        })
        .then((again) => {
          release();
          this.running.delete(p);
          // The delivery thread died with it in flight: it goes again, as after a crash.
          if (again && !this.stopping) return this.requeue(item);
          this.owned.delete(ownKey);
          if (this.owned.size === 0) this.wakeIdle();
        });
      this.running.add(p);
    }
  }

  /** Back to the front of its lane, still owned (sent again with the same webhook-id). */
  private requeue(item: Delivery): void {
    const laneKey = `${item.family.id}\u0000${item.destinationId}`;
    let lane = this.lanes.get(laneKey);
    if (!lane) this.lanes.set(laneKey, (lane = { active: 0, queue: [] }));
    lane.queue.unshift(item);
    this.markReady(laneKey, lane);
    this.pump();
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Sends one delivery; true when it must go again (the delivery thread died meanwhile). */
  private async run(item: Delivery, done: () => void): Promise<boolean> {
    const { store, registry, now, boot } = this.deps;
    const recorder = this.deps.recorder();
    const { family, job } = item;
    const actor = await registry.get(family);
    // 1. Still wanted (and, for a job, still this lease's attempt)?
    const found = await actor.read((s) => {
      let d: DestinationRecord | undefined;
      if (job) {
        const live = liveJob(s, job.id);
        if (!live || live.data.attempt !== job.data.attempt || live.data.lease?.boot !== boot)
          return null;
        d = deliverable(s, live.data);
      } else {
        d = deliverable(s, item);
      }
      return d ? { url: d.url, secrets: signingSecrets(d, now()) } : null;
    });
    if (!found) {
      recorder.dropped(item);
      return false;
    }
    // 2. The body.
    let body: string;
    if (item.event) {
      body = item.event.body ??= JSON.stringify(eventPayload(item.event.record, family.slug));
    } else {
      const record = store.readLog(family.id, item.seq - 1, 1)[0];
      if (!record || record.id !== item.eventId) {
        this.deps.logger.error(
          { family: family.slug, seq: item.seq },
          'the change-log record of a webhook delivery is missing; dropping it',
        );
        await actor.execute((s) => {
          const live = job && liveJob(s, job.id);
          return noChange(
            undefined,
            live && live.data.attempt === job.data.attempt ? [{ remove: job.id }] : [],
          );
        }, WEBHOOKS_CALLER);
        return false;
      }
      body = JSON.stringify(eventPayload(record, family.slug));
    }
    // 3. Send.
    const at = now();
    const result = await this.deps.transport.send({
      url: found.url,
      secrets: found.secrets,
      id: item.eventId,
      body,
      at,
    });
    done();
    if (result === 'lost') return true;
    if (result.aborted) return false;
    // 4. Record, with the rest of the window.
    recorder.add(item, {
      destinationId: item.destinationId,
      deliveryId: item.deliveryId,
      eventId: item.eventId,
      type: item.type,
      attempt: item.attempt + 1,
      at: at.toISOString(),
      ok: result.ok,
      responseStatus: result.responseStatus,
      durationMs: result.durationMs,
      error: result.error,
      retryAfterMs: result.retryAfterMs,
      ...(job ? { jobId: job.id, boot } : { logSeq: item.seq }),
    });
    return false;
  }
}

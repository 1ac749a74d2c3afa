/**
 * Writes keep priority over deliveries (docs/webhooks.md, "Sharing the thread"). Every TICK_MS
 * the sender gets a number of sends for the next tick, adjusted from the last tick:
 *
 *   requests queueing (QUEUEING or more in flight on average over the tick): half the last
 *   tick's allowance, down to MIN_SHARE of the tick's time;
 *   otherwise: twice the last tick's sends, at least FREE_START (the cap on sends in flight
 *   bounds it too).
 *
 * So while requests saturate the daemon, deliveries are down to a small share of the thread
 * within a few ticks — a cap on
 * sends in flight cannot do that: on loopback, 16 sends in flight are thousands a second — and
 * when requests are answered as they come, deliveries take what is left, doubling per tick (a
 * tick where requests happened not to queue does not let a whole backlog through at once). The rule
 * acts on the very thing it protects: requests waiting to be answered — whether they wait for the
 * thread or for the disk, which deliveries' recording uses too. The backlog waits in the change log
 * (the outbox reads ahead only so far), not in memory.
 *
 * The share is turned into sends with the cost of a send on the main thread — handing it to the
 * delivery thread and taking its answer back, checking its destination, its share of the
 * recording command — in CPU time of the main thread alone: signing and the request are the
 * delivery thread's (sendThread.ts), which takes a core of its own, not the writes' loop. Estimated as
 * CPU time / sends over ticks where the loop had time to spare and sends were many, taking the
 * median of the last SAMPLES such ticks (a tick shared with writes overstates it; one whose work
 * spilled into the next understates it). A saturated tick is not sampled (CPU time / sends would
 * grow as the share is held, and shrink it further); an overstated cost only lowers the share.
 */
import { performance } from 'node:perf_hooks';

/**
 * CPU time of the calling thread (Node 23.9+), else of the whole process — which overstates a
 * send's cost on the main thread, and only holds deliveries back harder.
 */
const threadCpu: (prev?: NodeJS.CpuUsage) => NodeJS.CpuUsage =
  (
    process as { threadCpuUsage?: (prev?: NodeJS.CpuUsage) => NodeJS.CpuUsage }
  ).threadCpuUsage?.bind(process) ?? ((prev) => process.cpuUsage(prev));

export const TICK_MS = 50;
/** Share of the thread deliveries keep while requests queue. */
export const MIN_SHARE = 0.03;
/** Requests in flight on average over a tick from which they count as queueing. */
export const QUEUEING = 32;
/** A tick busy for this share of its time or more is not sampled. */
const SATURATED = 0.8;
/** Sends in a tick after a hold or a quiet tick; the allowance doubles from there. */
const FREE_START = 16;
const MAX_PER_TICK = 8_192;
/** Before the first measurement, µs of CPU time per send. */
const DEFAULT_COST_US = 100;
const MIN_COST_US = 20;
const MAX_COST_US = 5_000;
/** Ticks with fewer sends say little about their cost. */
const MIN_SAMPLE = 20;
/** Samples kept, and the percentile of them taken as the estimate. */
const SAMPLES = 200;
const PERCENTILE = 0.5;

export class SendBudget {
  /** Estimated µs of CPU time per send. */
  costUs = DEFAULT_COST_US;
  private limit = FREE_START;
  private tokens = FREE_START;
  private held = false;
  private sends = 0;
  private readonly samples: number[] = [];
  private last = performance.eventLoopUtilization();
  private lastCpu = threadCpu();
  private readonly timer: NodeJS.Timeout | null;
  private readonly tickMs: number;

  /**
   * `onTick` runs after each tick (the sender pumps); `timer: false` leaves ticking to the caller
   * (tests).
   */
  constructor(
    onTick: () => void,
    private readonly requestsInFlight: () => number = () => 0,
    opts: { tickMs?: number; timer?: boolean } = {},
  ) {
    this.tickMs = opts.tickMs ?? TICK_MS;
    this.timer =
      opts.timer === false
        ? null
        : setInterval(() => {
            this.tick();
            onTick();
          }, this.tickMs);
    this.timer?.unref();
  }

  /** Takes one send from this tick's allowance; false when it is spent. */
  take(): boolean {
    if (this.tokens < 1) return false;
    this.tokens--;
    this.sends++;
    return true;
  }

  /** Whether the last tick found requests queueing (the allowance halving towards MIN_SHARE). */
  get holding(): boolean {
    return this.held;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Ends a tick: samples the cost of a send and sets the next tick's allowance. */
  tick(): void {
    const now = performance.eventLoopUtilization();
    const activeMs = performance.eventLoopUtilization(now, this.last).active;
    this.last = now;
    const cpu = threadCpu(this.lastCpu);
    this.lastCpu = threadCpu();
    if (this.sends >= MIN_SAMPLE && activeMs < SATURATED * this.tickMs) {
      this.samples.push((cpu.user + cpu.system) / this.sends);
      if (this.samples.length > SAMPLES) this.samples.shift();
      const sorted = [...this.samples].sort((a, b) => a - b);
      this.costUs = Math.min(
        MAX_COST_US,
        Math.max(MIN_COST_US, sorted[Math.floor(PERCENTILE * (sorted.length - 1))]),
      );
    }
    this.held = this.requestsInFlight() >= QUEUEING;
    const floor = Math.max(1, (MIN_SHARE * this.tickMs * 1000) / this.costUs);
    // Held: the allowance halves each tick down to the floor, so that a moment of queueing in a
    // daemon that keeps up costs the deliveries little, and a saturated one reaches the floor
    // within a few ticks. Free: twice what was sent (not what was allowed: an allowance unused
    // while there was little to send must not let a sudden backlog through at once).
    this.limit = this.held
      ? Math.max(floor, this.limit / 2)
      : Math.min(MAX_PER_TICK, Math.max(FREE_START, 2 * this.sends));
    this.tokens = this.limit;
    this.sends = 0;
  }
}

/**
 * Requests being answered, counted as they start and end, and their mean number in flight
 * since the sender last asked (the time-weighted average over its tick).
 */
export class InFlightGauge {
  private inFlight = 0;
  private area = 0;
  private at = performance.now();
  private since = this.at;

  add(delta: number): void {
    const t = performance.now();
    this.area += this.inFlight * (t - this.at);
    this.at = t;
    this.inFlight += delta;
  }

  meanSinceLastAsked(): number {
    this.add(0);
    const mean = this.area / Math.max(1, this.at - this.since);
    this.area = 0;
    this.since = this.at;
    return mean;
  }
}

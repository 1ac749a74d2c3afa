/**
 * Writes keep priority over deliveries (docs/webhooks.md, "Sharing the thread"). Every TICK_MS
 * the sender gets its sends for the next tick, from the last tick:
 *
 *   requests queueing (QUEUEING or more in flight at once) and the loop busy (BUSY of the tick):
 *     sends = MIN_SHARE × tick / the estimated thread time of one send
 *   otherwise:
 *     sends = max(MIN_SHARE, ROOM − the rest's share) × tick / the thread time of one send
 *
 * where "the rest" is the loop's busy time minus what the sends are estimated to have cost. So
 * while requests saturate the daemon, deliveries keep a small share of the thread — a cap on
 * sends in flight cannot do that: on loopback, 16 sends in flight are thousands a second — and
 * otherwise they use what is left, up to ROOM. Requests that queue while the loop has time to
 * spare wait on something else (the disk, the client), which deliveries do not slow, so they are
 * not held back then. The backlog waits in the change log (the outbox reads ahead only so far),
 * not in memory.
 *
 * The thread time of a send (signing, the request, the answer, its share of the recording
 * command) is estimated as busy time / sends over ticks where the loop had time to spare and
 * sends were many, taking the median of the last SAMPLES such ticks (a tick shared with writes
 * overstates it; one whose work spilled into the next understates it). A saturated tick
 * is not sampled (busy time / sends would grow as the budget shrinks, and shrink it further);
 * an overstated estimate only gives deliveries less than MIN_SHARE, never more.
 */
import { performance } from 'node:perf_hooks';

export const TICK_MS = 50;
/** Share of the thread deliveries keep while requests queue. */
export const MIN_SHARE = 0.05;
/** Requests in flight at once from which they count as queueing. */
export const QUEUEING = 32;
/** A loop busy for this share of the tick or more counts as busy. */
const BUSY = 0.7;
/** With room, deliveries plan on the thread up to this share. */
const ROOM = 0.8;
/** A tick busy for this share of its time or more is not sampled. */
const SATURATED = 0.8;
/** Before the first measurement, µs of thread time per send. */
const DEFAULT_COST_US = 200;
const MIN_COST_US = 20;
const MAX_COST_US = 5_000;
/** Ticks with fewer sends say little about their cost. */
const MIN_SAMPLE = 20;
/** Samples kept, and the percentile of them taken as the estimate. */
const SAMPLES = 200;
const PERCENTILE = 0.5;

export class SendBudget {
  /** Estimated µs of thread time per send. */
  costUs = DEFAULT_COST_US;
  private tokens = (ROOM * TICK_MS * 1000) / DEFAULT_COST_US;
  private held = false;
  private sends = 0;
  private readonly samples: number[] = [];
  private last = performance.eventLoopUtilization();
  private readonly timer: NodeJS.Timeout;

  constructor(onTick: () => void, private readonly requestPeak: () => number = () => 0, private readonly tickMs = TICK_MS) {
    this.timer = setInterval(() => { this.tick(); onTick(); }, tickMs);
    this.timer.unref();
  }

  /** Takes one send from this tick's allowance; false when it is spent. */
  take(): boolean {
    if (this.tokens < 1) return false;
    this.tokens--;
    this.sends++;
    return true;
  }

  /** Whether the last tick found requests queueing (deliveries held to MIN_SHARE). */
  get holding(): boolean { return this.held; }

  stop(): void { clearInterval(this.timer); }

  private tick(): void {
    const now = performance.eventLoopUtilization();
    const activeMs = performance.eventLoopUtilization(now, this.last).active;
    this.last = now;
    if (this.sends >= MIN_SAMPLE && activeMs < SATURATED * this.tickMs) {
      this.samples.push((activeMs * 1000) / this.sends);
      if (this.samples.length > SAMPLES) this.samples.shift();
      const sorted = [...this.samples].sort((a, b) => a - b);
      this.costUs = Math.min(MAX_COST_US, Math.max(MIN_COST_US, sorted[Math.floor(PERCENTILE * (sorted.length - 1))]!));
    }
    this.held = this.requestPeak() >= QUEUEING && activeMs >= BUSY * this.tickMs;
    const othersMs = Math.max(0, activeMs - (this.sends * this.costUs) / 1000);
    const shareMs = this.held ? MIN_SHARE * this.tickMs : Math.max(MIN_SHARE * this.tickMs, ROOM * this.tickMs - othersMs);
    this.tokens = (shareMs * 1000) / this.costUs;
    this.sends = 0;
  }
}

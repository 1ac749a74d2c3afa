/**
 * Writes keep priority over deliveries (docs/webhooks.md, "Sharing the thread"). Every TICK_MS the
 * sender gets a budget of sends for the next tick:
 *
 *   budget time = max(MIN_SHARE × tick, HEADROOM × tick − the time the rest of the daemon used)
 *
 * where "the rest" is the event loop's busy time in the last tick minus what its sends are
 * estimated to have cost. So deliveries use whatever the writes leave (an unsaturated daemon
 * sends as fast as records come in), and while requests saturate the thread they keep only a
 * small share of it — a cap on sends in flight alone cannot do that: on loopback, 16 sends in
 * flight are thousands a second.
 *
 * The cost of a send (all the thread's work for it: signing, the request, the answer, its share
 * of the recording command) is estimated from ticks where the budget did not bind and sends
 * were many: busy time / sends. Those ticks include whatever else ran, so the estimate errs
 * high, which errs on the writes' side.
 */
import { performance } from 'node:perf_hooks';

export const TICK_MS = 50;
/** Share of the thread deliveries keep while requests saturate it. */
export const MIN_SHARE = 0.05;
/** Deliveries never plan on more of the thread than this (the rest is slack for bursts). */
const HEADROOM = 0.9;
/** Before the first measurement, µs of thread time per send. */
const DEFAULT_COST_US = 150;
const MIN_COST_US = 20;
const MAX_COST_US = 5_000;
/** Ticks with fewer sends say little about their cost. */
const MIN_SAMPLE = 20;

export class SendBudget {
  /** Estimated µs of thread time per send. */
  costUs = DEFAULT_COST_US;
  private tokens: number;
  private sends = 0;
  private bound = false;
  private last = performance.eventLoopUtilization();
  private readonly timer: NodeJS.Timeout;

  constructor(onTick: () => void, private readonly tickMs = TICK_MS) {
    this.tokens = this.allowance(0);
    this.timer = setInterval(() => { this.tick(); onTick(); }, tickMs);
    this.timer.unref();
  }

  /** Takes one send from this tick's budget; false when it is spent. */
  take(): boolean {
    if (this.tokens < 1) { this.bound = true; return false; }
    this.tokens--;
    this.sends++;
    return true;
  }

  stop(): void { clearInterval(this.timer); }

  private allowance(othersMs: number): number {
    const budgetMs = Math.max(MIN_SHARE * this.tickMs, HEADROOM * this.tickMs - othersMs);
    return (budgetMs * 1000) / this.costUs;
  }

  private tick(): void {
    const now = performance.eventLoopUtilization();
    const activeMs = performance.eventLoopUtilization(now, this.last).active;
    this.last = now;
    if (!this.bound && this.sends >= MIN_SAMPLE) {
      const sample = (activeMs * 1000) / this.sends;
      this.costUs = Math.min(MAX_COST_US, Math.max(MIN_COST_US, 0.8 * this.costUs + 0.2 * sample));
    }
    const othersMs = Math.max(0, activeMs - (this.sends * this.costUs) / 1000);
    this.tokens = this.allowance(othersMs);
    this.sends = 0;
    this.bound = false;
  }
}

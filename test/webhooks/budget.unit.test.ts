/**
 * The rule that keeps writes ahead of deliveries (src/webhooks/budget.ts): while requests queue,
 * a tick allows MIN_SHARE of its time worth of sends; otherwise twice what the last tick sent,
 * at least FREE_START — so a tick without queueing does not let a whole backlog through.
 */
import { expect } from 'chai';
import { MIN_SHARE, QUEUEING, SendBudget } from '../../src/webhooks/budget.js';

const TICK = 50;

/** Takes sends until the tick's allowance is spent (at most `max`). */
function drain(b: SendBudget, max = 100_000): number {
  let n = 0;
  while (n < max && b.take()) n++;
  return n;
}

describe('the delivery send budget', () => {
  it('holds sends to MIN_SHARE of the tick while requests queue, on both sides of the threshold', () => {
    let inFlight = 0;
    const b = new SendBudget(() => undefined, () => inFlight, { tickMs: TICK, timer: false });
    expect(drain(b)).to.equal(16);
    inFlight = QUEUEING;
    b.tick();
    expect(b.holding).to.equal(true);
    const share = Math.floor((MIN_SHARE * TICK * 1000) / b.costUs);
    expect(share).to.be.within(1, 16);
    expect(drain(b)).to.equal(share);
    // Still queueing: still held, however much is waiting.
    b.tick();
    expect(drain(b)).to.equal(Math.floor((MIN_SHARE * TICK * 1000) / b.costUs));
    // One request fewer on average is not queueing.
    inFlight = QUEUEING - 1;
    b.tick();
    expect(b.holding).to.equal(false);
    expect(drain(b)).to.equal(16);
  });

  it('lets sends double per tick while requests do not queue, and starts again small after a quiet tick', () => {
    const b = new SendBudget(() => undefined, () => 0, { tickMs: TICK, timer: false });
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      seen.push(drain(b));
      b.tick();
    }
    expect(seen).to.deep.equal([16, 32, 64, 128, 256]);
    // A tick that sent only 3: the next may send 16, not 512.
    drain(b, 3);
    b.tick();
    expect(drain(b)).to.equal(16);
  });
});

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
  it('halves the allowance each tick while requests queue, down to MIN_SHARE of the tick, on both sides of the threshold', () => {
    let inFlight = 0;
    const b = new SendBudget(
      () => undefined,
      () => inFlight,
      { tickMs: TICK, timer: false },
    );
    for (const want of [16, 32, 64, 128]) {
      expect(drain(b)).to.equal(want);
      b.tick();
    }
    expect(drain(b, 200)).to.equal(200);
    inFlight = QUEUEING;
    // The allowance was 256: it halves each tick, but never below the floor (MIN_SHARE of the
    // tick over the measured cost of a send), however much is waiting.
    let allowance = 256;
    let sent = 0;
    for (let i = 0; i < 10; i++) {
      b.tick();
      expect(b.holding).to.equal(true);
      allowance = Math.max(Math.max(1, (MIN_SHARE * TICK * 1000) / b.costUs), allowance / 2);
      sent = drain(b);
      expect(sent).to.equal(Math.ceil(allowance));
    }
    expect(Math.ceil(allowance)).to.equal(
      Math.max(1, Math.ceil((MIN_SHARE * TICK * 1000) / b.costUs)),
    );
    // One request fewer on average is not queueing: twice what the last tick sent, at least 16.
    inFlight = QUEUEING - 1;
    b.tick();
    expect(b.holding).to.equal(false);
    expect(drain(b)).to.equal(Math.max(16, 2 * sent));
  });

  it('lets sends double per tick while requests do not queue, and starts again small after a quiet tick', () => {
    const b = new SendBudget(
      () => undefined,
      () => 0,
      { tickMs: TICK, timer: false },
    );
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

/**
 * How far a family's outbox may say it is done: the deliveries it read from the change log and
 * holds in memory, counted per record, and the checkpoint that follows from them. The durable
 * checkpoint moves past a record only once each of its deliveries has settled — succeeded,
 * given up, turned into a durable retry or a leased job, or found unwanted (its destination
 * disabled, deleted or unsubscribed) — so a crash re-sends exactly the records whose deliveries
 * could still be owed (docs/webhooks.md, "At a crash").
 */
/**
 * Open deliveries a family may have in memory: the log is the durable queue, so a backlog (a
 * daemon saturated by writes) waits there instead of in memory, and a crash re-sends at most
 * this many of the family's deliveries that had already arrived.
 */
export const READ_AHEAD = 500;

export class CheckpointTracker {
  /** Deliveries still open per record, in log order. */
  private readonly open = new Map<number, number>();
  private openCount = 0;

  /**
   * @param readTo the last record read into memory (its deliveries are counted here)
   * @param durable the checkpoint as last committed
   */
  constructor(
    public readTo: number,
    public durable: number,
  ) {}

  /** Open deliveries of all records: how much the outbox holds in memory for the family. */
  get size(): number {
    return this.openCount;
  }

  /** A record read from the log, with how many deliveries it owes (0 settles it at once). */
  read(seq: number, deliveries: number): void {
    if (seq <= this.readTo) return;
    if (deliveries > 0) {
      this.open.set(seq, deliveries);
      this.openCount += deliveries;
    }
    this.readTo = seq;
  }

  /** One delivery of record `seq` settled durably (or needed nothing durable). */
  settle(seq: number): void {
    const n = this.open.get(seq);
    if (n === undefined) return;
    if (n <= 1) this.open.delete(seq);
    else this.open.set(seq, n - 1);
    this.openCount--;
  }

  /** The checkpoint once the deliveries of `settling` (one record number each) are durable too. */
  checkpointAfter(settling: readonly number[]): number {
    let minus: Map<number, number> | undefined;
    if (settling.length) {
      minus = new Map();
      for (const s of settling) minus.set(s, (minus.get(s) ?? 0) + 1);
    }
    for (const [seq, n] of this.open) if (n - (minus?.get(seq) ?? 0) > 0) return seq - 1;
    return this.readTo;
  }
}

/**
 * Every node follows the whole log stream in order (one ordered JetStream consumer) and applies
 * to its LMDB what every node must know:
 *
 * - the directory's entries (directory.ts): families, keys, queued updates, OAuth records;
 * - from each family's batches, the parts that are looked up across families — share-token
 *   index entries, the family's settings, the settling of a queued update — so that any node can
 *   find a share link's family or a family by its slug and pass the request to its owner.
 *
 * A family's records, log and agenda are not applied here: only its owner holds them, caught up
 * when it takes the family (replicated.ts). A family batch's parts are applied only past the
 * point the node's own catch-up reached (its `cluster.stream` checkpoint), inside the same
 * transaction as that check, so the two paths never write an older state over a newer one.
 *
 * How far the follower got is a checkpoint of its own, written after directory entries and at
 * most every second otherwise; a restart re-applies from there (every entry applies twice
 * safely).
 *
 * Its consumer delivers each message's headers only: most messages are a family's batch that
 * holds nothing for it (`SHARED_HEADER` says which do), and the payload of every batch sent to
 * every node was work for the NATS servers and for each node's client. The few it applies —
 * directory entries, shared batches — it reads whole, one direct read each.
 *
 * An entry that does not count (log.ts: stored beside another that named the same last
 * sequence, and came second) is passed over, as every other reader passes it over: the
 * follower knows each subject's message before the one it reads (for a family's first message
 * after a start, it asks JetStream once).
 */
import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import { StoreWriteError } from '../store/errors.js';
import { familyOfSubject } from './connection.js';
import { applyDirectoryEntry, type AppliedUpTo, type DirectoryEntry } from './directory.js';
import type { JetStreamLog } from './log.js';
import { counts, SHARED_HEADER, type Chained, type LogEntry } from './logEntry.js';
import { CHECKPOINT } from './replicated.js';
import { LOG_STREAM } from './connection.js';

/** Where the follower's checkpoints live: a pseudo-family no real id can equal. */
const NODE = '_node';
const FOLLOWED = 'cluster.followed';
const DIRECTORY_HEAD = 'cluster.directory';
const SAVE_EVERY_MS = 1_000;
/** Between attempts to read an entry's payload while NATS does not answer. */
const RETRY_READ_MS = 250;

export class Follower implements AppliedUpTo {
  private processed: number;
  private head: number;
  private waiters: { seq: number; resolve: () => void }[] = [];
  private messages: ConsumerMessages | null = null;
  private running: Promise<void> | null = null;
  private lastSaved = 0;
  private stopped = false;
  private saveTimer: NodeJS.Timeout | null = null;
  /** Entries applied since start (a figure for /metrics). */
  applied = 0;
  /** Entries passed over since start: they do not count (see above). */
  ignored = 0;
  /** Per subject: the stream sequence of its last message seen since start. */
  private readonly lastOf = new Map<string, number>();
  /** Recent messages' predecessors on their subject (for `before`), oldest first. */
  private readonly recent = new Map<number, number>();
  /** Writers waiting for the follower to reach their message. */
  private pending: { seq: number; resolve: () => void }[] = [];

  constructor(
    private readonly store: Store,
    private readonly log: JetStreamLog,
    private readonly logger: Pick<Logger, 'error' | 'warn'>,
  ) {
    this.processed = store.getCheckpoint(FOLLOWED, NODE);
    this.head = store.getCheckpoint(DIRECTORY_HEAD, NODE);
  }

  get directoryHead(): number {
    return this.head;
  }

  /** The last stream sequence applied here. */
  get position(): number {
    return this.processed;
  }

  reached(streamSeq: number): Promise<void> {
    if (this.processed >= streamSeq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq: streamSeq, resolve }));
  }

  /** Starts following from the checkpoint; resolves once the consumer is set up. */
  async start(): Promise<void> {
    const c = await this.log.client.consumers.get(
      LOG_STREAM,
      this.processed > 0
        ? {
            deliver_policy: DeliverPolicy.StartSequence,
            opt_start_seq: this.processed + 1,
            headers_only: true,
          }
        : { deliver_policy: DeliverPolicy.All, headers_only: true },
    );
    this.messages = await c.consume();
    const messages = this.messages;
    this.running = (async () => {
      for await (const m of messages) {
        const familyId = familyOfSubject(m.subject);
        // The subject's message before this one, where the follower saw it.
        const before = familyId === null ? this.head : this.lastOf.get(m.subject);
        if (familyId !== null) this.lastOf.set(m.subject, m.seq);
        this.remember(m.seq, before);
        try {
          if (familyId === null) {
            await this.applyDirectory(m.seq, await this.payload(m.seq), before!);
          } else if (m.headers?.has(SHARED_HEADER)) {
            await this.applyShared(familyId, m.seq, await this.payload(m.seq), before);
          }
        } catch (err) {
          // Stopping while its payload was being read: the entry was not applied, and the
          // position must not pass it (the next start reads it again).
          if (this.stopped || this.log.closed) return;
          // A message this node cannot apply must not stop the directory for good: say so loudly.
          this.logger.error({ err, streamSeq: m.seq }, 'could not apply a replicated entry');
        }
        this.processed = m.seq;
        this.settle();
      }
    })();
    this.saveTimer = setInterval(() => void this.save(), SAVE_EVERY_MS);
    this.saveTimer.unref();
  }

  /**
   * The payload of the entry at `seq`, read until NATS answers: an entry this node must apply is
   * not passed over for a moment without a stream leader (the consumer waits through that too).
   */
  private async payload(seq: number): Promise<Uint8Array> {
    for (;;) {
      try {
        return await this.log.dataAt(seq);
      } catch (err) {
        if (this.stopped || this.log.closed) throw err;
        this.logger.warn({ err, streamSeq: seq }, 'could not read a replicated entry yet');
        await new Promise((r) => setTimeout(r, RETRY_READ_MS));
      }
    }
  }

  private async applyDirectory(seq: number, data: Uint8Array, before: number): Promise<void> {
    const entry = JSON.parse(new TextDecoder().decode(data)) as DirectoryEntry & Chained;
    if (counts(entry, before)) {
      await applyDirectoryEntry(this.store, entry);
      this.applied += 1;
    } else this.ignored += 1;
    // The head is the subject's last message, counted or not: what the next append names.
    this.head = seq;
    await this.save(seq);
  }

  /** A family batch's parts every node keeps (see the top). */
  private async applyShared(
    familyId: string,
    seq: number,
    data: Uint8Array,
    before: number | undefined,
  ): Promise<void> {
    const entry = JSON.parse(new TextDecoder().decode(data)) as LogEntry;
    if (entry.kind !== 'batch') return;
    const valid =
      before !== undefined || entry.prev === undefined
        ? counts(entry, before ?? 0)
        : await this.log.countsAt(familyId, seq, entry.prev);
    if (!valid) {
      this.ignored += 1;
      return;
    }
    const { indexes, family, settlesQueuedUpdate } = entry.batch;
    if (!indexes?.length && !family && settlesQueuedUpdate === undefined) return;
    const store = this.store;
    const guard = () => store.getCheckpoint(CHECKPOINT, familyId) < seq;
    try {
      await store.commit(
        familyId,
        {
          ...(indexes ? { indexes } : {}),
          ...(family ? { family } : {}),
          ...(settlesQueuedUpdate !== undefined ? { settlesQueuedUpdate } : {}),
        },
        guard,
      );
      this.applied += 1;
    } catch (err) {
      // Refused by the guard: the node's own catch-up applied this batch already.
      if (!(err instanceof StoreWriteError) || guard()) throw err;
    }
  }

  /** How many recent messages' predecessors are kept: writers ask about their own, at once. */
  private static readonly RECENT = 4096;

  private remember(seq: number, before: number | undefined): void {
    if (before !== undefined) this.recent.set(seq, before);
    if (this.recent.size > Follower.RECENT) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
    if (!this.pending.length) return;
    const due = this.pending.filter((p) => p.seq <= seq);
    this.pending = this.pending.filter((p) => p.seq > seq);
    for (const p of due) p.resolve();
  }

  /**
   * The stream sequence of the message before `streamSeq` on its subject (log.ts,
   * `Predecessors`), waiting up to `waitMs` for the follower to read that far.
   */
  async before(_subject: string, streamSeq: number, waitMs: number): Promise<number | null> {
    if (this.processed < streamSeq && !this.recent.has(streamSeq)) {
      let timer: NodeJS.Timeout | undefined;
      let waiting: { seq: number; resolve: () => void } | undefined;
      await new Promise<void>((resolve) => {
        waiting = { seq: streamSeq, resolve };
        this.pending.push(waiting);
        timer = setTimeout(resolve, waitMs);
        timer.unref();
      });
      clearTimeout(timer);
      this.pending = this.pending.filter((p) => p !== waiting);
    }
    return this.recent.get(streamSeq) ?? null;
  }

  private settle(): void {
    if (!this.waiters.length) return;
    const due = this.waiters.filter((w) => w.seq <= this.processed);
    this.waiters = this.waiters.filter((w) => w.seq > this.processed);
    for (const w of due) w.resolve();
  }

  /** Records how far the follower got (after a directory entry: that entry's sequence). */
  private async save(seq = this.processed): Promise<void> {
    if (seq <= this.lastSaved) return;
    this.lastSaved = seq;
    await this.store
      .commit(NODE, {
        checkpoints: [
          { consumer: FOLLOWED, seq },
          { consumer: DIRECTORY_HEAD, seq: this.head },
        ],
      })
      .catch((err: unknown) => this.logger.warn({ err }, 'could not save the follower position'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.saveTimer) clearInterval(this.saveTimer);
    await this.messages?.close();
    await this.running?.catch(() => undefined);
    await this.save();
  }
}

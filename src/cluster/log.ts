/**
 * A family's log in JetStream: every commit batch is one message on the family's subject of a
 * replicated stream. JetStream has no transaction across messages, so the batch is the unit; the
 * family's dense change-log `seq` is carried in the message (JetStream's own sequence counts
 * every family's messages). Every append names the subject's last JetStream sequence the writer
 * saw (`Nats-Expected-Last-Subject-Sequence`): a writer that is behind — a node that lost its
 * lease while another appended — is refused, never appends beside the new owner.
 *
 * That check is not enough on its own. nats-server 2.9 makes it against the messages it has
 * stored, not those it is still replicating: two appends naming the same last sequence that
 * arrive close together (a retry after a timed-out acknowledgement while the first attempt was
 * still in flight; an old owner's batch and a new owner's takeover) can both be stored — three
 * sent at once on one connection were, every time. Two things close that:
 *
 * - each append's message id is its subject and expectation, and JetStream's deduplication,
 *   which does count messages in flight, answers a second one as a duplicate;
 * - since deduplication state need not survive a change of stream leader, the expectation also
 *   travels in the entry (`prev`), and the log means, by construction, only the chain: an
 *   entry counts (`valid`) when its `prev` is the stream sequence of the subject's message
 *   right before it. One that does not is passed over by every reader (replicated.ts,
 *   follower.ts), and its writer, which checks after the acknowledgement (`confirm`), is told
 *   it lost. docs/scaling.md, "Exactly once". An entry's kinds and that rule are in logEntry.ts.
 */
import { randomUUID } from 'node:crypto';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { DIRECTORY_SUBJECT, LOG_STREAM, familySubject } from './connection.js';
import {
  type LogEntry,
  type Chained,
  type StoredEntry,
  type Appended,
  counts,
  FencedError,
  EntryTooLargeError,
  SHARED_HEADER,
} from './logEntry.js';

const WRONG_LAST_SEQUENCE = 10071;
const STREAM_NOT_FOUND = 10059;
const NO_MESSAGE = 10037;
/** Stream sequences (every family's messages count) past which a catch-up uses a consumer. */
const LONG_TAIL = 512;
/**
 * How long an append is retried while the stream has no leader (a server died and the others
 * have not yet noticed and elected one), and how long one attempt waits for its answer.
 */
const RETRY_FOR_MS = 20_000;
const ATTEMPT_TIMEOUT_MS = 2_000;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Who can tell which message of a subject came right before a given one without asking
 * JetStream: the node's follower, which reads every message of the stream in order anyway.
 */
export interface Predecessors {
  /**
   * The stream sequence of the subject's message before the one at `streamSeq` (0: none), once
   * the reader got that far; null when it cannot tell (it did not see the subject's earlier
   * messages, or it did not get there within `waitMs`).
   */
  before(subject: string, streamSeq: number, waitMs: number): Promise<number | null>;
}

/** How long a writer waits for its follower before it asks JetStream itself. */
const PREDECESSOR_WAIT_MS = 1_000;

export class JetStreamLog {
  private readonly js: JetStreamClient;
  /** Set once the node's follower runs (runtime.ts); without it, `confirm` reads. */
  predecessors: Predecessors | null = null;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
  ) {
    this.js = jetstream(nc);
  }

  /**
   * Opens the log, creating its stream on first use with `replicas` copies (3 on a 3-server
   * cluster: a write is acknowledged once a majority stored it).
   */
  static async open(nc: NatsConnection, replicas: number): Promise<JetStreamLog> {
    const jsm = await jetstreamManager(nc);
    const subjects = [familySubject('*'), DIRECTORY_SUBJECT];
    try {
      const info = await jsm.streams.info(LOG_STREAM);
      if (!subjects.every((s) => info.config.subjects?.includes(s))) {
        await jsm.streams.update(LOG_STREAM, { ...info.config, subjects });
      }
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === STREAM_NOT_FOUND)) throw err;
      await jsm.streams.add({
        name: LOG_STREAM,
        subjects,
        num_replicas: replicas,
        // Nothing is ever dropped: the log is the only durable copy of a family.
        max_msgs_per_subject: -1,
        max_age: 0,
        discard: 'new',
      });
    }
    return new JetStreamLog(nc, jsm);
  }

  /** The largest message the servers take: what one batch may weigh once encoded. */
  get maxPayload(): number {
    return this.nc.info?.max_payload ?? 1024 * 1024;
  }

  /**
   * Appends one entry if the family's subject still ends at `expectedStreamSeq` (0: empty) and
   * resolves, once JetStream acknowledged it and it is known to count, with where it landed.
   * One that was stored but does not count (another entry with the same expectation came
   * first) is a FencedError, as a refused one is.
   */
  append(familyId: string, entry: LogEntry, expectedStreamSeq: number): Promise<Appended> {
    // Every node's follower reads every message; this header tells it whether the batch holds
    // anything for it (follower.ts), so it decodes only those.
    const shared =
      entry.kind === 'batch' &&
      (!!entry.batch.indexes?.length ||
        !!entry.batch.family ||
        entry.batch.settlesQueuedUpdate !== undefined);
    return this.appendTo(
      familySubject(familyId),
      entry,
      expectedStreamSeq,
      `family ${familyId}`,
      shared,
    );
  }

  /** Appends a directory entry if the directory's subject still ends at `expectedStreamSeq`. */
  appendDirectory(entry: object, expectedStreamSeq: number): Promise<Appended> {
    return this.appendTo(DIRECTORY_SUBJECT, entry, expectedStreamSeq, 'the directory');
  }

  private async appendTo(
    subject: string,
    entry: object,
    expectedStreamSeq: number,
    what: string,
    shared = true,
  ): Promise<Appended> {
    const chained: Chained = { ...entry, prev: expectedStreamSeq };
    const data = new TextEncoder().encode(JSON.stringify(chained));
    const hdrs = headers();
    if (shared) hdrs.set(SHARED_HEADER, '1');
    if (data.length > this.maxPayload) {
      throw new EntryTooLargeError(
        `the batch is ${data.length} bytes, more than the servers' ` +
          `max_payload of ${this.maxPayload} (docs/scaling.md, "Message size")`,
      );
    }
    const deadline = Date.now() + RETRY_FOR_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        const ack = await this.js.publish(subject, data, {
          expect: { lastSubjectSequence: expectedStreamSeq, streamName: LOG_STREAM },
          // One message per expectation: JetStream's deduplication (unlike its sequence check)
          // counts messages still being replicated, so a second append naming the same last
          // sequence within its window is answered as a duplicate instead of being stored.
          msgID: this.messageId(subject, expectedStreamSeq),
          timeout: ATTEMPT_TIMEOUT_MS,
          headers: hdrs,
        });
        if (ack.duplicate) return await this.ownEarlier(subject, expectedStreamSeq, data, what);
        return await this.confirm(subject, expectedStreamSeq, ack.seq, data, what);
      } catch (err) {
        if (err instanceof FencedError) throw err;
        if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) {
          // A retry after a lost acknowledgement may find its own first attempt: success.
          if (attempt > 0) return await this.ownEarlier(subject, expectedStreamSeq, data, what);
          throw new FencedError(`${what}: another node appended to its log (${err.message})`);
        }
        // No stream leader for a moment (a server died, an election runs) or no answer: try
        // again — the expectation and the chain make a repeated append safe.
        if (Date.now() >= deadline || this.nc.isClosed()) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /**
   * Whether the entry acknowledged at `ackSeq` counts: it does when it is the subject's first
   * message after `expected`. When that is a byte-for-byte earlier attempt of the same append,
   * the earlier one counts (and this one is a repeat every reader ignores); when it is another
   * writer's entry, this one lost.
   */
  private async confirm(
    subject: string,
    expected: number,
    ackSeq: number,
    data: Uint8Array,
    what: string,
  ): Promise<Appended> {
    // Nothing at all was stored between: the common case costs no read.
    if (ackSeq === expected + 1) return { seq: ackSeq, more: false };
    // Other subjects' messages were: the follower, which reads them all, says what came
    // before this one; only when it cannot tell, or this one does not follow, is JetStream read.
    const before = await this.predecessors?.before(subject, ackSeq, PREDECESSOR_WAIT_MS);
    if (before === expected) return { seq: ackSeq, more: false };
    const first = await this.firstAfter(subject, expected);
    if (first?.seq === ackSeq) return { seq: ackSeq, more: false };
    if (first && sameBytes(first.data, data)) return { seq: first.seq, more: true };
    if (!first) throw new Error(`${what}: the entry acknowledged at ${ackSeq} cannot be read back`);
    throw new FencedError(
      `${what}: another entry was stored after ${expected} first (at ${first.seq}); ` +
        `this one (at ${ackSeq}) does not count`,
    );
  }

  /**
   * The append was answered as a duplicate, or refused after an earlier attempt: the entry
   * that counts after `expected` is either this one's earlier attempt (success: entries may
   * follow it) or another writer's (this one lost). The first one may still be on its way to
   * the stream's leader's store: it is looked for a little while.
   */
  private async ownEarlier(
    subject: string,
    expected: number,
    data: Uint8Array,
    what: string,
  ): Promise<Appended> {
    let first = await this.firstAfter(subject, expected);
    for (let i = 0; !first && i < 10; i++) {
      await new Promise((r) => setTimeout(r, 200));
      first = await this.firstAfter(subject, expected);
    }
    if (first && sameBytes(first.data, data)) return { seq: first.seq, more: true };
    if (first) throw new FencedError(`${what}: another entry was appended after ${expected} first`);
    // Answered as a duplicate of a message that never got stored (its replication failed):
    // the next append with this expectation must not be answered the same way for the whole
    // deduplication window. The chain still decides which one counts.
    this.unusable.add(`${subject}:${expected}`);
    throw new Error(`${what}: an append after ${expected} was answered but is not in the stream`);
  }

  /** Message ids answered for a message that was never stored (see `ownEarlier`). */
  private readonly unusable = new Set<string>();

  /** The message id of an append: its subject and expectation (see the top of this file). */
  private messageId(subject: string, expected: number): string {
    const id = `${subject}:${expected}`;
    return this.unusable.has(id) ? `${id}:${randomUUID()}` : id;
  }

  /**
   * The payload of the message at stream sequence `seq` (a direct read): for the follower, whose
   * consumer delivers headers only and which reads the few entries it applies in full.
   */
  async dataAt(seq: number): Promise<Uint8Array> {
    const m = await this.jsm.streams.getMessage(LOG_STREAM, { seq });
    if (!m) throw new Error(`the log's message ${seq} cannot be read`);
    return m.data;
  }

  /** Whether the connection to NATS is closed for good (the node is stopping or halted). */
  get closed(): boolean {
    return this.nc.isClosed();
  }

  /** The subject's first message after stream sequence `after`, if any. */
  private async firstAfter(
    subject: string,
    after: number,
  ): Promise<{ seq: number; data: Uint8Array } | null> {
    // `next_by_subj` (2.9+): the first message of the subject at or after `seq`.
    const query = { seq: after + 1, next_by_subj: subject } as unknown as { seq: number };
    const m = await this.jsm.streams.getMessage(LOG_STREAM, query).catch((err: unknown) => {
      if (err instanceof JetStreamApiError && err.code === NO_MESSAGE) return null;
      throw err;
    });
    return m ? { seq: m.seq, data: m.data } : null;
  }

  private async lastEntry(
    subject: string,
  ): Promise<{ streamSeq: number; data: Uint8Array } | null> {
    const m = await this.jsm.streams
      .getMessage(LOG_STREAM, { last_by_subj: subject })
      .catch((err: unknown) => {
        if (err instanceof JetStreamApiError && err.code === NO_MESSAGE) return null;
        throw err;
      });
    return m ? { streamSeq: m.seq, data: m.data } : null;
  }

  /**
   * Whether a family's entry stored at `streamSeq` with the given `prev` counts, for a reader
   * that did not see the subject's message before it (the follower after a restart).
   */
  async countsAt(familyId: string, streamSeq: number, prev: number): Promise<boolean> {
    return (await this.firstAfter(familySubject(familyId), prev))?.seq === streamSeq;
  }

  /**
   * The family's entries after stream sequence `after`, in order, up to the subject's last entry
   * as it is when the read starts. A short tail is read message by message (a direct read from
   * the stream's leader); a long one through one ordered consumer filtered to the family's
   * subject, which streams it in batches (a takeover of a family with years of history). The
   * consumer needs JetStream's metadata leader, which is briefly absent after a server died:
   * the usual catch-up after a failover is short, and stays on the direct path.
   */
  async *read(familyId: string, after: number): AsyncGenerator<StoredEntry> {
    // `after` is the subject's message right before the first one read (a reader's checkpoint
    // is always one), so each entry's place in the chain is known as it is read.
    let before = after;
    for await (const { streamSeq, entry } of this.readAll(familyId, after)) {
      yield { streamSeq, entry, valid: counts(entry, before) };
      before = streamSeq;
    }
  }

  private async *readAll(
    familyId: string,
    after: number,
  ): AsyncGenerator<{ streamSeq: number; entry: LogEntry }> {
    const last = await this.lastStreamSeq(familyId);
    if (last <= after) return;
    if (last - after <= LONG_TAIL) {
      yield* this.readDirect(familyId, after);
      return;
    }
    const consumer = await this.js.consumers.get(LOG_STREAM, {
      filter_subjects: familySubject(familyId),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: after + 1,
    });
    const messages = await consumer.consume();
    try {
      for await (const m of messages) {
        yield { streamSeq: m.seq, entry: m.json<LogEntry>() };
        if (m.seq >= last) return;
      }
    } finally {
      await messages.close();
    }
  }

  private async *readDirect(
    familyId: string,
    after: number,
  ): AsyncGenerator<{ streamSeq: number; entry: LogEntry }> {
    const subject = familySubject(familyId);
    for (
      let m = await this.firstAfter(subject, after);
      m;
      m = await this.firstAfter(subject, m.seq)
    ) {
      yield { streamSeq: m.seq, entry: JSON.parse(new TextDecoder().decode(m.data)) as LogEntry };
    }
  }

  /** The stream sequence of the family's last entry (0 for none). */
  async lastStreamSeq(familyId: string): Promise<number> {
    return (await this.lastEntry(familySubject(familyId)))?.streamSeq ?? 0;
  }

  /** The stream sequence of the directory's last entry (0 for none). */
  async lastDirectorySeq(): Promise<number> {
    return (await this.lastEntry(DIRECTORY_SUBJECT))?.streamSeq ?? 0;
  }

  /** The stream's last sequence, every subject counted (what a follower must reach). */
  async head(): Promise<number> {
    return (await this.jsm.streams.info(LOG_STREAM)).state.last_seq;
  }

  /** The JetStream client, for the node's follower (an ordered consumer of the whole stream). */
  get client(): JetStreamClient {
    return this.js;
  }
}

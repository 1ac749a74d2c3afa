/**
 * A family's log in JetStream: every commit batch is one message on the family's subject of a
 * replicated stream. JetStream has no transaction across messages, so the batch is the unit; the
 * family's dense change-log `seq` is carried in the message (JetStream's own sequence counts
 * every family's messages). Every append names the subject's last JetStream sequence the writer
 * saw (`Nats-Expected-Last-Subject-Sequence`): a writer that is behind — a node that lost its
 * lease while another appended — is refused, never appends beside the new owner.
 */
import { headers, type NatsConnection } from '@nats-io/transport-node';
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { CommitBatch } from '../store/ports.js';
import { DIRECTORY_SUBJECT, LOG_STREAM, familySubject } from './connection.js';

/** One message of a family's subject. */
export type LogEntry =
  /** A commit batch: `lastSeq` is the family's change-log seq after it. */
  | {
      v: 1;
      kind: 'batch';
      node: string;
      lastSeq: number;
      batch: Omit<CommitBatch, 'expectedLastSeq'>;
    }
  /** A node took the family: whoever appended before must now be refused (the fence). */
  | { v: 1; kind: 'owner'; node: string; lastSeq: number };

export interface StoredEntry {
  streamSeq: number;
  entry: LogEntry;
}

/** The append was refused because someone else appended first (this writer is fenced). */
export class FencedError extends Error {}
/** The batch is larger than the servers accept in one message (`max_payload`). */
export class EntryTooLargeError extends Error {}

/** Set on messages every node's follower must apply (follower.ts); absent, it skips them. */
export const SHARED_HEADER = 'Household-Shared';
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

export class JetStreamLog {
  private readonly js: JetStreamClient;

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
   * resolves with the entry's stream sequence once JetStream acknowledged it.
   */
  append(familyId: string, entry: LogEntry, expectedStreamSeq: number): Promise<number> {
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
  appendDirectory(entry: unknown, expectedStreamSeq: number): Promise<number> {
    return this.appendTo(DIRECTORY_SUBJECT, entry, expectedStreamSeq, 'the directory');
  }

  private async appendTo(
    subject: string,
    entry: unknown,
    expectedStreamSeq: number,
    what: string,
    shared = true,
  ): Promise<number> {
    const data = new TextEncoder().encode(JSON.stringify(entry));
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
          timeout: ATTEMPT_TIMEOUT_MS,
          headers: hdrs,
        });
        return ack.seq;
      } catch (err) {
        if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) {
          // A retry after a lost acknowledgement finds its own first attempt stored: success.
          if (attempt > 0) {
            const last = await this.lastEntry(subject);
            const ours = last && last.streamSeq > expectedStreamSeq && sameBytes(last.data, data);
            if (ours) return last.streamSeq;
          }
          throw new FencedError(`${what}: another node appended to its log (${err.message})`);
        }
        // No stream leader for a moment (a server died, an election runs) or no answer: try
        // again — the expected sequence makes a repeated append safe.
        if (Date.now() >= deadline || this.nc.isClosed()) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
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
   * The family's entries after stream sequence `after`, in order, up to the subject's last entry
   * as it is when the read starts. A short tail is read message by message (a direct read from
   * the stream's leader); a long one through one ordered consumer filtered to the family's
   * subject, which streams it in batches (a takeover of a family with years of history). The
   * consumer needs JetStream's metadata leader, which is briefly absent after a server died:
   * the usual catch-up after a failover is short, and stays on the direct path.
   */
  async *read(familyId: string, after: number): AsyncGenerator<StoredEntry> {
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

  private async *readDirect(familyId: string, after: number): AsyncGenerator<StoredEntry> {
    let seq = after + 1;
    for (;;) {
      // `next_by_subj` (2.9+): the first message of the subject at or after `seq`.
      const query = { seq, next_by_subj: familySubject(familyId) } as unknown as { seq: number };
      const m = await this.jsm.streams.getMessage(LOG_STREAM, query).catch((err: unknown) => {
        if (err instanceof JetStreamApiError && err.code === NO_MESSAGE) return null;
        throw err;
      });
      if (!m) return;
      yield { streamSeq: m.seq, entry: m.json<LogEntry>() };
      seq = m.seq + 1;
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

/**
 * The live change stream's fan-out (docs/api.md, "Live change stream"). One follower per
 * family with open streams waits on the log (src/family/followedLog.ts) and renders each new record as an SSE
 * frame once; every reader that is caught up gets the same text. Nothing is buffered per
 * reader beyond its socket: a reader whose socket is full is set aside and, when it drains,
 * reads what it missed from the log itself — unless the family has moved more than
 * `maxBacklog` records past it meanwhile; then it is sent `event: dropped` and closed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ChangeRecord } from '../store/types.js';
import type { FollowedLog } from '../family/followedLog.js';
import { SSE_HEADERS } from '../door/sse.js';
import { J, type ShapeOf } from '../domain/shared/shape.js';

/**
 * The stream's events, described once with their schemas: each record is `event: <its type>`
 * with the change record as its data (`CHANGE_RECORD`, src/domain/shared/changeRecord.ts);
 * `event: dropped` closes a reader that fell too far behind, with this data.
 */
export const STREAM_DROPPED = J.object({
  after: J.integer('The seq of the last record the reader was sent: resume after it'),
  head: J.integer("The seq of the family log's last record"),
});
export type StreamDropped = ShapeOf<typeof STREAM_DROPPED>;

export interface HubOptions {
  heartbeatMs: number;
  maxBacklog: number;
  perKey: number;
  /** Whether the key may still read (not revoked); asked on each heartbeat. */
  keyValid?: (keyId: string) => boolean;
  /** Told when a stream opens and closes (the daemon's count of requests in progress). */
  onOpen?: () => void;
  onClose?: () => void;
}

/** Records read from the log per step of a catch-up (bounded work per turn of the loop). */
const PAGE = 500;

/**
 * The shortest time between two fan-outs of one family. A write alone goes out at once; under
 * a burst the records of this window go out together, so that 200 readers cost 200 socket
 * writes per window rather than per commit (docs/performance.md, "Live change stream").
 */
export const FANOUT_INTERVAL_MS = 20;

export function frameOf(r: ChangeRecord): string {
  return `id: ${r.seq}\nevent: ${r.type}\ndata: ${JSON.stringify(r)}\n\n`;
}

export class Refused extends Error {
  constructor(
    readonly reason: 'per_key' | 'closing' | 'ahead',
    message: string,
  ) {
    super(message);
  }
}

interface Reader {
  res: ServerResponse;
  /** Frames are written on the socket directly, framed once per fan-out for every reader. */
  socket: Socket;
  /** Whether the answer is chunked (HTTP/1.1), so raw writes carry the chunk framing. */
  chunked: boolean;
  keyId: string;
  /** The last seq this reader was sent. */
  pos: number;
  /** Caught up and taking the follower's frames (false while it reads its backlog or waits for drain). */
  live: boolean;
  /** Its socket is full: waiting for 'drain'. Only a paused reader can be dropped. */
  paused: boolean;
  closed: boolean;
}

class Follower {
  readonly readers = new Set<Reader>();
  head: number;
  private readonly stop = new AbortController();

  constructor(
    private readonly hub: StreamHub,
    readonly familyId: string,
  ) {
    this.head = hub.log.head(familyId);
    // A read that fails (the store closed under a stopping daemon) ends this family's streams;
    // the clients reconnect with Last-Event-ID and lose nothing.
    this.run().catch(() => {
      this.stop.abort();
      for (const r of this.readers) if (!r.res.writableEnded) r.res.end();
    });
  }

  close(): void {
    this.stop.abort();
  }

  private async run(): Promise<void> {
    let last = 0;
    while (!this.stop.signal.aborted) {
      await this.hub.log.next(this.familyId, this.head, this.stop.signal);
      const wait = last + FANOUT_INTERVAL_MS - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      last = performance.now();
      for (;;) {
        if (this.stop.signal.aborted) return;
        const records = this.hub.log.read(this.familyId, this.head, PAGE);
        if (!records.length) break;
        const from = this.head;
        this.head = records[records.length - 1].seq;
        let text = '';
        for (const r of records) text += frameOf(r);
        const framed = { raw: Buffer.from(text), chunk: chunkOf(text) };
        for (const reader of this.readers) this.offer(reader, from, framed);
      }
    }
  }

  /** Hands a reader the frames of (from, head] when it is caught up; checks the gap when not. */
  private offer(reader: Reader, from: number, framed: { raw: Buffer; chunk: Buffer }): void {
    if (reader.live && reader.pos === from) {
      reader.pos = this.head;
      if (!reader.socket.write(reader.chunked ? framed.chunk : framed.raw)) this.pause(reader);
    } else if (reader.paused && this.head - reader.pos > this.hub.opts.maxBacklog) {
      this.hub.drop(reader, this);
    }
  }

  private pause(reader: Reader): void {
    reader.live = false;
    reader.paused = true;
    reader.socket.once('drain', () => {
      reader.paused = false;
      this.catchUp(reader).catch(() => reader.res.end());
    });
  }

  /** Sends a reader what it missed, from the log, until it reaches the follower's head. */
  async catchUp(reader: Reader): Promise<void> {
    while (!reader.closed) {
      if (reader.pos >= this.head) {
        reader.live = true;
        return;
      }
      const records = this.hub.log.read(
        this.familyId,
        reader.pos,
        Math.min(PAGE, this.head - reader.pos),
      );
      if (!records.length) {
        reader.live = true;
        return;
      }
      let text = '';
      for (const r of records) text += frameOf(r);
      reader.pos = records[records.length - 1].seq;
      if (!send(reader, text)) {
        this.pause(reader);
        return;
      }
      // Let the loop breathe between pages of a long backlog.
      await new Promise((r) => setImmediate(r));
    }
  }
}

export class StreamHub {
  private readonly followers = new Map<string, Follower>();
  private readonly perKey = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private closing = false;

  constructor(
    readonly log: FollowedLog,
    readonly opts: HubOptions,
  ) {
    this.timer = setInterval(() => this.heartbeat(), opts.heartbeatMs);
    this.timer.unref();
  }

  get openCount(): number {
    let n = 0;
    for (const f of this.followers.values()) n += f.readers.size;
    return n;
  }

  /**
   * Opens a stream on `res` from after `after` (null: from the durable end). Refuses (Refused)
   * before anything is written: past the per-key limit, while closing, or after the log's end.
   */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    o: { familyId: string; keyId: string; after: number | null },
  ): void {
    if (this.closing) throw new Refused('closing', 'The daemon is stopping');
    const count = this.perKey.get(o.keyId) ?? 0;
    if (count >= this.opts.perKey) {
      throw new Refused(
        'per_key',
        `This API key already has ${count} open streams (stream.perKey); close one first`,
      );
    }
    let follower = this.followers.get(o.familyId);
    const head = follower?.head ?? this.log.head(o.familyId);
    if (o.after !== null && o.after > head) {
      throw new Refused('ahead', `is past the end of the change log (its last seq is ${head})`);
    }
    if (!follower) this.followers.set(o.familyId, (follower = new Follower(this, o.familyId)));
    this.perKey.set(o.keyId, count + 1);
    this.opts.onOpen?.();
    req.socket.setNoDelay(true);
    res.writeHead(200, SSE_HEADERS);
    const reader: Reader = {
      res,
      socket: req.socket,
      chunked: (res as unknown as { chunkedEncoding?: boolean }).chunkedEncoding === true,
      keyId: o.keyId,
      pos: o.after ?? follower.head,
      live: false,
      paused: false,
      closed: false,
    };
    follower.readers.add(reader);
    const f = follower;
    res.once('close', () => this.release(reader, f));
    // A first comment flushes the headers, so the client sees the stream open at once. Records
    // are written on the socket itself (framed once for every reader): only after the
    // response's own bytes are on it — Node 22+ holds a response's chunks back until the next
    // tick, and a record written before them reached the client ahead of the headers.
    res.write(': open\n\n', () => {
      if (!reader.closed) f.catchUp(reader).catch(() => res.end());
    });
  }

  /** Sends `event: dropped` and closes the reader (it fell too far behind). */
  drop(reader: Reader, f: Follower): void {
    if (reader.closed) return;
    const dropped: StreamDropped = { after: reader.pos, head: f.head };
    send(reader, `event: dropped\ndata: ${JSON.stringify(dropped)}\n\n`);
    reader.res.end();
    this.release(reader, f);
  }

  /** Ends every stream (the daemon is stopping); new ones are refused. */
  close(): void {
    this.closing = true;
    clearInterval(this.timer);
    for (const f of this.followers.values()) {
      for (const r of f.readers) {
        r.res.end();
        this.release(r, f);
      }
      f.close();
    }
    this.followers.clear();
  }

  private release(reader: Reader, f: Follower): void {
    if (reader.closed) return;
    reader.closed = true;
    f.readers.delete(reader);
    const left = (this.perKey.get(reader.keyId) ?? 1) - 1;
    if (left > 0) this.perKey.set(reader.keyId, left);
    else this.perKey.delete(reader.keyId);
    this.opts.onClose?.();
    if (!f.readers.size && this.followers.get(f.familyId) === f) {
      this.followers.delete(f.familyId);
      f.close();
    }
  }

  /** A comment on every open stream (proxies close quiet connections); revoked keys' streams end. */
  private heartbeat(): void {
    for (const f of this.followers.values()) {
      for (const r of f.readers) {
        if (this.opts.keyValid && !this.opts.keyValid(r.keyId)) {
          r.res.end();
          this.release(r, f);
          continue;
        }
        if (r.live) send(r, ': keep-alive\n\n');
      }
    }
  }
}

/** One HTTP/1.1 chunk holding `text`. */
function chunkOf(text: string): Buffer {
  const body = Buffer.from(text);
  return Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, CRLF]);
}
const CRLF = Buffer.from('\r\n');

/** Writes `text` on the reader's socket (as a chunk when the answer is chunked). */
function send(reader: Reader, text: string): boolean {
  return reader.socket.write(reader.chunked ? chunkOf(text) : text);
}

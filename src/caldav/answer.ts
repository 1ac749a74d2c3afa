/**
 * A multistatus answer written in parts, within fixed limits, giving the event loop back while
 * it is written.
 *
 * One REPORT used to be able to ask for anything: a daily event since 1900 with a 20,000-
 * character note, expanded over 1900–2000, answered 117 MB and held the event loop for 42 s.
 * Now every REPORT and PROPFIND answer counts its bytes and expanded occurrences as it grows and
 * stops at the first limit passed, with `507 Insufficient Storage` and the precondition
 * `DAV:number-of-matches-within-limits` (RFC 5323 §5.17 and RFC 6578 §3.6 name it; RFC 4791
 * lets a server refuse what it will not compute). The whole request is refused rather than
 * answered in part: a client reading a truncated calendar-query as the calendar's content would
 * lose the events left out (vdirsyncer, for one, would delete them), while a refusal makes it
 * ask a narrower range. Between parts the writer yields to the event loop once it has held it
 * for a slice, so other requests are answered while a large answer is written; a large answer is
 * then sent as a stream of its parts, never joined into one string.
 */
import { Readable } from 'node:stream';
import type Koa from 'koa';
import { CalDavError } from './errors.js';
import { DAV, document } from './xml.js';

export const ANSWER_LIMITS = {
  /** Bytes of one multistatus body. */
  bytes: 32 * 1024 * 1024,
  /** Occurrences one REPORT with `expand` may write, over all its objects. */
  occurrences: 10_000,
  /** How long a writer keeps the event loop before it lets others run, ms. */
  sliceMs: 10,
} as const;

/** Answers smaller than this are sent as one string (and may be remembered). */
const STREAM_FROM = 256 * 1024;

export function tooMuch(what: string): CalDavError {
  return new CalDavError(
    507,
    `The answer would hold more than ${what}; ask for a shorter time range or fewer objects`,
    { ns: DAV, local: 'number-of-matches-within-limits' },
  );
}

export class Answer {
  readonly parts: string[] = [];
  bytes = 0;
  occurrences = 0;
  private sliceStart = performance.now();

  /**
   * Appends a part; throws 507 once the answer would pass its byte limit. `bytes`: its size, when
   * the caller knows it already.
   */
  add(part: string, bytes = Buffer.byteLength(part)): void {
    this.bytes += bytes;
    if (this.bytes > ANSWER_LIMITS.bytes) throw tooMuch(`${ANSWER_LIMITS.bytes / 1024 / 1024} MiB`);
    this.parts.push(part);
  }

  /** Appends parts whose size the caller counted (and held within the limit) as it made them. */
  addWritten(parts: string[], bytes: number): void {
    for (const p of parts) this.parts.push(p);
    this.bytes += bytes;
  }

  /** Counts expanded occurrences; throws 507 past the limit. */
  countOccurrences(n: number): void {
    this.occurrences += n;
    if (this.occurrences > ANSWER_LIMITS.occurrences)
      throw tooMuch(`${ANSWER_LIMITS.occurrences.toLocaleString('en-US')} occurrences`);
  }

  /** Lets other work run once this answer has held the event loop for a slice. */
  async pause(): Promise<void> {
    if (!this.due()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }

  /**
   * Whether the slice is used up, for loops over many small items (an expanded answer's
   * occurrences): `if (answer.due()) await answer.pause()` costs no promise per item.
   */
  due(): boolean {
    return performance.now() - this.sliceStart >= ANSWER_LIMITS.sliceMs;
  }

  /** The parts as one string (for small answers), joined once however often it is asked. */
  text(): string {
    if (this.joined === undefined || this.joinedParts !== this.parts.length) {
      this.joined = this.parts.join('');
      this.joinedParts = this.parts.length;
    }
    return this.joined;
  }
  private joined: string | undefined;
  private joinedParts = 0;
}

/** Runs `fn` for each item, pausing between items when the slice is used up. */
export async function eachSliced<T>(
  items: Iterable<T>,
  answer: Answer,
  fn: (item: T) => void | Promise<void>,
): Promise<void> {
  for (const item of items) {
    await fn(item);
    await answer.pause();
  }
}

/** Sets the 207 answer: one string when small, else a stream of the parts (with its length). */
export function sendMultistatus(ctx: Koa.Context, answer: Answer): void {
  ctx.status = 207;
  ctx.type = 'application/xml; charset=utf-8';
  if (answer.bytes < STREAM_FROM) {
    ctx.body = document('multistatus', answer.text());
    return;
  }
  const [head, tail] = document('multistatus', '\u0000').split('\u0000');
  ctx.body = Readable.from(chunks([head, ...answer.parts, tail]), { objectMode: false });
  ctx.length = Buffer.byteLength(head) + answer.bytes + Buffer.byteLength(tail);
}

/**
 * Parts gathered into chunks of about 64 KiB, so the socket is not written per part. A long
 * part that comes back again and again (an expanded event's note, the same string for every
 * occurrence) is turned into bytes once and the same buffer written each time.
 *
 * The generator also gives the event loop back once it has held it for a slice: over loopback
 * or a fast LAN the kernel takes every write at once, and the stream's own hand-over (drain,
 * resume) runs on process.nextTick, so without this a 30 MiB answer was written in one turn.
 */
async function* chunks(parts: string[]): AsyncGenerator<Buffer> {
  const long = new Map<string, Buffer>();
  let pending: string[] = [];
  let size = 0;
  let sliceStart = performance.now();
  const flush = () => {
    const b = Buffer.from(pending.join(''));
    pending = [];
    size = 0;
    return b;
  };
  const breathe = async () => {
    if (performance.now() - sliceStart < ANSWER_LIMITS.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  for (const p of parts) {
    if (p.length < 4096) {
      pending.push(p);
      size += p.length;
      if (size >= 64 * 1024) {
        yield flush();
        await breathe();
      }
      continue;
    }
    if (pending.length) yield flush();
    let b = long.get(p);
    if (!b) {
      b = Buffer.from(p);
      if (long.size < 1000) long.set(p, b);
    }
    yield b;
    await breathe();
  }
  if (pending.length) yield flush();
}

/**
 * Where an attempt is signed and sent. Two ways, one shape (`Transport`):
 *
 * - `SendThread` (the daemon's): a worker thread (sendWorker.ts) signs the bodies, makes the
 *   requests and reads the answers, so that their CPU — the HMAC, node:http's request and
 *   response, the socket writes — is spent beside the main thread where the families' writes
 *   are decided, not on it. Attempts go over in one message per turn of the main loop, answers
 *   come back the same way. The thread starts with the first attempt (a daemon whose families
 *   have no destination never pays for it). If it dies, the attempts it held come back as
 *   `lost`: the sender sends them again (the receiver may have had them: at least once, as
 *   after a crash), which starts it again — after a second if it died within one of its start.
 * - `inProcess`: on the main thread through the egress client it is given — for a client that
 *   cannot be made again in a thread (one a test built by hand).
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Egress } from '../integrations/egress.js';
import { sendAttempt, type AttemptInput, type AttemptLimits, type SendResult } from './attempt.js';
import { RESULT, type FromWorker, type ToWorker, type WorkerInput } from './sendWire.js';

/** What a send came to; `lost` when the thread that held it died (send it again). */
export type TransportResult = SendResult | 'lost';

export interface Transport {
  send(input: Omit<AttemptInput, 'signal'>): Promise<TransportResult>;
  /** Cancels the sends in flight (shutdown): they resolve as aborted. */
  abort(): void;
  close(): Promise<void>;
}

export function inProcess(egress: Egress, limits: AttemptLimits): Transport {
  let aborter = new AbortController();
  return {
    send: (input) => sendAttempt(egress, limits, { ...input, signal: aborter.signal }),
    abort() {
      aborter.abort();
      aborter = new AbortController();
    },
    close: () => Promise.resolve(),
  };
}

/** A thread that dies sooner than this after its start is started again only after this long. */
const RESTART_BACKOFF_MS = 1_000;

export class SendThread implements Transport {
  private worker: Worker | null = null;
  private startedAt = 0;
  private next = 1;
  private readonly waiting = new Map<number, (r: TransportResult) => void>();
  private jobs: (string | number)[] = [];
  private strings: string[] = [];
  private stringIndex = new Map<string, number>();
  private closing = false;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { egress: Egress; limits: AttemptLimits; logger: Logger }) {}

  /** The thread's id while it runs (tests end it to show a restart loses nothing). */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  /** Ends the thread as a crash would (tests). */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  send(input: Omit<AttemptInput, 'signal'>): Promise<TransportResult> {
    if (this.closing) return Promise.resolve('lost');
    const n = this.next++;
    if (!this.jobs.length) setImmediate(() => this.flush());
    if (!this.worker && !this.restartTimer) this.start();
    this.jobs.push(
      n,
      this.intern(input.url),
      this.intern(input.secrets[0]),
      input.secrets.length > 1 ? this.intern(input.secrets[1]) : -1,
      this.intern(input.body),
      input.id,
      +input.at,
    );
    return new Promise((resolve) => this.waiting.set(n, resolve));
  }

  /** A string's index in this message's table: a body shared by a record's destinations crosses once. */
  private intern(s: string): number {
    let i = this.stringIndex.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.stringIndex.set(s, i);
    }
    return i;
  }

  abort(): void {
    this.worker?.postMessage({ t: 'abort' } satisfies ToWorker);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
    this.lose();
  }

  private flush(): void {
    if (!this.worker || !this.jobs.length) return; // sent when the thread is back
    const msg: ToWorker = { t: 'send', jobs: this.jobs, strings: this.strings };
    this.jobs = [];
    this.strings = [];
    this.stringIndex = new Map();
    this.worker.postMessage(msg);
  }

  private start(): void {
    const { egress, limits, logger } = this.deps;
    const { lookup, ...options } = egress.options ?? {};
    const workerData: WorkerInput = { limits, egress: { ...options, lookup: !!lookup } };
    const w = new Worker(new URL('./sendWorker.js', import.meta.url), {
      workerData,
      name: 'webhooks',
    });
    w.unref();
    this.worker = w;
    this.startedAt = performance.now();
    w.on('message', (m: FromWorker) => {
      if (m.t === 'done') {
        const r = m.results;
        for (let i = 0; i < r.length; i += RESULT) {
          const n = r[i] as number;
          const resolve = this.waiting.get(n);
          this.waiting.delete(n);
          resolve?.({
            ok: r[i + 1] === 1,
            responseStatus: r[i + 2] === -1 ? null : (r[i + 2] as number),
            durationMs: r[i + 3] as number,
            error: r[i + 4] as string | null,
            retryAfterMs: r[i + 5] === -1 ? null : (r[i + 5] as number),
            aborted: r[i + 6] === 1,
          });
        }
      } else if (lookup) {
        lookup(m.hostname, m.options, (err, addresses, family) => {
          const reply: ToWorker = {
            t: 'lookup',
            id: m.id,
            err: err ? { message: err.message, code: err.code } : null,
            addresses,
            family,
          };
          w.postMessage(reply);
        });
      }
    });
    w.on('error', (err) => logger.error({ err }, 'the webhook delivery thread failed'));
    w.on('exit', () => this.exited(w));
    this.flush();
  }

  private exited(w: Worker): void {
    if (this.worker !== w) return;
    this.worker = null;
    this.lose();
    if (this.closing) return;
    this.deps.logger.warn('the webhook delivery thread stopped; the next attempt starts it again');
    // The attempts it held are sent again at once: a thread that dies as it starts must not
    // make that a loop.
    if (performance.now() - this.startedAt >= RESTART_BACKOFF_MS) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.closing && this.jobs.length) this.start();
    }, RESTART_BACKOFF_MS);
    this.restartTimer.unref();
  }

  /** The thread is gone: every attempt it held (and any not yet handed over) is lost. */
  private lose(): void {
    const waiting = Array.from(this.waiting.values());
    this.waiting.clear();
    // Attempts batched for the dead thread are re-sent by the sender, not by this batch.
    this.jobs = [];
    this.strings = [];
    this.stringIndex = new Map();
    for (const resolve of waiting) resolve('lost');
  }
}

/**
 * Where an attempt is signed and sent. Two ways, one shape (`Transport`):
 *
 * - `SendThread` (the daemon's): a worker thread (sendWorker.ts) signs the bodies, makes the
 *   requests and reads the answers, so that their CPU — the HMAC, node:http's request and
 *   response, the socket writes — is spent beside the main thread where the families' writes
 *   are decided, not on it. Attempts go over in one message per turn of the main loop, answers
 *   come back the same way. If the thread dies, it is started again and the attempts it held
 *   come back as `lost`: the sender sends them again (the receiver may have had them: at least
 *   once, as after a crash).
 * - `inProcess`: on the main thread through the egress client it is given — for a client that
 *   cannot be made again in a thread (one a test built by hand).
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Egress } from '../integrations/egress.js';
import { sendAttempt, type AttemptInput, type AttemptLimits, type SendResult } from './attempt.js';
import type { FromWorker, ToWorker, WireJob, WorkerInput } from './sendWorker.js';

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
  private jobs: WireJob[] = [];
  private bodies: string[] = [];
  private bodyIndex = new Map<string, number>();
  private closing = false;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: { egress: Egress; limits: AttemptLimits; logger: Logger },
  ) {
    this.start();
  }

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
    // A record's body is shared by its destinations: it crosses once per message.
    let b = this.bodyIndex.get(input.body);
    if (b === undefined) {
      b = this.bodies.push(input.body) - 1;
      this.bodyIndex.set(input.body, b);
    }
    if (!this.jobs.length) setImmediate(() => this.flush());
    this.jobs.push({ n, url: input.url, secrets: input.secrets, id: input.id, b, at: +input.at });
    return new Promise((resolve) => this.waiting.set(n, resolve));
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
    const msg: ToWorker = { t: 'send', jobs: this.jobs, bodies: this.bodies };
    this.jobs = [];
    this.bodies = [];
    this.bodyIndex = new Map();
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
        for (const r of m.results) {
          const resolve = this.waiting.get(r.n);
          this.waiting.delete(r.n);
          const { n: _n, ...result } = r;
          resolve?.(result);
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
    const soon = performance.now() - this.startedAt < RESTART_BACKOFF_MS;
    this.deps.logger.warn('the webhook delivery thread stopped; starting it again');
    if (!soon) return this.start();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.closing) this.start();
    }, RESTART_BACKOFF_MS);
    this.restartTimer.unref();
  }

  /** The thread is gone: every attempt it held (and any not yet handed over) is lost. */
  private lose(): void {
    const waiting = Array.from(this.waiting.values());
    this.waiting.clear();
    // Attempts batched for the dead thread are re-sent by the sender, not by this batch.
    this.jobs = [];
    this.bodies = [];
    this.bodyIndex = new Map();
    for (const resolve of waiting) resolve('lost');
  }
}

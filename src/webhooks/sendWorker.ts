/**
 * The delivery thread (sendThread.ts starts it): signs and sends the attempts the main thread
 * hands it, in batches, and hands the answers back in batches. It holds its own egress client,
 * made with the main thread's options, so every send still goes through the guarded agents under
 * the `webhooks` policy with its timeout, no redirects and the answer cap (attempt.ts); a
 * resolver a test injected stays the main thread's, asked over the port (the guard judges what it
 * answers here, as it would there).
 *
 * In: workerData `{limits, egress: {userAgent?, trusted?, keepAlive?, lookup: boolean}}`;
 * messages `{t: 'send', jobs, bodies}` (a body is shared by the jobs of one record: `jobs[i].b`
 * indexes `bodies`), `{t: 'abort'}` (shutdown: cancel what is in flight), `{t: 'lookup', id,
 * err, addresses, family}` (the main thread's resolver answered).
 * Out: `{t: 'done', results}` (one per job, by its ticket `n`), `{t: 'lookup', id, hostname,
 * options}` (asking the main thread's resolver).
 */
import type { LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { createEgress, type EgressOptions } from '../integrations/egress.js';
import { sendAttempt, type AttemptLimits, type SendResult } from './attempt.js';

export interface WireJob {
  /** The main thread's ticket for this attempt. */
  n: number;
  url: string;
  secrets: readonly string[];
  id: string;
  /** Index of the body in the message's `bodies`. */
  b: number;
  /** The attempt's time (ms since the epoch): its webhook-timestamp, and Retry-After's base. */
  at: number;
}

export type WireResult = SendResult & { n: number };

export interface WorkerInput {
  limits: AttemptLimits;
  egress: Omit<EgressOptions, 'lookup'> & { lookup: boolean };
}

export type ToWorker =
  | { t: 'send'; jobs: WireJob[]; bodies: string[] }
  | { t: 'abort' }
  | {
      t: 'lookup';
      id: number;
      err: { message: string; code?: string | undefined } | null;
      addresses: string | { address: string; family: number }[];
      family?: number | undefined;
    };

export type FromWorker =
  | { t: 'done'; results: WireResult[] }
  | { t: 'lookup'; id: number; hostname: string; options: LookupOptions };

const input = workerData as WorkerInput;
const port = parentPort!;

type LookupCallback = Parameters<LookupFunction>[2];
const lookups = new Map<number, LookupCallback>();
let lookupId = 0;
/** The main thread's resolver, over the port (a function cannot be handed to a thread). */
const viaMain: LookupFunction = (hostname, options, callback) => {
  const id = ++lookupId;
  lookups.set(id, callback);
  port.postMessage({ t: 'lookup', id, hostname, options } satisfies FromWorker);
};

const { lookup, ...rest } = input.egress;
const egress = createEgress({ ...rest, ...(lookup ? { lookup: viaMain } : {}) });
let aborter = new AbortController();

// Answers go back in batches: one message per turn of this thread's loop, however many came in.
let results: WireResult[] = [];
function answer(r: WireResult): void {
  if (!results.length) setImmediate(flush);
  results.push(r);
}
function flush(): void {
  const out = results;
  results = [];
  port.postMessage({ t: 'done', results: out } satisfies FromWorker);
}

function send(jobs: WireJob[], bodies: string[]): void {
  const signal = aborter.signal;
  for (const j of jobs) {
    void sendAttempt(egress, input.limits, {
      url: j.url,
      secrets: j.secrets,
      id: j.id,
      body: bodies[j.b],
      at: new Date(j.at),
      signal,
    }).then((r) => answer({ ...r, n: j.n }));
  }
}

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'send':
      send(m.jobs, m.bodies);
      return;
    case 'abort':
      aborter.abort();
      aborter = new AbortController();
      return;
    case 'lookup': {
      const cb = lookups.get(m.id);
      lookups.delete(m.id);
      if (!cb) return;
      if (m.err) cb(Object.assign(new Error(m.err.message), { code: m.err.code }), '');
      else if (typeof m.addresses === 'string') cb(null, m.addresses, m.family);
      else cb(null, m.addresses);
      return;
    }
    default:
      m satisfies never;
  }
});

/**
 * The delivery thread (sendThread.ts starts it): signs and sends the attempts the main thread
 * hands it, in batches, and hands the answers back in batches. It holds its own egress client,
 * made with the main thread's options, so every send still goes through the guarded agents under
 * the `webhooks` policy with its timeout, no redirects and the answer cap (attempt.ts); a
 * resolver a test injected stays the main thread's, asked over the port (the guard judges what it
 * answers here, as it would there).
 *
 * In: workerData `{limits, egress: {userAgent?, trusted?, keepAlive?, lookup: boolean}}`;
 * messages `{t: 'send', jobs, strings}`, `{t: 'abort'}` (shutdown: cancel what is in flight),
 * `{t: 'lookup', id, err, addresses, family}` (the main thread's resolver answered).
 * Out: `{t: 'done', results}`, `{t: 'lookup', id, hostname, options}` (asking the main thread's
 * resolver).
 * The shapes of the messages are in sendWire.ts.
 */
import type { LookupFunction } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { createEgress } from '../integrations/egress.js';
import { sendAttempt, type SendResult } from './attempt.js';
import { JOB, type FromWorker, type ToWorker, type WorkerInput } from './sendWire.js';

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
let results: (string | number | null)[] = [];
function answer(n: number, r: SendResult): void {
  if (!results.length) setImmediate(flush);
  results.push(
    n,
    r.ok ? 1 : 0,
    r.responseStatus ?? -1,
    r.durationMs,
    r.error,
    r.retryAfterMs ?? -1,
    r.aborted ? 1 : 0,
  );
}
function flush(): void {
  const out = results;
  results = [];
  port.postMessage({ t: 'done', results: out } satisfies FromWorker);
}

function send(jobs: (string | number)[], strings: string[]): void {
  const signal = aborter.signal;
  for (let i = 0; i < jobs.length; i += JOB) {
    const n = jobs[i] as number;
    const previous = jobs[i + 3] as number;
    const secret = strings[jobs[i + 2] as number];
    void sendAttempt(egress, input.limits, {
      url: strings[jobs[i + 1] as number],
      secrets: previous === -1 ? [secret] : [secret, strings[previous]],
      id: jobs[i + 5] as string,
      body: strings[jobs[i + 4] as number],
      at: new Date(jobs[i + 6] as number),
      signal,
    }).then((r) => answer(n, r));
  }
}

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'send':
      send(m.jobs, m.strings);
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

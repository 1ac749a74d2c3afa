/**
 * What crosses between the main thread and the delivery thread (sendThread.ts, sendWorker.ts).
 * Jobs and results cross as flat arrays (JOB and RESULT fields per item), and a body, URL or
 * secret list shared by several jobs (a record's body goes to each of its destinations) crosses
 * once, in `strings`: copying thousands of small objects with their keys between threads costs
 * the main thread more than the numbers and strings themselves.
 */
import type { LookupOptions } from 'node:dns';
import type { EgressOptions } from '../integrations/egress.js';
import type { AttemptLimits } from './attempt.js';

/**
 * One job: the main thread's ticket, the indexes in `strings` of the URL, of the secret, of the
 * previous secret (-1: none; a destination signs with at most two, for 24 h after a rotation)
 * and of the body, the webhook id, and the attempt's time (ms since the epoch: its
 * webhook-timestamp, and Retry-After's base).
 */
export const JOB = 7;
/**
 * One result: ticket, ok (1/0), status (-1: none), durationMs, error, retryAfterMs (-1: none),
 * aborted (1/0).
 */
export const RESULT = 7;

export interface WorkerInput {
  limits: AttemptLimits;
  egress: Omit<EgressOptions, 'lookup'> & { lookup: boolean };
}

export type ToWorker =
  | { t: 'send'; jobs: (string | number)[]; strings: string[] }
  | { t: 'abort' }
  | {
      t: 'lookup';
      id: number;
      err: { message: string; code?: string | undefined } | null;
      addresses: string | { address: string; family: number }[];
      family?: number | undefined;
    };

export type FromWorker =
  | { t: 'done'; results: (string | number | null)[] }
  | { t: 'lookup'; id: number; hostname: string; options: LookupOptions };

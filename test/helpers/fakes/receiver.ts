/**
 * A webhook receiver on 127.0.0.1 (port 0): records every delivery with its raw body, answers
 * what the test sets (200 by default), counts connections, and verifies signatures with the
 * `standardwebhooks` library from the raw body, as a real receiver would.
 */
import { Webhook } from 'standardwebhooks';
import { startLocalService, type LocalService } from '../../integrations/localService.js';

export interface Delivery {
  id: string;
  timestamp: number;
  signature: string;
  raw: string;
  json: any;
  headers: Record<string, string | string[] | undefined>;
  /** When it arrived (the real clock, ms). */
  receivedAt: number;
  /** What the receiver answered. */
  answered: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  url: string;
  port: number;
  deliveries: Delivery[];
  readonly connections: number;
  /** What to answer to the n-th delivery (0-based); default 200. */
  answer: (d: Delivery, n: number) => Answer;
  /** Resolves when `count` deliveries arrived (real wait, at most `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const r: Receiver = {
    url: '',
    port: 0,
    deliveries: [],
    connections: 0,
    answer: () => ({ status: 200 }),
    waitFor: () => Promise.resolve([]),
    close: () => Promise.resolve(),
  };
  const waiters: { count: number; resolve: () => void }[] = [];
  const service: LocalService = await startLocalService((req, res, body) => {
    const raw = body.toString('utf8');
    let json: unknown = null;
    try {
      json = JSON.parse(raw);
    } catch {
      /* keep null */
    }
    const h = req.headers;
    const d: Delivery = {
      id: String(h['webhook-id'] ?? ''),
      timestamp: Number(h['webhook-timestamp']),
      signature: String(h['webhook-signature'] ?? ''),
      raw,
      json,
      headers: h,
      receivedAt: Date.now(),
      answered: 0,
    };
    const a = r.answer(d, r.deliveries.length);
    d.answered = a.status;
    r.deliveries.push(d);
    res.writeHead(a.status, { 'content-type': 'text/plain', ...(a.headers ?? {}) });
    res.end(a.body ?? '');
    for (const w of waiters.splice(0)) {
      if (r.deliveries.length >= w.count) w.resolve();
      else waiters.push(w);
    }
  });
  r.port = service.port;
  r.url = `${service.origin}${path}`;
  Object.defineProperty(r, 'connections', { get: () => service.connections });
  r.waitFor = (count, timeoutMs = 5_000) =>
    new Promise((resolve, reject) => {
      if (r.deliveries.length >= count) {
        resolve(r.deliveries);
        return;
      }
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `only ${r.deliveries.length} of ${count} deliveries arrived within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(r.deliveries);
        },
      });
    });
  r.close = () => service.close();
  return r;
}

/**
 * Verifies a delivery with the standardwebhooks library as of `at` (the daemon's fake clock: the
 * library checks the timestamp against Date.now with a 5-minute tolerance). Returns the parsed
 * payload, or throws the library's error.
 */
export function verifyDelivery(secret: string, d: Delivery, at: Date = new Date()): any {
  const realNow = Date.now;
  Date.now = () => at.getTime();
  try {
    return new Webhook(secret).verify(d.raw, {
      'webhook-id': d.id,
      'webhook-timestamp': String(d.timestamp),
      'webhook-signature': d.signature,
    });
  } finally {
    Date.now = realNow;
  }
}

/**
 * Fetching and reading external calendar feeds (docs/feeds.md): one GET through the egress guard
 * (policy `egress.calendarFeeds`, `calendarFeeds.timeoutMs`, `calendarFeeds.maxBytes` after
 * decompression, up to 5 redirects, each hop checked again), then parsing in a worker thread.
 *
 * - A refresh sends the last good fetch's validators (If-None-Match, If-Modified-Since); a 304,
 *   or a body whose SHA-256 equals the last one, is "unchanged" and is not parsed again.
 * - Credentials taken from the URL go as Basic auth; got drops the header when a redirect leads
 *   to another origin, so they reach only the feed's own server.
 * - Every failure becomes a FeedError whose message is a reason a household can read ("the feed
 *   answered HTTP 404", "the feed is larger than 10 MiB", "the feed is not an iCalendar feed …");
 *   the API answers it as 400 when linking and keeps it as the feed's `lastError` on refresh.
 * - At most two bodies are parsed at once; a parse that runs past `timeoutMs` (at least 5 s) is
 *   stopped.
 */
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { FeedCredentials, FeedItem, FeedSnapshot } from '../domain/feeds/types.js';
import { EgressError, type Egress, type EgressResponse } from './egress.js';

export class FeedError extends Error {
  override readonly name = 'FeedError';
  /** `stopped`: the reader was closed (the daemon is stopping); not the feed's fault. */
  constructor(
    readonly kind: 'fetch' | 'status' | 'parse' | 'stopped',
    message: string,
  ) {
    super(message);
  }
}

export interface FeedRequest {
  url: string;
  credentials: FeedCredentials | null;
  /** The family's zone: floating times are read in it when the feed names none. */
  zone: string;
  /** From the last good fetch (refreshes only). */
  etag?: string | null;
  lastModified?: string | null;
  bodyHash?: string | null;
  /** A scheduled refresh: parsed at a lower priority than requests (icsWorker.ts). */
  background?: boolean;
  /** The feed's stored events (refreshes): only new and changed ones come back as items. */
  known?: { sourceId: string; fingerprints: Record<string, string> };
}

export type FeedReadOutcome =
  | { kind: 'snapshot'; snapshot: FeedSnapshot }
  | { kind: 'unchanged'; etag: string | null; lastModified: string | null };

export interface FeedReader {
  /** Fetches and reads a feed; rejects with a FeedError saying why it could not. */
  read(req: FeedRequest): Promise<FeedReadOutcome>;
  /**
   * Cancels fetches and parses in flight (they reject with kind `stopped`) and refuses new ones.
   */
  close(): void;
}

export interface FeedReaderDeps {
  egress: Egress;
  config: Pick<Config, 'egress' | 'calendarFeeds'>;
  now: () => Date;
}

const MAX_REDIRECTS = 5;
const MAX_PARALLEL_PARSES = 2;
/**
 * Reading gets the fetch's time limit, but never less than this (starting a worker takes a moment).
 */
const MIN_PARSE_MS = 5_000;

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function mib(bytes: number): string {
  const m = bytes / (1024 * 1024);
  return Number.isInteger(m) ? `${m} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/** A reason a household can read, for a failed fetch. */
function fetchReason(e: EgressError, cfg: FeedReaderDeps['config']): string {
  const detail = e.message.replace(/^egress: /, '');
  switch (e.kind) {
    case 'bad_url':
      return `the URL cannot be fetched: ${detail}`;
    case 'refused_address':
      return `the feed's address is not allowed for calendar feeds${e.addressClass ? ` (a ${e.addressClass} address)` : ''}`;
    case 'redirect_refused':
      return `the feed redirects where it may not be followed: ${detail}`;
    case 'timeout':
      return `the feed did not answer within ${duration(cfg.calendarFeeds.timeoutMs)}`;
    case 'too_large':
      return `the feed is larger than ${mib(cfg.calendarFeeds.maxBytes)}`;
    case 'aborted':
      return 'the fetch was cancelled';
    case 'network':
      return `the feed could not be reached: ${detail}`;
  }
}

function header(res: EgressResponse, name: string): string | null {
  const v = res.headers[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? null) : null;
}

/** The body as text in the charset the answer names (UTF-8 unless it says otherwise). */
function decode(body: Buffer, contentType: string | null): string {
  const charset = /charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      /* an unknown label: UTF-8 below */
    }
  }
  return new TextDecoder('utf-8').decode(body);
}

interface Parsed {
  calendarName: string | null;
  ttlMinutes: number | null;
  eventCount: number;
  skipped: number;
  items: FeedItem[];
  unchanged?: string[];
}

const shared = new WeakMap<Egress, FeedReader>();

/** The daemon's one reader per egress client, so routes and the scheduler share its parse slots. */
export function sharedFeedReader(deps: FeedReaderDeps): FeedReader {
  let r = shared.get(deps.egress);
  if (!r) shared.set(deps.egress, (r = createFeedReader(deps)));
  return r;
}

/** Stops the shared reader of `egress`, if any: a stopping daemon does not wait for slow feeds. */
export function closeSharedFeedReader(egress: Egress): void {
  shared.get(egress)?.close();
}

export function createFeedReader(deps: FeedReaderDeps): FeedReader {
  const cfg = deps.config;
  let closed = false;
  const inFlight = new Set<{ abort(): void }>();
  const stopped = () => new FeedError('stopped', 'the feed reader was stopped');
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<() => void> => {
    if (running >= MAX_PARALLEL_PARSES) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  };

  async function parse(
    body: string,
    zone: string,
    background: boolean,
    known: FeedRequest['known'],
  ): Promise<Parsed> {
    const limit = Math.max(cfg.calendarFeeds.timeoutMs, MIN_PARSE_MS);
    const release = await slot();
    try {
      if (closed) throw stopped();
      return await new Promise<Parsed>((resolve, reject) => {
        const worker = new Worker(new URL('./icsWorker.js', import.meta.url), {
          workerData: {
            body,
            zone,
            now: deps.now().toISOString(),
            background,
            ...(known ? { known } : {}),
          },
          resourceLimits: { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 },
        });
        let done = false;
        const finish = (fn: () => void) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          inFlight.delete(handle);
          void worker.terminate();
          fn();
        };
        const handle = { abort: () => finish(() => reject(stopped())) };
        inFlight.add(handle);
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new FeedError('parse', `the feed took longer than ${duration(limit)} to read`),
              ),
            ),
          limit,
        );
        worker.once(
          'message',
          (m: { ok: true; parsed: Parsed } | { ok: false; parse: boolean; message: string }) =>
            finish(() => {
              if (m.ok) resolve(m.parsed);
              else
                reject(
                  new FeedError(
                    'parse',
                    m.parse ? `the feed ${m.message}` : `the feed could not be read: ${m.message}`,
                  ),
                );
            }),
        );
        worker.once('error', (e) =>
          finish(() => reject(new FeedError('parse', `the feed could not be read: ${e.message}`))),
        );
        worker.once('exit', (code) =>
          finish(() =>
            reject(
              new FeedError(
                'parse',
                `the feed could not be read (reader stopped with code ${code})`,
              ),
            ),
          ),
        );
      });
    } finally {
      release();
    }
  }

  async function read(req: FeedRequest): Promise<FeedReadOutcome> {
    if (closed) throw stopped();
    const headers: Record<string, string> = {
      accept: 'text/calendar, text/plain;q=0.9, */*;q=0.8',
    };
    if (req.credentials) {
      headers.authorization = `Basic ${Buffer.from(`${req.credentials.username}:${req.credentials.password}`, 'utf8').toString('base64')}`;
    }
    if (req.etag) headers['if-none-match'] = req.etag;
    if (req.lastModified) headers['if-modified-since'] = req.lastModified;
    let res: EgressResponse;
    const controller = new AbortController();
    const handle = { abort: () => controller.abort() };
    inFlight.add(handle);
    try {
      res = await deps.egress.request({
        url: req.url,
        method: 'GET',
        headers,
        policy: cfg.egress.calendarFeeds,
        signal: controller.signal,
        timeoutMs: cfg.calendarFeeds.timeoutMs,
        maxBytes: cfg.calendarFeeds.maxBytes,
        followRedirects: MAX_REDIRECTS,
      });
    } catch (e) {
      if (closed) throw stopped();
      if (e instanceof EgressError) throw new FeedError('fetch', fetchReason(e, cfg));
      throw e;
    } finally {
      inFlight.delete(handle);
    }
    if (closed) throw stopped();
    const etag = header(res, 'etag');
    const lastModified = header(res, 'last-modified');
    if (res.status === 304)
      return {
        kind: 'unchanged',
        etag: etag ?? req.etag ?? null,
        lastModified: lastModified ?? req.lastModified ?? null,
      };
    if (res.status < 200 || res.status > 299) {
      const auth =
        res.status === 401 || res.status === 403
          ? ' (check the user name and password in the URL)'
          : '';
      throw new FeedError('status', `the feed answered HTTP ${res.status}${auth}`);
    }
    const bodyHash = createHash('sha256').update(res.body).digest('hex');
    if (req.bodyHash && req.bodyHash === bodyHash) return { kind: 'unchanged', etag, lastModified };
    const parsed = await parse(
      decode(res.body, header(res, 'content-type')),
      req.zone,
      req.background === true,
      req.known,
    );
    return {
      kind: 'snapshot',
      snapshot: { ...parsed, bodyHash, etag, lastModified, zone: req.zone },
    };
  }

  function close(): void {
    closed = true;
    for (const h of [...inFlight]) h.abort();
    // Parses waiting for a slot find the reader closed when they get one.
    for (const wake of waiting.splice(0)) wake();
  }

  return { read, close };
}

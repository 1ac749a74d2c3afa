/**
 * Rate limits (docs/api.md), fixed one-minute windows kept in memory:
 * - per API key (`rateLimit.perMinute`) on every family route, with RateLimit-* headers;
 * - per client address (`rateLimit.publicPerMinute`) for traffic without a valid key: every
 *   request to a public route (share feeds, plan pages), and every answer 401 — an address that
 *   has spent its 401s is refused before its key is even looked at, so keys cannot be guessed
 *   at line rate.
 * Past a limit → 429 with Retry-After (seconds until the window resets), in the error shape.
 * The clock is injected so tests move time instead of waiting.
 */
import { isIPv6 } from 'node:net';
import type Koa from 'koa';
import { HttpError, Unauthorized } from '../errors.js';

const WINDOW_MS = 60_000;

export interface Taken {
  retryAfter: number | null;
  remaining: number;
  reset: number;
}

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request for `id`; `retryAfter` (seconds) is set when it is over the limit. */
  take(id: string): Taken {
    const now = this.now();
    const w = this.window(id, now);
    w.count++;
    const reset = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
    if (w.count > this.perMinute) return { retryAfter: reset, remaining: 0, reset };
    return { retryAfter: null, remaining: this.perMinute - w.count, reset };
  }

  /** Seconds until `id` may be counted again when its window is full, else null; counts nothing. */
  blocked(id: string): number | null {
    const now = this.now();
    const w = this.windows.get(id);
    if (!w || now - w.start >= WINDOW_MS || w.count < this.perMinute) return null;
    return Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
  }

  private window(id: string, now: number): { start: number; count: number } {
    let w = this.windows.get(id);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 100_000) this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    return w;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(k);
  }
}

function limited(message: string, retryAfter: number): HttpError {
  return new HttpError(429, 'rate_limited', message, undefined, {
    'Retry-After': String(retryAfter),
  });
}

function setHeaders(ctx: Koa.Context, limiter: RateLimiter, r: Taken): void {
  ctx.set('RateLimit-Limit', String(limiter.perMinute));
  ctx.set('RateLimit-Remaining', String(r.remaining));
  ctx.set('RateLimit-Reset', String(r.reset));
}

/** Per API key; runs after authentication has put the key on `ctx.state`. */
export function rateLimit(limiter: RateLimiter): Koa.Middleware {
  return async (ctx, next) => {
    const keyId: string = ctx.state.key.id;
    const r = limiter.take(keyId);
    setHeaders(ctx, limiter, r);
    if (r.retryAfter !== null)
      throw limited(
        `Too many requests for this API key; try again in ${r.retryAfter} s`,
        r.retryAfter,
      );
    await next();
  };
}

/**
 * The bucket of a client address: IPv4 as is (also when written IPv4-mapped), IPv6 by its /64,
 * since one host usually holds a whole /64 and could otherwise step through it.
 */
export function addressBucket(ip: string): string {
  // Plain IPv4, the usual case on a LAN: asked on every request, so no pattern is run for it.
  if (!ip.includes(':')) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail] = ip.toLowerCase().split('%')[0].split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  // Only the first four groups are kept, so an embedded IPv4 tail (two groups written as one) does
  // not matter.
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Every request of a public route, counted per client address. */
export function publicRateLimit(limiter: RateLimiter): Koa.Middleware {
  return async (ctx, next) => {
    const r = limiter.take(`public ${addressBucket(ctx.ip)}`);
    setHeaders(ctx, limiter, r);
    if (r.retryAfter !== null)
      throw limited(
        `Too many requests from this address; try again in ${r.retryAfter} s`,
        r.retryAfter,
      );
    await next();
  };
}

/**
 * Wraps authentication: an address whose 401s have reached the limit gets 429 before its key is
 * checked (whether or not the key is good); each 401 the wrapped middleware answers is counted.
 */
export function unauthorizedRateLimit(
  limiter: RateLimiter,
  authenticate: Koa.Middleware,
): Koa.Middleware {
  return async (ctx, next) => {
    const bucket = `401 ${addressBucket(ctx.ip)}`;
    const wait = limiter.blocked(bucket);
    if (wait !== null)
      throw limited(
        `Too many requests with a missing or invalid API key from this address; try again in ${wait} s`,
        wait,
      );
    let authenticated = false;
    try {
      await authenticate(ctx, () => {
        authenticated = true;
        return next();
      });
    } catch (err) {
      if (!authenticated && err instanceof Unauthorized) limiter.take(bucket);
      throw err;
    }
  };
}

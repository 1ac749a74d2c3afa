/**
 * Per-key rate limit (DESIGN §3): a fixed one-minute window per API key; past the limit → 429
 * with Retry-After (seconds until the window resets) and RateLimit-* headers on every answer.
 */
import type Koa from 'koa';
import { DomainError } from '../../domain/shared/errors.js';

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly perMinute: number, private readonly now: () => number = Date.now) {}

  /** Counts one request; returns the seconds to wait when over the limit, else null. */
  take(keyId: string): { retryAfter: number | null; remaining: number; reset: number } {
    const now = this.now();
    let w = this.windows.get(keyId);
    if (!w || now - w.start >= 60_000) {
      if (this.windows.size > 100_000) this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(keyId, w);
    }
    w.count++;
    const reset = Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000));
    if (w.count > this.perMinute) return { retryAfter: reset, remaining: 0, reset };
    return { retryAfter: null, remaining: this.perMinute - w.count, reset };
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(k);
  }
}

export function rateLimit(limiter: RateLimiter, perMinute: number): Koa.Middleware {
  return async (ctx, next) => {
    const keyId: string = ctx.state.key.id;
    const r = limiter.take(keyId);
    ctx.set('RateLimit-Limit', String(perMinute));
    ctx.set('RateLimit-Remaining', String(r.remaining));
    ctx.set('RateLimit-Reset', String(r.reset));
    if (r.retryAfter !== null) {
      throw new DomainError(429, 'rate_limited', `Too many requests for this API key; try again in ${r.retryAfter} s`, undefined, { 'Retry-After': String(r.retryAfter) });
    }
    await next();
  };
}

/**
 * The daemon's one limiter (docs/api.md): fixed one-minute windows kept in memory, one instance
 * per daemon shared by every door (REST, the live stream, the public pages, CalDAV, MCP and the
 * OAuth consent page), so a budget is the same whichever door a request comes through:
 * - per caller (`rateLimit.perMinute`): an API key, or an assistant's OAuth grant (its own
 *   budget, never its approving key's), on every family route, with RateLimit-* headers;
 * - per client address (`rateLimit.publicPerMinute`) for traffic without a valid credential:
 *   every request to a public route (share feeds, plan pages), and every failed credential —
 *   an address that has spent its failures is refused before its credential is even looked
 *   at, so keys cannot be guessed at line rate through any door.
 * Past a limit → 429 with Retry-After (seconds until the window resets), in each door's form.
 * The clock is injected so tests move time instead of waiting.
 */
import { isIPv6 } from 'node:net';
import type Koa from 'koa';
import type { DoorState } from './state.js';
import { rateLimited, Unauthorized } from './errors.js';

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

/** What a budget is named after: an API key, or an OAuth grant (its own bucket). */
export type Budget = { keyId: string; grantId?: string | undefined };

/** The limits every door applies (see the file's comment). One instance per daemon. */
export class DoorLimits {
  readonly perCaller: RateLimiter;
  readonly perAddress: RateLimiter;

  constructor(config: { perMinute: number; publicPerMinute: number }, now: () => number) {
    this.perCaller = new RateLimiter(config.perMinute, now);
    this.perAddress = new RateLimiter(config.publicPerMinute, now);
  }

  /** Counts one request of a caller; throws the 429 past its budget. */
  caller(b: Budget, ctx?: Koa.Context): void {
    const r = this.perCaller.take(b.grantId ? `grant:${b.grantId}` : b.keyId);
    if (ctx) setHeaders(ctx, this.perCaller, r);
    if (r.retryAfter !== null)
      throw rateLimited(
        `Too many requests for this ${b.grantId ? 'OAuth grant' : 'API key'}; try again in ${r.retryAfter} s`,
        r.retryAfter,
      );
  }

  /** Counts one request without a credential from this address; throws the 429 past it. */
  address(ctx: Koa.Context): void {
    const r = this.perAddress.take(`public ${addressBucket(ctx.ip)}`);
    setHeaders(ctx, this.perAddress, r);
    if (r.retryAfter !== null)
      throw rateLimited(
        `Too many requests from this address; try again in ${r.retryAfter} s`,
        r.retryAfter,
      );
  }

  /**
   * Before a credential is checked: throws the 429 when this address has spent its budget of
   * failed credentials (`sentence` says so in the door's words).
   */
  beforeCredential(
    ip: string,
    sentence = 'Too many requests with a missing or invalid API key',
  ): void {
    const wait = this.waitAfterFailures(ip);
    if (wait !== null)
      throw rateLimited(`${sentence} from this address; try again in ${wait} s`, wait);
  }

  /** Seconds until this address may try a credential again, or null when it may now. */
  waitAfterFailures(ip: string): number | null {
    return this.perAddress.blocked(`401 ${addressBucket(ip)}`);
  }

  /** A credential failed (it is answered 401): counts in the address's budget of failures. */
  failedCredential(ip: string): void {
    this.perAddress.take(`401 ${addressBucket(ip)}`);
  }
}

function setHeaders(ctx: Koa.Context, limiter: RateLimiter, r: Taken): void {
  ctx.set('RateLimit-Limit', String(limiter.perMinute));
  ctx.set('RateLimit-Remaining', String(r.remaining));
  ctx.set('RateLimit-Reset', String(r.reset));
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
      : [
          ...left,
          ...new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'),
          ...right,
        ];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** REST: per caller; runs after authentication has put the caller on `ctx.state`. */
export function rateLimit(limits: DoorLimits): Koa.Middleware<DoorState> {
  return async (ctx, next) => {
    const caller = ctx.state.caller!;
    limits.caller({ keyId: caller.keyId, grantId: caller.grantId }, ctx);
    await next();
  };
}

/** Every request of a public route, counted per client address. */
export function publicRateLimit(limits: DoorLimits): Koa.Middleware {
  return async (ctx, next) => {
    limits.address(ctx);
    await next();
  };
}

/**
 * Wraps authentication: an address whose failed credentials have reached the limit gets 429
 * before its credential is checked (whether or not it is good); each 401 the wrapped
 * middleware answers is counted.
 */
export function failedCredentials<S>(
  limits: DoorLimits,
  authenticate: Koa.Middleware<S>,
): Koa.Middleware<S> {
  return async (ctx, next) => {
    limits.beforeCredential(ctx.ip);
    let authenticated = false;
    try {
      await authenticate(ctx, async () => {
        authenticated = true;
        await next();
      });
    } catch (err) {
      if (!authenticated && err instanceof Unauthorized) limits.failedCredential(ctx.ip);
      throw err;
    }
  };
}

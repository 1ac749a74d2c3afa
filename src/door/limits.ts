/**
 * The daemon's one limiter (docs/api.md, "Limits on every door"): fixed one-minute windows kept
 * in memory, one instance per daemon (the core services' `limits`) shared by every door — REST, the live
 * stream, the public pages and the family display, CalDAV, MCP and the OAuth consent page — so
 * a budget is the same whichever door a request comes through:
 *
 * - per credential (`rateLimit.perMinute`): an API key (`key:<keyId>`), an assistant's OAuth
 *   grant (`grant:<grantId>`, never its approving key's budget), a public link's token
 *   (`display:<id>`, `share:<hash>`);
 * - per client address (`rateLimit.publicPerMinute`): every request without a credential (the
 *   public pages, the OAuth endpoints), and every request whose credential failed. A request
 *   whose credential is valid is never refused for what others sent from its address: the
 *   credential is checked first (a hash and a constant-time compare), and only failures spend
 *   and meet the address's budget — so bad keys are still cut off at line rate.
 *
 * Each door answers "over the limit" in its own form (REST's error JSON, CalDAV's DAV:error,
 * MCP's JSON-RPC error), always with status 429, `Retry-After` and the RateLimit-* headers.
 * A request one door sends to another inside this process (an MCP tool call answered by REST)
 * carries the inner-call proof (credentials.ts) and is not counted twice. The clock is injected
 * so tests move time instead of waiting.
 */
import { isIPv6 } from 'node:net';
import type Koa from 'koa';
import { rateLimited, Unauthorized } from './errors.js';
import type { DoorContext, DoorMiddleware } from './state.js';

const WINDOW_MS = 60_000;

export interface Taken {
  /** Seconds until the window resets when this request is over the limit, else null. */
  retryAfter: number | null;
  limit: number;
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
    const limit = this.perMinute;
    if (w.count > limit) return { retryAfter: reset, limit, remaining: 0, reset };
    return { retryAfter: null, limit, remaining: limit - w.count, reset };
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

/** What a budget is named after: a key, a grant (its own bucket), a public link's token. */
export type Budget =
  | { kind: 'key'; keyId: string; grantId?: string | undefined }
  | { kind: 'display'; displayId: string }
  | { kind: 'share'; tokenHash: string };

/** The bucket a credential's requests count in, and how its 429 names it. */
export function bucketOf(c: Budget): { bucket: string; what: string } {
  switch (c.kind) {
    case 'key':
      return c.grantId
        ? { bucket: `grant:${c.grantId}`, what: 'this OAuth grant' }
        : { bucket: `key:${c.keyId}`, what: 'this API key' };
    case 'display':
      return { bucket: `display:${c.displayId}`, what: 'this display link' };
    case 'share':
      // A prefix of the token's SHA-256 is enough to tell links apart, and names no secret.
      return { bucket: `share:${c.tokenHash.slice(0, 24)}`, what: 'this share link' };
    default: {
      const never: never = c;
      return never;
    }
  }
}

/** A request over its budget: the seconds to wait and the sentence a door shows. */
export interface Limited {
  retryAfter: number;
  message: string;
}

/**
 * The limits every door applies (see the file's comment). One instance per daemon; doors take
 * it from the core services' `limits`.
 */
export class DoorLimits {
  private readonly perCredential: RateLimiter;
  private readonly perAddress: RateLimiter;

  constructor(config: { perMinute: number; publicPerMinute: number }, now: () => number) {
    this.perCredential = new RateLimiter(config.perMinute, now);
    this.perAddress = new RateLimiter(config.publicPerMinute, now);
  }

  /** Counts one request of a credential. */
  credential(c: Budget): Taken & { limited: Limited | null } {
    const { bucket, what } = bucketOf(c);
    const t = this.perCredential.take(bucket);
    return { ...t, limited: over(t, `Too many requests for ${what}`) };
  }

  /** Counts one request without a credential from this client address (public pages, OAuth). */
  address(ip: string): Taken & { limited: Limited | null } {
    const t = this.perAddress.take(`public ${addressBucket(ip)}`);
    return { ...t, limited: over(t, 'Too many requests from this address') };
  }

  /**
   * A request whose credential failed, from this address: null when it is to be answered 401
   * (and it is counted), else the wait — the address has had `publicPerMinute` failures this
   * minute, so this one is answered 429 without being counted again.
   */
  failure(
    ip: string,
    sentence = 'Too many requests with a missing or invalid API key from this address',
  ): Limited | null {
    const bucket = `401 ${addressBucket(ip)}`;
    const wait = this.perAddress.blocked(bucket);
    if (wait !== null) return { retryAfter: wait, message: `${sentence}; try again in ${wait} s` };
    this.perAddress.take(bucket);
    return null;
  }
}

function over(t: Taken, sentence: string): Limited | null {
  return t.retryAfter === null
    ? null
    : { retryAfter: t.retryAfter, message: `${sentence}; try again in ${t.retryAfter} s` };
}

/** The RateLimit-* headers of an answer counted in a budget. */
export function limitHeaders(t: Taken): Record<string, string> {
  return {
    'RateLimit-Limit': String(t.limit),
    'RateLimit-Remaining': String(t.remaining),
    'RateLimit-Reset': String(t.reset),
  };
}

/** Over a budget: the table's `rate_limited`, with the seconds to wait, in any door's form. */
export function limitedError(l: Limited): Error {
  return rateLimited(l.message, l.retryAfter);
}

/**
 * A caller's request, counted in its budget (its key's, or its grant's own), with the
 * RateLimit-* headers; throws the 429 past it. Every door with callers counts through this.
 */
export function countCaller(
  ctx: Koa.Context,
  limits: DoorLimits,
  caller: { keyId: string; grantId?: string | undefined },
): void {
  const t = limits.credential({ kind: 'key', keyId: caller.keyId, grantId: caller.grantId });
  ctx.set(limitHeaders(t));
  if (t.limited) throw limitedError(t.limited);
}

/**
 * A public route: per client address first, then — once the route has found what its token
 * opens — per token (`countToken`, called by the route), so a leaked link is limited like a key
 * whatever the addresses it is used from.
 */
export function publicRateLimit(limits: DoorLimits): Koa.Middleware {
  return async (ctx, next) => {
    countAddress(ctx, limits);
    await next();
  };
}

/** A request without a credential, counted per client address; throws the 429 past it. */
export function countAddress(ctx: Koa.Context, limits: DoorLimits): void {
  const t = limits.address(ctx.ip);
  ctx.set(limitHeaders(t));
  if (t.limited) throw limitedError(t.limited);
}

/**
 * Counts a public link's request in its own budget (after `publicRateLimit` counted the
 * address); the headers show whichever budget has less left. Throws the 429.
 */
export function countToken(ctx: Koa.Context, limits: DoorLimits, c: Budget): void {
  const t = limits.credential(c);
  if (t.remaining < Number(ctx.response.get('RateLimit-Remaining') || Infinity))
    ctx.set(limitHeaders(t));
  if (t.limited) throw limitedError(t.limited);
}

/**
 * A family route's credential and budget, in one middleware (a layer each cost every request
 * its async frames): `authenticate` puts the caller on `ctx.state` or throws. A request whose
 * credential is refused (401) spends its address's budget of failures: past `publicPerMinute`
 * of them in a minute it is answered 429. An accepted caller is counted in its own budget (an
 * inner call was counted by the door the client spoke to).
 */
export function authenticated(
  limits: DoorLimits,
  authenticate: (ctx: DoorContext) => void,
): DoorMiddleware {
  return (ctx, next) => {
    try {
      authenticate(ctx);
    } catch (err) {
      if (err instanceof Unauthorized) {
        const l = limits.failure(ctx.ip);
        if (l) throw limitedError(l);
      }
      throw err;
    }
    const caller = ctx.state.caller!;
    if (caller.via !== 'inner') countCaller(ctx, limits, caller);
    return next();
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

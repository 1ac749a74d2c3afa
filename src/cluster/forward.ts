/**
 * Authentication of requests one node forwards to a family's owner: an HMAC-SHA256 with
 * `cluster.secret` over the whole request as the owner receives it — method, path with query,
 * every header line (credentials, Content-Type, If-Match, Depth, Last-Event-ID,
 * Idempotency-Key, Accept, the request id … all of them, not a chosen few, so that no header
 * a door acts on can be added or edited), a hash of the body — and over an envelope: the
 * sending node, the node it is meant for, the time, the client's address as the sending node
 * saw it, and a random nonce.
 *
 * The owner recomputes the HMAC and compares in constant time, refuses a forward meant for
 * another node or more than `FORWARD_WINDOW_MS` away from its clock, and remembers every
 * nonce for as long as its forward could be accepted (`SeenNonces`): a captured forward can
 * be neither edited, nor sent again, nor sent to another node. Only then does it take the
 * signed client address as the request's own, for per-address limits and the request log.
 * The forwarding itself is src/cluster/proxy.ts.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const FORWARD_HEADERS = {
  node: 'x-household-forwarded-by',
  to: 'x-household-forwarded-to',
  at: 'x-household-forwarded-at',
  client: 'x-household-forwarded-client',
  nonce: 'x-household-forward-nonce',
  signature: 'x-household-forward-signature',
} as const;

/** How far the sender's clock and the owner's may differ, and how long a forward is valid. */
export const FORWARD_WINDOW_MS = 30_000;

/**
 * Header lines the signature leaves out: what the HTTP layer of each hop writes for itself and
 * acts on alone (message framing, the connection; RFC 9110 §7.6.1). The body they frame is
 * signed by its hash. Everything else a forward carries is signed.
 */
const FRAMING = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-connection',
]);
const ENVELOPE = new Set<string>(Object.values(FORWARD_HEADERS));

export interface ForwardedRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  /** The header lines as [lower-case name, value], in the order sent (see `signedLines`). */
  headers: readonly (readonly [string, string])[];
  body: Uint8Array;
}

/** Who sends a forward, to whom, when, for which client, and its one-time nonce. */
export interface ForwardEnvelope {
  node: string;
  to: string;
  at: number;
  /** The client's address as the sending node saw it (its `ctx.ip`). */
  client: string;
  nonce: string;
}

/**
 * The signed header lines out of a flat name/value list (Node's `rawHeaders`, or the lines a
 * forwarder sends): framing and the envelope's own headers left out, names in lower case.
 * Repeated lines are all kept, so a second Content-Type added on the way does not pass.
 */
export function signedLines(flat: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i].toLowerCase();
    if (FRAMING.has(name) || ENVELOPE.has(name)) continue;
    out.push([name, flat[i + 1]]);
  }
  return out;
}

/**
 * The HMAC over the canonical text of a forward: one field per line, each JSON-quoted (none can
 * spill over), header lines sorted by name (a stable sort keeps repeated lines in their order:
 * a hop may reorder lines, never change them). Fed to the HMAC field by field rather than
 * joined first: the same bytes, without building the text.
 */
function mac(secret: string, req: ForwardedRequest, env: ForwardEnvelope): Buffer {
  const bodyHash = createHash('sha256').update(req.body).digest('hex');
  const lines = [...req.headers].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const fields = [
    req.method.toUpperCase(),
    req.url,
    env.node,
    env.to,
    String(env.at),
    env.client,
    env.nonce,
    bodyHash,
  ];
  const hmac = createHmac('sha256', secret);
  let first = true;
  for (const f of [...fields, ...lines]) {
    hmac.update(first ? JSON.stringify(f) : `\n${JSON.stringify(f)}`);
    first = false;
  }
  return hmac.digest();
}

/**
 * Random bytes drawn a block at a time: a forward's nonce needs 16 fresh ones, and one call to
 * the system's generator per forward was a visible share of forwarding (docs/performance.md,
 * "Cluster"). Every nonce still gets bytes no other nonce got.
 */
const POOL_BYTES = 16 * 256;
let pool = Buffer.alloc(0);
let taken = POOL_BYTES;

/** A fresh nonce: 128 random bits. */
export function newNonce(): string {
  if (taken + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  taken += 16;
  return pool.toString('base64url', taken - 16, taken);
}

/** The headers a forwarding node adds. */
export function signForward(
  secret: string,
  req: ForwardedRequest,
  env: ForwardEnvelope,
): Record<string, string> {
  return {
    [FORWARD_HEADERS.node]: env.node,
    [FORWARD_HEADERS.to]: env.to,
    [FORWARD_HEADERS.at]: String(env.at),
    [FORWARD_HEADERS.client]: env.client,
    [FORWARD_HEADERS.nonce]: env.nonce,
    [FORWARD_HEADERS.signature]: mac(secret, req, env).toString('base64url'),
  };
}

export type ForwardRefusal = 'missing' | 'stale' | 'signature' | 'elsewhere' | 'replayed';
export type ForwardCheck =
  { ok: true; envelope: ForwardEnvelope } | { ok: false; why: ForwardRefusal };

/**
 * Checks a forwarded request's envelope headers (lower-case names, as Node gives them) for the
 * node `self`. The nonce is not looked up here: `SeenNonces` does that once this passed.
 */
export function verifyForward(
  secret: string,
  req: ForwardedRequest,
  headers: Record<string, string | string[] | undefined>,
  now: number,
  self: string,
): ForwardCheck {
  const one = (name: string) => {
    const v = headers[name];
    return typeof v === 'string' ? v : null;
  };
  const [node, to, atText, client, nonce, signature] = [
    FORWARD_HEADERS.node,
    FORWARD_HEADERS.to,
    FORWARD_HEADERS.at,
    FORWARD_HEADERS.client,
    FORWARD_HEADERS.nonce,
    FORWARD_HEADERS.signature,
  ].map(one);
  // The client address may be empty (a client gone before it was read); the rest may not.
  if (!node || !to || !atText || client === null || !nonce || !signature) {
    return { ok: false, why: 'missing' };
  }
  const at = Number(atText);
  const fresh = /^\d{1,16}$/.test(atText) && Math.abs(now - at) <= FORWARD_WINDOW_MS;
  if (!fresh) return { ok: false, why: 'stale' };
  const envelope: ForwardEnvelope = { node, to, at, client, nonce };
  const expected = mac(secret, req, envelope);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, why: 'signature' };
  }
  // Checked once the signature holds, so the answer says nothing to someone without the secret.
  if (to !== self) return { ok: false, why: 'elsewhere' };
  return { ok: true, envelope };
}

/**
 * The nonces of forwards accepted lately. A forward signed at `at` is accepted while the
 * owner's clock is within the window around `at`, so up to twice the window after the owner
 * first saw it: its nonce is kept that long. Kept in arrival order, so forgetting is cheap;
 * the memory is bounded by the cluster's own forwarding rate (only nodes holding the secret
 * can make a forward that gets this far).
 */
export class SeenNonces {
  private readonly until = new Map<string, number>();

  constructor(private readonly windowMs = FORWARD_WINDOW_MS) {}

  get size(): number {
    return this.until.size;
  }

  /** Notes the nonce; false when it was seen within its window (the forward is a replay). */
  first(nonce: string, now: number): boolean {
    for (const [seen, until] of this.until) {
      if (until > now) break;
      this.until.delete(seen);
    }
    if (this.until.has(nonce)) return false;
    this.until.set(nonce, now + 2 * this.windowMs);
    return true;
  }
}

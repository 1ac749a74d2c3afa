/**
 * Authentication of requests one node forwards to a family's owner: an HMAC-SHA256 with
 * `cluster.secret` over everything the owner acts on — method, path with query, the request
 * id, the idempotency key, the caller's credentials as sent (`x-api-key` for the API,
 * `Authorization` for CalDAV's Basic and MCP's Bearer), a hash of the body, the sending node
 * and the time. The owner recomputes it and compares in constant time, and refuses a
 * signature older (or newer) than `FORWARD_WINDOW_MS`, so a captured forward cannot be
 * replayed later or edited. The forwarding itself is src/cluster/proxy.ts.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const FORWARD_HEADERS = {
  node: 'x-household-forwarded-by',
  at: 'x-household-forwarded-at',
  signature: 'x-household-forward-signature',
} as const;

/** How far the sender's clock and the owner's may differ, and how long a forward is valid. */
export const FORWARD_WINDOW_MS = 30_000;

export interface ForwardedRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  requestId: string;
  idempotencyKey: string | null;
  /** The `x-api-key` header as the client sent it (the owner checks the key itself). */
  apiKey: string | null;
  /** The `Authorization` header as the client sent it (Basic for CalDAV, Bearer for MCP). */
  authorization: string | null;
  body: Uint8Array;
}

function canonical(req: ForwardedRequest, node: string, at: number): string {
  const bodyHash = createHash('sha256').update(req.body).digest('hex');
  // One field per line, each JSON-quoted: no field can spill into the next.
  return [
    req.method.toUpperCase(),
    req.url,
    req.requestId,
    req.idempotencyKey ?? '',
    req.apiKey ?? '',
    req.authorization ?? '',
    bodyHash,
    node,
    String(at),
  ]
    .map((f) => JSON.stringify(f))
    .join('\n');
}

function mac(secret: string, text: string): Buffer {
  return createHmac('sha256', secret).update(text).digest();
}

/** The headers a forwarding node adds. */
export function signForward(
  secret: string,
  req: ForwardedRequest,
  node: string,
  now: number,
): Record<string, string> {
  return {
    [FORWARD_HEADERS.node]: node,
    [FORWARD_HEADERS.at]: String(now),
    [FORWARD_HEADERS.signature]: mac(secret, canonical(req, node, now)).toString('base64url'),
  };
}

export type ForwardCheck =
  { ok: true; node: string } | { ok: false; why: 'missing' | 'stale' | 'signature' };

/** Checks a forwarded request's headers (lower-case names, as Node gives them). */
export function verifyForward(
  secret: string,
  req: ForwardedRequest,
  headers: Record<string, string | string[] | undefined>,
  now: number,
): ForwardCheck {
  const one = (name: string) => {
    const v = headers[name];
    return typeof v === 'string' ? v : null;
  };
  const node = one(FORWARD_HEADERS.node);
  const atText = one(FORWARD_HEADERS.at);
  const signature = one(FORWARD_HEADERS.signature);
  if (!node || !atText || !signature) return { ok: false, why: 'missing' };
  const at = Number(atText);
  const fresh = /^\d{1,16}$/.test(atText) && Math.abs(now - at) <= FORWARD_WINDOW_MS;
  if (!fresh) return { ok: false, why: 'stale' };
  const expected = mac(secret, canonical(req, node, at));
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, why: 'signature' };
  }
  return { ok: true, node };
}

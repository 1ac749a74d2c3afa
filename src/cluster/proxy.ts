/**
 * Passing a request on to the node that owns its family, and accepting such a request there
 * (docs/scaling.md, "Forwarded requests"). The pieces, with no knowledge of who owns what:
 *
 * - the door core's body reader reads the body as sent (still encoded: `readRaw`), so it can
 *   be signed and sent on, and lets the readers after it (JSON bodies, CalDAV, MCP, OAuth
 *   forms) read those same bytes again, as if from the socket (`replayBody`);
 * - `forwardTo` sends the request to the owner and pipes the answer back as it comes (a live
 *   change stream flows record by record);
 * - `acceptForwarded` is the owner's side: it checks the signature before anything is served.
 */
import { randomUUID } from 'node:crypto';
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http';
import type Koa from 'koa';
import { DoorError } from '../door/errors.js';
import {
  FORWARD_HEADERS,
  newNonce,
  SeenNonces,
  signedLines,
  signForward,
  verifyForward,
  type ForwardRefusal,
} from './forward.js';
import { readRaw, replayBody } from '../door/body.js';

/** How long the owner may take to answer with its headers before the caller gets a 503. */
export const FORWARD_TIMEOUT_MS = 10_000;

/** Headers that belong to one connection, never passed on in either direction (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
]);

/**
 * Request headers this node writes itself: Host (the owner's URL names its own),
 * Content-Length (of the buffered body), and Expect (a 100-continue was answered here already;
 * the body goes to the owner whole).
 */
const SET_HERE = new Set(['host', 'content-length', 'expect']);

/** Header names a Connection header lists are hop-by-hop too. */
function connectionListed(headers: IncomingHttpHeaders): Set<string> {
  const listed = new Set<string>();
  const value = headers.connection;
  if (typeof value === 'string') {
    for (const name of value.split(',')) listed.add(name.trim().toLowerCase());
  }
  return listed;
}

function endToEnd(name: string, listed: Set<string>): boolean {
  const lower = name.toLowerCase();
  return !HOP_BY_HOP.has(lower) && !listed.has(lower) && !lower.startsWith('proxy-');
}

/** The outgoing headers as flat name/value lines, as the owner will read them in `rawHeaders`. */
function flatten(headers: OutgoingHttpHeaders): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) flat.push(name, String(v));
  }
  return flat;
}

export interface ForwardTarget {
  /** The owner's node name. */
  node: string;
  /** The owner's advertised URL (`cluster.advertiseUrl`), without a trailing path. */
  url: string;
}

export interface ForwardOptions {
  /** `cluster.secret`. */
  secret: string;
  /** This node's name, sent as X-Household-Forwarded-By. */
  node: string;
  /** The body as read by `readRaw` (door/body.ts). */
  body: Buffer;
  now: () => number;
  /** How long to wait for the owner's status and headers (default FORWARD_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * The origin the client addressed (src/addresses.ts: its Host, or a trusted proxy's view),
   * passed on so the owner builds links on it; default the Host as received.
   */
  origin?: { protocol: string; host: string } | null;
}

/**
 * The owner could not be reached: nothing was served, the caller may try again. Its own class,
 * so whoever forwards can tell it from other refusals (and, say, look at ownership again).
 */
export class OwnerUnreachable extends DoorError {
  constructor(
    readonly target: ForwardTarget,
    why: string,
  ) {
    // Its answer is the table's `owned_elsewhere` row (503, Retry-After), as for a family
    // being taken over.
    super(
      'owned_elsewhere',
      `The node that holds this family (${target.node}) cannot be reached (${why}); try again shortly`,
    );
  }
}

/**
 * Sends the request to the owner and pipes its answer back. Node-to-node traffic on the
 * operator's own network, to an address from the cluster's configuration, not to anything a
 * user named: it is sent with node:http directly, not through the egress guard (which exists
 * to keep user-given URLs off private addresses, and the owner is on one).
 *
 * Resolves when the answer is complete or the client went away; rejects with a 503 (with
 * Retry-After) only while nothing was answered yet — the owner refused the connection, or
 * sent no headers within the timeout. Once the owner's headers are on their way, a failure
 * can only cut the answer short.
 */
export function forwardTo(
  ctx: Koa.Context,
  target: ForwardTarget,
  opts: ForwardOptions,
): Promise<void> {
  const requestId =
    (ctx.state.requestId as string | undefined) || ctx.get('x-request-id') || randomUUID();
  const incoming = ctx.req.headers;
  const listed = connectionListed(incoming);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || !endToEnd(name, listed)) continue;
    if (SET_HERE.has(name) || name.startsWith('x-household-forward')) continue;
    headers[name] = value;
  }
  headers['x-request-id'] = requestId;
  // The owner sees the client's address as the last entry (trusted as its proxy's view).
  const peer = ctx.req.socket.remoteAddress ?? '';
  const before = incoming['x-forwarded-for'];
  headers['x-forwarded-for'] = before ? `${String(before)}, ${peer}` : peer;
  headers['x-forwarded-proto'] = opts.origin?.protocol ?? ctx.protocol;
  headers['x-forwarded-host'] = opts.origin?.host ?? ctx.host;
  const url = target.url.replace(/\/+$/, '') + ctx.originalUrl;
  // Written here rather than by node:http, so that it is among the signed lines.
  headers.host = new URL(url).host;
  const hasBody =
    opts.body.length > 0 ||
    incoming['content-length'] !== undefined ||
    incoming['transfer-encoding'] !== undefined;
  const request = { method: ctx.method, url: ctx.originalUrl, body: opts.body };
  const envelope = {
    node: opts.node,
    to: target.node,
    at: opts.now(),
    client: ctx.ip,
    nonce: newNonce(),
  };
  Object.assign(
    headers,
    signForward(opts.secret, { ...request, headers: signedLines(flatten(headers)) }, envelope),
  );
  if (hasBody) headers['content-length'] = String(opts.body.length);

  const timeoutMs = opts.timeoutMs ?? FORWARD_TIMEOUT_MS;
  const res = ctx.res;

  return new Promise<void>((resolve, reject) => {
    let answered = false;
    let done = false;
    const finish = (err?: DoorError) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    const upstream = httpRequest(url, { method: ctx.method, headers });
    const timer = setTimeout(() => {
      upstream.destroy();
      finish(new OwnerUnreachable(target, `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    // A client that leaves ends the owner's work too (a closed live stream frees its slot).
    // The response closes after a complete answer as well: then there is nothing to end.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
      finish();
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (!answered) finish(new OwnerUnreachable(target, err.code ?? err.message));
      else res.destroy();
    });
    upstream.on('response', (answer) => {
      if (done) return void answer.destroy();
      answered = true;
      clearTimeout(timer);
      ctx.respond = false;
      ctx.status = answer.statusCode ?? 502; // for the request log and metrics
      const back = connectionListed(answer.headers);
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && endToEnd(name, back)) res.setHeader(name, value);
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage);
      // A stream's headers go out now: its first record may be minutes away. An answer of known
      // length (every write's) leaves them to go out with its body, in one socket write.
      if (answer.headers['content-length'] === undefined) res.flushHeaders();
      answer.on('error', () => res.destroy());
      answer.on('aborted', () => res.destroy());
      answer.pipe(res);
    });
    upstream.end(hasBody ? opts.body : undefined);
  });
}

const SPELLED: Record<string, string> = {
  [FORWARD_HEADERS.node]: 'X-Household-Forwarded-By',
  [FORWARD_HEADERS.to]: 'X-Household-Forwarded-To',
  [FORWARD_HEADERS.at]: 'X-Household-Forwarded-At',
  [FORWARD_HEADERS.client]: 'X-Household-Forwarded-Client',
  [FORWARD_HEADERS.nonce]: 'X-Household-Forward-Nonce',
  [FORWARD_HEADERS.signature]: 'X-Household-Forward-Signature',
};

/** Why a forward is refused, and the header that says so. */
const REFUSALS: Record<ForwardRefusal, { header: string | null; message: string }> = {
  missing: {
    header: null,
    message: 'is missing (the six X-Household-Forward* headers come together)',
  },
  stale: {
    header: FORWARD_HEADERS.at,
    message: 'is more than 30 seconds away from this node’s clock',
  },
  signature: {
    header: FORWARD_HEADERS.signature,
    message: 'does not match the request (another secret, or the request was edited on its way)',
  },
  elsewhere: { header: FORWARD_HEADERS.to, message: 'names another node' },
  replayed: {
    header: FORWARD_HEADERS.nonce,
    message: 'was used before: a forwarded request is served once',
  },
};

export interface AcceptOptions {
  /** `cluster.secret`. */
  secret: string;
  /** This node's name: a forward meant for another node is refused. */
  node: string;
  now: () => number;
  /** The body limit (`server.bodyLimitBytes`). */
  limitBytes: number;
}

function refusal(ctx: Koa.Context, why: ForwardRefusal): DoorError {
  const names = Object.values(FORWARD_HEADERS);
  const named =
    REFUSALS[why].header ?? names.find((n) => typeof ctx.req.headers[n] !== 'string') ?? names[0];
  const header = SPELLED[named];
  const message = REFUSALS[why].message;
  return new DoorError('unauthorized', `This forwarded request is refused: ${header} ${message}`, {
    issues: [{ path: ['header', header], message }],
  });
}

/**
 * The owner's side: a request without the forward headers passes untouched; one with any of
 * them is served only when its signature holds, it is meant for this node and its nonce is
 * new. It then carries `ctx.state.forwardedBy` (the sending node), so it is never forwarded
 * again, and the client's address the sending node signed as `ctx.ip`, so per-address limits
 * and the request log name the client, not the node. Its body is read (at most `limitBytes`),
 * checked against the signature, and replayed for the readers after this.
 */
export function acceptForwarded(opts: AcceptOptions): Koa.Middleware {
  const names = Object.values(FORWARD_HEADERS);
  const nonces = new SeenNonces();
  return async (ctx, next) => {
    if (!names.some((n) => ctx.req.headers[n] !== undefined)) {
      await next();
      return;
    }
    const body = await readRaw(ctx, opts.limitBytes);
    const request = {
      method: ctx.method,
      url: ctx.originalUrl,
      headers: signedLines(ctx.req.rawHeaders),
      body,
    };
    const now = opts.now();
    const check = verifyForward(opts.secret, request, ctx.req.headers, now, opts.node);
    if (!check.ok) throw refusal(ctx, check.why);
    if (!nonces.first(check.envelope.nonce, now)) throw refusal(ctx, 'replayed');
    replayBody(ctx, body);
    ctx.state.forwardedBy = check.envelope.node;
    if (check.envelope.client) ctx.request.ip = check.envelope.client;
    await next();
  };
}

/**
 * The daemon's one HTTP client for calls that leave the machine (webhook deliveries, calendar
 * feeds, weather and web lookups, page fetches, push and SMS transports). Every call names a
 * policy (from `config.egress`), a timeout and a byte cap; docs/egress.md explains the rules.
 *
 * Under it are agents that check the address each socket connects to (`guard.ts`), so the
 * policy holds for host names, IP literals and every redirect hop alike. A call without
 * redirects to follow goes straight through node:http on them; one that may follow redirects
 * goes through got, which opens every hop through the same agents.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import got, { type PlainResponse as GotResponse } from 'got';
import { VERSION } from '../version.js';
import type { EgressPolicy } from './addresses.js';
import { EgressError } from './egressError.js';
import { GuardedHttpAgent, GuardedHttpsAgent, type TrustedEndpoint } from './guard.js';

export { EgressError, type EgressErrorKind } from './egressError.js';
export { allowed, classifyAddress, type AddressClass, type EgressPolicy } from './addresses.js';
export type { TrustedEndpoint } from './guard.js';

export interface EgressRequest {
  url: string | URL;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Which addresses this call may reach: the purpose's key of `config.egress`. */
  policy: EgressPolicy;
  /** Bound on the whole call: lookup, connect, every hop, the answer and its body. */
  timeoutMs: number;
  /** Bound on the body after decompression; the call is aborted as soon as it is passed. */
  maxBytes: number;
  /** How many redirects to follow; 0 (the default) returns the 3xx answer as it is. */
  followRedirects?: number;
  /** Cancels the call (for example when the daemon shuts down). */
  signal?: AbortSignal;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decompressed; at most `maxBytes` long. */
  body: Buffer;
  /** The URL of the answer: the request's, or the last redirect's. */
  url: string;
  /** The URLs redirected to, in order (empty when none was followed). */
  redirects: string[];
  /** The address the answer came from. */
  address: string | undefined;
  durationMs: number;
}

export interface Egress {
  /**
   * Sends one request. Any HTTP status is an answer (a 404 or a 302 resolves, callers decide);
   * everything else rejects with an `EgressError` whose `kind` says what went wrong.
   */
  request(req: EgressRequest): Promise<EgressResponse>;
}

export interface EgressOptions {
  /** The resolver sockets use; the system's unless a test injects one. */
  lookup?: LookupFunction;
  userAgent?: string;
  /**
   * Address and port pairs reachable whatever the policy. Empty in the daemon; tests use it to
   * let a first hop reach a local server under `lan` and show that a later hop is still checked.
   */
  trusted?: readonly TrustedEndpoint[];
  /** Reuse connections (default true); tests that count connections turn it off. */
  keepAlive?: boolean;
}

const POLICIES: readonly EgressPolicy[] = ['public', 'lan', 'any'];

function parseUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new EgressError('bad_url', 'egress: the URL is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError(
      'bad_url',
      `egress: only http and https URLs are fetched, not ${url.protocol}`,
      { host: url.hostname },
    );
  }
  // got reads the host name "unix" as a UNIX socket path; that is never an outbound call.
  if (url.hostname === 'unix')
    throw new EgressError('bad_url', 'egress: "unix" is not a host', { host: url.hostname });
  return url;
}

function checkLimits(req: EgressRequest): void {
  const positive = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n > 0;
  if (!POLICIES.includes(req.policy))
    throw new TypeError(`egress: unknown policy ${String(req.policy)}`);
  if (!positive(req.timeoutMs)) throw new TypeError('egress: timeoutMs must be a positive number');
  if (!positive(req.maxBytes)) throw new TypeError('egress: maxBytes must be a positive number');
  const f = req.followRedirects ?? 0;
  if (!Number.isInteger(f) || f < 0)
    throw new TypeError('egress: followRedirects must be a whole number ≥ 0');
}

/** The EgressError inside whatever got wrapped around it, else a translation of got's error. */
function translate(err: unknown, host: string, timeoutMs: number): EgressError {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof EgressError) return e;
  }
  const code = (err as { code?: string } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ETIMEDOUT')
    return new EgressError('timeout', `egress: ${host} did not answer within ${timeoutMs} ms`, {
      host,
      cause: err,
    });
  if (code === 'ERR_ABORTED')
    return new EgressError('aborted', `egress: the call to ${host} was cancelled`, {
      host,
      cause: err,
    });
  return new EgressError('network', `egress: the call to ${host} failed: ${message}`, {
    host,
    cause: err,
  });
}

// The statuses got follows when they carry a Location.
const REDIRECTS = new Set([300, 301, 302, 303, 307, 308]);
const isRedirect = (res: GotResponse) =>
  REDIRECTS.has(res.statusCode) && res.headers.location !== undefined;

/**
 * Why a redirect answer must not be followed, or null. Pure: got asks more than once per answer.
 */
function redirectProblem(res: GotResponse, max: number): string | null {
  if (!isRedirect(res)) return null;
  let target: URL;
  try {
    target = new URL(String(res.headers.location), res.url);
  } catch {
    return 'a Location that is not a URL';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return `a redirect to ${target.protocol}`;
  if (target.hostname === 'unix') return 'a redirect to a UNIX socket';
  if (res.redirectUrls.length >= max) return `more than ${max} redirect${max === 1 ? '' : 's'}`;
  return null;
}

export function createEgress(opts: EgressOptions = {}): Egress {
  const userAgent = opts.userAgent ?? `household-organizer/${VERSION}`;
  // One pair of agents per policy: the policy is fixed in each agent's connect check. Their
  // connections are kept alive and reused: a socket is checked when it connects, and a reused
  // one goes on talking to the address that was checked (a pool is per host and port, inside
  // one policy's agent), so reuse never bypasses the guard — and saves the connect, the TLS
  // handshake and their CPU on every delivery to the same receiver. Idle sockets close after
  // a few seconds, and only a few are kept per host.
  const agents = new Map<EgressPolicy, { http: GuardedHttpAgent; https: GuardedHttpsAgent }>();
  // Idle sockets are kept per host and port: one receiver host may stand behind many webhook
  // destinations (a household's Home Assistant, or the benchmark's one receiver), so a pool of a
  // handful would close and reopen connections on every burst. They close after 4 s idle, under
  // the 5 s Node servers keep them, so a reused socket is rarely one the server is closing.
  const pool = {
    keepAlive: opts.keepAlive ?? true,
    keepAliveMsecs: 1_000,
    maxFreeSockets: 256,
    timeout: 4_000,
    scheduling: 'lifo' as const,
  };
  const agentsFor = (policy: EgressPolicy) => {
    let pair = agents.get(policy);
    if (!pair) {
      const guard = { policy, lookup: opts.lookup, trusted: opts.trusted };
      pair = { http: new GuardedHttpAgent(guard, pool), https: new GuardedHttpsAgent(guard, pool) };
      agents.set(policy, pair);
    }
    return pair;
  };

  async function request(req: EgressRequest): Promise<EgressResponse> {
    checkLimits(req);
    const url = parseUrl(req.url);
    const host = url.hostname;
    const method = req.method ?? 'GET';
    const max = req.followRedirects ?? 0;
    const started = performance.now();

    // A request with a method that carries a body but has none still has to end: got's stream
    // waits for a body to be written otherwise.
    const body = req.body ?? (method === 'POST' || method === 'PUT' ? '' : undefined);
    // Without redirects to follow (webhook deliveries, transports) a call is one request on one
    // guarded socket: node:http does it at a fraction of got's CPU (docs/egress.md).
    if (max === 0)
      return direct({ req, url, method, body, agents: agentsFor(req.policy), userAgent, started });
    const stream = got.stream(url, {
      method,
      headers: { 'user-agent': userAgent, ...req.headers },
      ...(body !== undefined ? { body } : {}),
      agent: agentsFor(req.policy),
      http2: false,
      timeout: { request: req.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: true,
      maxRedirects: max,
      followRedirect: max === 0 ? false : (res: GotResponse) => redirectProblem(res, max) === null,
      ...(req.signal ? { signal: req.signal } : {}),
    });

    return new Promise<EgressResponse>((resolve, reject) => {
      let response: GotResponse | undefined;
      let settled = false;
      const fail = (e: EgressError) => {
        if (settled) return;
        settled = true;
        stream.destroy();
        reject(e);
      };
      const tooLarge = (what: string) =>
        fail(
          new EgressError(
            'too_large',
            `egress: the answer from ${host} ${what} more than ${req.maxBytes} bytes`,
            { host },
          ),
        );

      stream.on('response', (res: GotResponse) => {
        response = res;
        // A redirect that reaches here was refused by redirectProblem (or none may be followed,
        // in which case it is the answer).
        const problem = max > 0 ? redirectProblem(res, max) : null;
        if (problem !== null) {
          fail(
            new EgressError(
              'redirect_refused',
              `egress: ${new URL(res.url).hostname} answered with ${problem}`,
              { host },
            ),
          );
          return;
        }
        // got drops Content-Length (and Content-Encoding) from an answer it decompresses, so a
        // length still declared here is the length of the very bytes counted below: one past the
        // cap is refused before any of them arrives. A compressed answer is judged as it inflates.
        const declared = Number(res.headers['content-length']);
        if (method !== 'HEAD' && Number.isFinite(declared) && declared > req.maxBytes) {
          tooLarge('declares');
        }
      });
      collectBody(
        stream,
        req.maxBytes,
        () => settled,
        tooLarge,
        (chunks, size) => {
          settled = true;
          const res = response!;
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks, size),
            url: res.url,
            redirects: res.redirectUrls.map(String),
            address: res.ip,
            durationMs: Math.round(performance.now() - started),
          });
        },
      );
      stream.on('error', (err: unknown) => fail(translate(err, host, req.timeoutMs)));
    });
  }

  return { request };
}

/**
 * Keeps a body's chunks as they arrive, counting them: the chunk that takes it past `maxBytes`
 * is refused through `tooLarge`. `done` gets them at the end, unless the call has settled.
 */
function collectBody(
  stream: Readable,
  maxBytes: number,
  settled: () => boolean,
  tooLarge: (what: string) => void,
  done: (chunks: Buffer[], size: number) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (settled()) return;
    size += chunk.length;
    if (size > maxBytes) {
      tooLarge('runs to');
      return;
    }
    chunks.push(chunk);
  });
  stream.on('end', () => {
    if (!settled()) done(chunks, size);
  });
}

/** Encodings an answer may come in; the same list got asks for. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

function decoder(
  encoding: string | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.createBrotliDecompress();
    case undefined:
    default:
      return null;
  }
}

/**
 * One request, no redirects, on node:http with the guarded keep-alive agent. The same rules as
 * the got path: one timer over the whole call, the byte cap counted after decompression (a
 * declared length past it refused at the headers), a 3xx returned as it is, errors as
 * EgressError — without got's stream machinery, which costs several times the CPU of the
 * request itself on a small POST.
 */
function direct(a: {
  req: EgressRequest;
  url: URL;
  method: string;
  body: string | Buffer | undefined;
  agents: { http: http.Agent; https: https.Agent };
  userAgent: string;
  started: number;
}): Promise<EgressResponse> {
  const { req, url, method, body, started } = a;
  const host = url.hostname;
  return new Promise<EgressResponse>((resolve, reject) => {
    let settled = false;
    let client: http.ClientRequest | undefined;
    let stream: Readable | undefined;
    const cleanup = () => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (e: EgressError) => {
      if (settled) return;
      settled = true;
      cleanup();
      client?.destroy();
      stream?.destroy();
      reject(e);
    };
    const onAbort = () =>
      fail(new EgressError('aborted', `egress: the call to ${host} was cancelled`, { host }));
    const timer = setTimeout(
      () =>
        fail(
          new EgressError('timeout', `egress: ${host} did not answer within ${req.timeoutMs} ms`, {
            host,
          }),
        ),
      req.timeoutMs,
    );
    if (req.signal?.aborted) {
      onAbort();
      return;
    }
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const tooLarge = (what: string) =>
      fail(
        new EgressError(
          'too_large',
          `egress: the answer from ${host} ${what} more than ${req.maxBytes} bytes`,
          { host },
        ),
      );

    const headers: Record<string, string> = {
      'user-agent': a.userAgent,
      'accept-encoding': ACCEPT_ENCODING,
    };
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const https_ = url.protocol === 'https:';
    try {
      client = (https_ ? https : http).request({
        hostname: host.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || (https_ ? 443 : 80),
        path: url.pathname + url.search,
        method,
        headers,
        agent: https_ ? a.agents.https : a.agents.http,
      });
    } catch (err) {
      fail(translate(err, host, req.timeoutMs));
      return;
    }
    client.on('error', (err) => fail(translate(err, host, req.timeoutMs)));
    client.on('response', (res) => {
      if (settled) {
        res.resume();
        return;
      }
      const hasBody = method !== 'HEAD' && res.statusCode !== 204 && res.statusCode !== 304;
      const decode = hasBody ? decoder(res.headers['content-encoding']) : null;
      const resHeaders: Record<string, string | string[] | undefined> = { ...res.headers };
      if (decode) {
        // The headers describe the body as returned: decompressed, of the length counted below.
        delete resHeaders['content-encoding'];
        delete resHeaders['content-length'];
      } else if (hasBody) {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > req.maxBytes) {
          tooLarge('declares');
          return;
        }
      }
      const address = res.socket?.remoteAddress;
      stream = decode ? res.pipe(decode) : res;
      if (decode) {
        decode.on('error', (err) =>
          fail(
            new EgressError(
              'network',
              `egress: the answer from ${host} could not be decoded: ${err.message}`,
              { host, cause: err },
            ),
          ),
        );
        res.on('error', (err) => fail(translate(err, host, req.timeoutMs)));
      }
      stream.on('error', (err) => fail(translate(err, host, req.timeoutMs)));
      collectBody(
        stream,
        req.maxBytes,
        () => settled,
        tooLarge,
        (chunks, size) => {
          settled = true;
          cleanup();
          resolve({
            status: res.statusCode ?? 0,
            headers: resHeaders,
            body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size),
            url: url.toString(),
            redirects: [],
            address,
            durationMs: Math.round(performance.now() - started),
          });
        },
      );
      // A body the server cuts off mid-way ends the response with 'aborted' (then 'close').
      res.on('aborted', () =>
        fail(new EgressError('network', `egress: the answer from ${host} was cut off`, { host })),
      );
    });
    client.end(body);
  });
}

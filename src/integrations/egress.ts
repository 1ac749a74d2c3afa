/**
 * The daemon's one HTTP client for calls that leave the machine (webhook deliveries, calendar
 * feeds, weather and web lookups, page fetches, push and SMS transports). Every call names a
 * policy (from `config.egress`), a timeout and a byte cap; docs/egress.md explains the rules.
 *
 * Under it are agents that check the address each socket connects to (`guard.ts`), so the
 * policy holds for host names, IP literals and every redirect hop alike. A call without
 * redirects to follow goes straight through node:http on them (egressDirect.ts); one that may
 * follow redirects goes through got, which opens every hop through the same agents. The shapes
 * of a request and its answer are in egressTypes.ts, what both paths share in egressBody.ts.
 */
import got, { type PlainResponse as GotResponse } from 'got';
import { VERSION } from '../version.js';
import type { EgressPolicy } from './addresses.js';
import { EgressError } from './egressError.js';
import { GuardedHttpAgent, GuardedHttpsAgent } from './guard.js';
import type { Egress, EgressOptions, EgressRequest, EgressResponse } from './egressTypes.js';
import { collectBody, translate } from './egressBody.js';
import { direct } from './egressDirect.js';

export { EgressError, type EgressErrorKind } from './egressError.js';
export { allowed, classifyAddress, type AddressClass, type EgressPolicy } from './addresses.js';
export type {
  Egress,
  EgressOptions,
  EgressRequest,
  EgressResponse,
  TrustedEndpoint,
} from './egressTypes.js';

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

  return { request, options: opts };
}

/**
 * The shapes of the egress client (egress.ts): a request, its answer and the client itself.
 */
import type { LookupFunction } from 'node:net';
import type { EgressPolicy } from './addresses.js';

/** An address and port let through whatever the policy (a service the operator runs nearby). */
export interface TrustedEndpoint {
  address: string;
  port: number;
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
  /**
   * What the client was made with (createEgress), so that a worker thread can make the same
   * client — the same guard, resolver and trusted endpoints — on its side (webhook deliveries,
   * src/webhooks/sendThread.ts). Absent on a client that cannot be made again elsewhere.
   */
  readonly options?: EgressOptions;
}

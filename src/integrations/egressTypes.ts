/**
 * The shapes of the egress client (egress.ts): a request, its answer and the client itself.
 */
import type { EgressPolicy } from './addresses.js';

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

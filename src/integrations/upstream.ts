/**
 * How the lookups (weather, web search, page text) turn what went wrong on the way out into
 * errors of their own kind: a timeout, a failure (anything else from the egress client, or an
 * answer that cannot be used), a service that is not configured, a page of a type that is not
 * read. The HTTP layer maps the kinds to statuses (src/door/errors.ts: 504, 502, 503, 400).
 * Messages name the service and the host, never the full URL (a configured URL may carry a token).
 */
import { DomainError, IssuesError, type Issue } from '../domain/shared/errors.js';
import { EgressError, type Egress, type EgressPolicy, type EgressResponse } from './egress.js';

export type UpstreamErrorKind = 'failed' | 'timeout' | 'not_configured' | 'unsupported_content';

export class UpstreamError extends IssuesError {
  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    issues?: Issue[],
  ) {
    super(message, issues);
  }
}

export function upstreamFailed(service: string, why: string): UpstreamError {
  return new UpstreamError('failed', `${service} ${why}`);
}

/** The error for an egress failure of a call to `service` (a refusal already made is kept). */
export function fromEgress(
  service: string,
  err: unknown,
  limits: { timeoutMs: number; maxBytes: number },
): DomainError | UpstreamError {
  if (err instanceof DomainError || err instanceof UpstreamError) return err;
  if (err instanceof EgressError) {
    if (err.kind === 'timeout')
      return new UpstreamError(
        'timeout',
        `${service} did not answer within ${limits.timeoutMs / 1000} s`,
      );
    if (err.kind === 'too_large')
      return upstreamFailed(
        service,
        `answered with more than ${sizeText(limits.maxBytes)}, the most this daemon reads`,
      );
    if (err.kind === 'refused_address')
      return upstreamFailed(
        service,
        `is at an address this daemon may not call (${err.addressClass ?? 'refused'}); see docs/egress.md`,
      );
    return upstreamFailed(
      service,
      `could not be reached${err.host ? ` at ${err.host}` : ''}: ${err.kind.replace('_', ' ')}`,
    );
  }
  return upstreamFailed(service, 'could not be reached');
}

export function sizeText(bytes: number): string {
  return bytes % 2 ** 20 === 0
    ? `${bytes / 2 ** 20} MiB`
    : bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;
}

export interface JsonCall {
  http: Egress;
  service: string;
  url: URL;
  policy: EgressPolicy;
  timeoutMs: number;
  maxBytes: number;
}

/** GETs JSON from a configured service; a non-2xx answer is handed back for the caller to read. */
export async function getJson(
  call: JsonCall,
): Promise<{ status: number; body: unknown; response: EgressResponse }> {
  let response: EgressResponse;
  try {
    response = await call.http.request({
      url: call.url,
      policy: call.policy,
      timeoutMs: call.timeoutMs,
      maxBytes: call.maxBytes,
      followRedirects: 3,
      headers: { accept: 'application/json' },
    });
  } catch (err) {
    throw fromEgress(call.service, err, call);
  }
  let body: unknown = undefined;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    /* judged by the caller from the status */
  }
  return { status: response.status, body, response };
}

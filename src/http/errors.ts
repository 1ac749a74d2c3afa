/**
 * Errors as HTTP answers. The HTTP layer's own refusals (401, 413, 415, 422, 429, 503 …) are
 * HttpErrors with their status, code and headers; the domain's kinds and the outside services'
 * kinds are mapped to a status and a code here, in one table each, so the wire is decided in
 * one place. The middleware (middleware/errors.ts) writes what `answerOf` says.
 */
import {
  capIssues,
  DomainError,
  type DomainErrorKind,
  type Issue,
} from '../domain/shared/errors.js';
import { UpstreamError, type UpstreamErrorKind } from '../integrations/upstream.js';
import { OwnedElsewhere } from '../family/ownership.js';

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'idempotency_mismatch'
  | 'upstream_failed'
  | 'upstream_timeout'
  | 'not_configured'
  | 'not_implemented'
  | 'insufficient_storage'
  | 'unavailable'
  | 'internal';

export class HttpError extends Error {
  readonly issues?: Issue[];
  readonly issueCount?: number;
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    const capped = capIssues(issues);
    if (capped.issues) this.issues = capped.issues;
    if (capped.issueCount !== undefined) this.issueCount = capped.issueCount;
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'A valid x-api-key header is required', headers?: Record<string, string>) {
    super(401, 'unauthorized', message, undefined, headers);
  }
}

const DOMAIN: Record<DomainErrorKind, { status: number; code: ErrorCode }> = {
  invalid: { status: 400, code: 'invalid_request' },
  forbidden: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  conflict: { status: 409, code: 'conflict' },
};

const UPSTREAM: Record<UpstreamErrorKind, { status: number; code: ErrorCode }> = {
  failed: { status: 502, code: 'upstream_failed' },
  timeout: { status: 504, code: 'upstream_timeout' },
  not_configured: { status: 503, code: 'not_configured' },
  // The caller's URL leads to a page of a type that is not read: the caller's to change.
  unsupported_content: { status: 400, code: 'unsupported_media_type' },
};

/** The wire code of a domain refusal (the CLI prints it under --json too). */
export function domainCode(kind: DomainErrorKind): ErrorCode {
  return DOMAIN[kind].code;
}

export interface ErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
  issues?: Issue[];
  issueCount?: number;
  headers?: Record<string, string>;
}

/** The answer to an expected failure, or null when the error is a bug. */
export function answerOf(err: unknown): ErrorAnswer | null {
  if (err instanceof HttpError) return withDetails(err.status, err.code, err);
  if (err instanceof DomainError)
    return withDetails(DOMAIN[err.kind].status, DOMAIN[err.kind].code, err);
  if (err instanceof UpstreamError)
    return withDetails(UPSTREAM[err.kind].status, UPSTREAM[err.kind].code, err);
  // A cluster node that could not pass the request on to the family's owner (docs/scaling.md).
  if (err instanceof OwnedElsewhere)
    return {
      status: 503,
      code: 'unavailable',
      message: `${err.message}; try again shortly`,
      headers: { 'Retry-After': '1' },
    };
  return null;
}

function withDetails(
  status: number,
  code: ErrorCode,
  err: HttpError | DomainError | UpstreamError,
): ErrorAnswer {
  return {
    status,
    code,
    message: err.message,
    ...(err.issues ? { issues: err.issues } : {}),
    ...(err.issueCount !== undefined ? { issueCount: err.issueCount } : {}),
    ...(err instanceof HttpError && err.headers ? { headers: err.headers } : {}),
  };
}

/**
 * Expected failures carry a stable machine code and the HTTP status they map to; one Koa
 * middleware turns them into the wire shape `{ok: false, error, code, issues?}` (docs/api.md).
 * Anything that is not a DomainError is a bug: logged and answered as a generic 500.
 */
export type Path = (string | number)[];
export interface Issue { path: Path; message: string }

export type ErrorCode =
  | 'invalid_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict'
  | 'payload_too_large' | 'unsupported_media_type' | 'method_not_allowed' | 'rate_limited'
  | 'idempotency_mismatch' | 'upstream_failed' | 'upstream_timeout' | 'not_configured'
  | 'not_implemented' | 'insufficient_storage' | 'unavailable' | 'internal';

/**
 * At most this many issues travel with an error (and so reach a client or an idempotency
 * record); `issueCount` then says how many were found. A hostile body can otherwise make an
 * answer megabytes long.
 */
export const MAX_ISSUES = 20;

export class DomainError extends Error {
  readonly issues?: Issue[];
  /** How many issues were found, when more than MAX_ISSUES (the rest were left off). */
  readonly issueCount?: number;
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    if (issues) {
      this.issues = issues.length > MAX_ISSUES ? issues.slice(0, MAX_ISSUES) : issues;
      if (issues.length > MAX_ISSUES) this.issueCount = issues.length;
    }
  }
}

export class Invalid extends DomainError {
  constructor(message: string, issues?: Issue[]) { super(400, 'invalid_request', message, issues); }
  /** One problem with one field: the common case. */
  static at(path: Path, message: string): Invalid {
    return new Invalid(`${path.join('.')}: ${message}`, [{ path, message }]);
  }
}
export class Unauthorized extends DomainError {
  constructor(message = 'A valid x-api-key header is required') { super(401, 'unauthorized', message); }
}
export class Forbidden extends DomainError {
  constructor(message: string) { super(403, 'forbidden', message); }
}
export class NotFound extends DomainError {
  constructor(message: string, issues?: Issue[]) { super(404, 'not_found', message, issues); }
}
export class Conflict extends DomainError {
  constructor(message: string, issues?: Issue[]) { super(409, 'conflict', message, issues); }
}

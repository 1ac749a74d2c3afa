/**
 * The one table from every kind of error to an answer: status, headers and a default message.
 * Every door answers through it — REST, the live stream, the public pages, CalDAV, OAuth, MCP
 * — and only writes the answer in its own form (JSON, `DAV:error` XML, OAuth's error JSON, a
 * JSON-RPC error, an HTML page: each door's `render`). So a full disk is 507 with Retry-After
 * through every door, and a family owned by an unreachable cluster node 503 with Retry-After,
 * whichever door the request came through.
 *
 * Errors come from four places, each classified here once (`answerOf`): the domain's refusals
 * (`DomainError`, by its kind), the doors' own (`DoorError`, which names its kind), the outside
 * services' (`UpstreamError`), the store's refused writes (`StoreWriteError`) and a family owned
 * elsewhere (`OwnedElsewhere`). Anything else is a bug: logged with the request id, answered
 * `internal` without details. Adding a kind without its row does not compile.
 */
import {
  capIssues,
  DomainError,
  type DomainErrorKind,
  type Issue,
} from '../domain/shared/errors.js';
import { UpstreamError, type UpstreamErrorKind } from '../integrations/upstream.js';
import { OwnedElsewhere } from '../family/ownership.js';
import { StoreWriteError } from '../store/errors.js';

/** The wire code of an answer (REST's `code`; other doors carry it where their form allows). */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
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

/** Every kind of error an answer can be about. */
export type ErrorKind =
  // The domain's refusals (DomainError kinds).
  | 'invalid'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  // Who is asking, and how much.
  | 'unauthorized'
  | 'rate_limited'
  // The request's form.
  | 'unknown_path'
  | 'method_not_allowed'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_mismatch'
  | 'in_progress'
  | 'answer_too_large'
  // Outside services (UpstreamError kinds).
  | 'upstream_failed'
  | 'upstream_timeout'
  | 'not_configured'
  | 'unsupported_content'
  // The store and the cluster.
  | 'store_full'
  | 'store_failed'
  | 'owned_elsewhere'
  | 'unavailable'
  // Everything else.
  | 'not_implemented'
  | 'internal';

export interface ErrorRow {
  status: number;
  code: ErrorCode;
  /** Seconds a client should wait before trying again, when waiting helps. */
  retryAfter?: number;
  /** The message when the error brings none of its own (and always for `internal`). */
  message: string;
}

/** The table. Every door answers every kind with this status and these headers. */
export const ERROR_TABLE = {
  invalid: { status: 400, code: 'invalid_request', message: 'The request is not valid' },
  forbidden: { status: 403, code: 'forbidden', message: 'This is not allowed' },
  not_found: { status: 404, code: 'not_found', message: 'Not found' },
  conflict: { status: 409, code: 'conflict', message: 'The change conflicts with the state' },
  unauthorized: { status: 401, code: 'unauthorized', message: 'Credentials are required' },
  rate_limited: {
    status: 429,
    code: 'rate_limited',
    retryAfter: 60,
    message: 'Too many requests; try again later',
  },
  unknown_path: { status: 404, code: 'not_found', message: 'No such path' },
  method_not_allowed: {
    status: 405,
    code: 'method_not_allowed',
    message: 'This method is not allowed on this path',
  },
  precondition_failed: {
    status: 412,
    code: 'precondition_failed',
    message: 'A precondition of the request failed',
  },
  payload_too_large: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is too large',
  },
  unsupported_media_type: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'The request body is of a type that is not accepted here',
  },
  idempotency_mismatch: {
    status: 422,
    code: 'idempotency_mismatch',
    message: 'This Idempotency-Key was used with a different request',
  },
  // An answer past the limits a door keeps to (CalDAV's REPORT and PROPFIND, RFC 5323 §5.17:
  // 507 with DAV:number-of-matches-within-limits): the client asks for less; waiting helps not.
  answer_too_large: {
    status: 507,
    code: 'insufficient_storage',
    message: 'The answer would be larger than this server gives; ask for less',
  },
  in_progress: {
    status: 409,
    code: 'conflict',
    message: 'A request with this Idempotency-Key is still being processed',
  },
  upstream_failed: {
    status: 502,
    code: 'upstream_failed',
    message: 'An outside service failed',
  },
  upstream_timeout: {
    status: 504,
    code: 'upstream_timeout',
    message: 'An outside service did not answer in time',
  },
  not_configured: {
    status: 503,
    code: 'not_configured',
    message: 'The outside service this needs is not configured',
  },
  // The caller's URL leads to a page of a type that is not read: the caller's to change.
  unsupported_content: {
    status: 400,
    code: 'unsupported_media_type',
    message: 'The page is of a type that is not read',
  },
  store_full: {
    status: 507,
    code: 'insufficient_storage',
    retryAfter: 60,
    message:
      'The change was not saved: the disk holding the household data is full. Reads still work; writes work again once there is room.',
  },
  store_failed: {
    status: 503,
    code: 'unavailable',
    retryAfter: 5,
    message: 'The change was not saved: the store could not write it. Try again shortly.',
  },
  owned_elsewhere: {
    status: 503,
    code: 'unavailable',
    retryAfter: 2,
    message: 'The cluster node that holds this family cannot be reached; try again shortly',
  },
  unavailable: {
    status: 503,
    code: 'unavailable',
    retryAfter: 5,
    message: 'This cannot be served right now (the daemon is stopping, or busy); try again shortly',
  },
  not_implemented: {
    status: 501,
    code: 'not_implemented',
    message: 'This method is not supported',
  },
  internal: {
    status: 500,
    code: 'internal',
    message: 'Something went wrong on our side; the request id names it in the log',
  },
} as const satisfies Record<ErrorKind, ErrorRow>;

/** An error a door raises itself: its kind, a message for the client, issues, extra headers. */
export class DoorError extends Error {
  readonly issues?: Issue[];
  readonly issueCount?: number;
  readonly headers?: Record<string, string>;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    opts: { issues?: Issue[] | undefined; headers?: Record<string, string> | undefined } = {},
  ) {
    super(message);
    const capped = capIssues(opts.issues);
    if (capped.issues) this.issues = capped.issues;
    if (capped.issueCount !== undefined) this.issueCount = capped.issueCount;
    if (opts.headers) this.headers = opts.headers;
  }

  get status(): number {
    return ERROR_TABLE[this.kind].status;
  }
}

/** No credential, or one that is not valid: what the failure budget counts (door/limits.ts). */
export class Unauthorized extends DoorError {
  constructor(message = 'A valid x-api-key header is required', headers?: Record<string, string>) {
    super('unauthorized', message, { headers });
  }
}

/** A refusal for a request over one of its budgets, with the seconds to wait. */
export function rateLimited(message: string, retryAfter: number): DoorError {
  return new DoorError('rate_limited', message, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/** The kind of each of the domain's refusals. */
const DOMAIN: { [K in DomainErrorKind]: ErrorKind } = {
  invalid: 'invalid',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
};

/** The kind of each outside-service failure. */
const UPSTREAM: { [K in UpstreamErrorKind]: ErrorKind } = {
  failed: 'upstream_failed',
  timeout: 'upstream_timeout',
  not_configured: 'not_configured',
  unsupported_content: 'unsupported_content',
};

/** The wire code of a domain refusal (the CLI prints it under --json too). */
export function domainCode(kind: DomainErrorKind): ErrorCode {
  return ERROR_TABLE[DOMAIN[kind]].code;
}

/** An error as every door answers it; each door writes it in its own form. */
export interface ErrorAnswer {
  kind: ErrorKind;
  status: number;
  code: ErrorCode;
  message: string;
  issues?: Issue[];
  issueCount?: number;
  headers: Record<string, string>;
  /** The error it answers, if any: a door's form may say more of it (CalDAV's precondition). */
  cause?: unknown;
}

/** The answer of a kind, with the error's own message, issues and headers where it has them. */
export function answerFor(
  kind: ErrorKind,
  own: {
    message?: string;
    issues?: Issue[] | undefined;
    issueCount?: number | undefined;
    headers?: Record<string, string> | undefined;
  } = {},
): ErrorAnswer {
  const row: ErrorRow = ERROR_TABLE[kind];
  const headers: Record<string, string> = {
    ...(row.retryAfter !== undefined ? { 'Retry-After': String(row.retryAfter) } : {}),
    ...own.headers,
  };
  return {
    kind,
    status: row.status,
    code: row.code,
    message: own.message ?? row.message,
    ...(own.issues ? { issues: own.issues } : {}),
    ...(own.issueCount !== undefined ? { issueCount: own.issueCount } : {}),
    headers,
  };
}

/** The answer to an expected failure, or null when the error is a bug. */
export function answerOf(err: unknown): ErrorAnswer | null {
  const answer = known(err);
  return answer ? { ...answer, cause: err } : null;
}

function known(err: unknown): ErrorAnswer | null {
  if (err instanceof DoorError) return answerFor(err.kind, err);
  if (err instanceof DomainError) return answerFor(DOMAIN[err.kind], err);
  if (err instanceof UpstreamError) return answerFor(UPSTREAM[err.kind], err);
  // A write the disk refused: 507 when it is full (reads go on being served; writes work again
  // once there is room), 503 for any other I/O failure. The details are in the log, once.
  if (err instanceof StoreWriteError)
    return answerFor(err.kind === 'full' ? 'store_full' : 'store_failed');
  // A cluster node that could not pass the request on to the family's owner (docs/scaling.md).
  if (err instanceof OwnedElsewhere)
    return answerFor('owned_elsewhere', { message: `${err.message}; try again shortly` });
  return null;
}

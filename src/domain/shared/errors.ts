/**
 * What the domain refuses, by kind: the request is invalid (with the issues that say where), a
 * record is not found, the change conflicts with the state, or the caller may not do it. The
 * domain knows nothing of HTTP: the door core's one error table (src/door/errors.ts) gives each
 * kind its status and wire code, and each door writes the answer in its own form (REST's
 * `{ok: false, error, code, issues?}`, docs/api.md). Anything that is neither a DomainError nor
 * one of the doors' or the integrations' own errors is a bug: logged and answered `internal`.
 */
export type Path = (string | number)[];
export interface Issue {
  path: Path;
  message: string;
}

export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden';

/**
 * At most this many issues travel with an error (and so reach a client or an idempotency
 * record); `issueCount` then says how many were found. A hostile body can otherwise make an
 * answer megabytes long.
 */
export const MAX_ISSUES = 20;

/** The first MAX_ISSUES issues, and how many there were when some were left off. */
export function capIssues(issues: Issue[] | undefined): { issues?: Issue[]; issueCount?: number } {
  if (!issues) return {};
  return issues.length > MAX_ISSUES
    ? { issues: issues.slice(0, MAX_ISSUES), issueCount: issues.length }
    : { issues };
}

/** An error that carries the issues that say where (at most MAX_ISSUES of them). */
export class IssuesError extends Error {
  readonly issues?: Issue[];
  /** How many issues were found, when more than MAX_ISSUES (the rest were left off). */
  readonly issueCount?: number;
  constructor(message: string, issues?: Issue[]) {
    super(message);
    const capped = capIssues(issues);
    if (capped.issues) this.issues = capped.issues;
    if (capped.issueCount !== undefined) this.issueCount = capped.issueCount;
  }
}

export class DomainError extends IssuesError {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    issues?: Issue[],
  ) {
    super(message, issues);
  }
}

export class Invalid extends DomainError {
  constructor(message: string, issues?: Issue[]) {
    super('invalid', message, issues);
  }
  /** One problem with one field: the common case. */
  static at(path: Path, message: string): Invalid {
    return new Invalid(`${path.join('.')}: ${message}`, [{ path, message }]);
  }
}
/**
 * The one way an error's message names its issues: where the first one is (`body` for the
 * whole body) and what it says, then how many more there are — "items.0.title must be a string
 * (and 2 more problems)". `found` counts the problems when more were found than `issues` holds;
 * `atLeast` says counting stopped before the end.
 */
export function issuesMessage(
  issues: readonly Issue[],
  found = issues.length,
  atLeast = false,
): string {
  const first = issues[0];
  const where = first.path.length ? first.path.join('.') : 'body';
  const others = found - 1;
  const more =
    others > 0
      ? ` (and ${atLeast ? 'at least ' : ''}${others} more problem${others > 1 ? 's' : ''})`
      : '';
  return `${where} ${first.message}${more}`;
}

/** Refuses with every issue (the first one named in the message), when there are any. */
export function failOnIssues(
  issues: Issue[],
  Kind: typeof Invalid | typeof NotFound = Invalid,
): void {
  if (issues.length) throw new Kind(issuesMessage(issues), issues);
}

export class Forbidden extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}
export class NotFound extends DomainError {
  constructor(message: string, issues?: Issue[]) {
    super('not_found', message, issues);
  }
}
export class Conflict extends DomainError {
  constructor(message: string, issues?: Issue[]) {
    super('conflict', message, issues);
  }
}

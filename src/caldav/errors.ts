/**
 * CalDAV's form of the error table's answers: RFC 4918 `DAV:error` bodies naming the
 * precondition that failed (RFC 4791 §1.3), with a readable message in our own namespace beside
 * it, since clients such as Thunderbird and DAVx⁵ show the body's text to the person. The status
 * and headers are the table's (src/door/errors.ts), as for every door.
 *
 * CalDAV's own refusals name their precondition (`CalDavError`). A domain refusal is CalDAV's
 * where it says which precondition failed: an object the rules refuse is a
 * `valid-calendar-object-resource` (403, RFC 4791 §5.3.2.1), not a 400 (`fromDomain`).
 */
import type Koa from 'koa';
import { DomainError } from '../domain/shared/errors.js';
import { DoorError, type ErrorAnswer, type ErrorKind } from '../door/errors.js';
import { reasonPhrase } from './reason.js';
import { CALDAV, DAV, HOUSEHOLD, document, el, escapeXml } from './xml.js';

/** The statuses CalDAV's own refusals use, and the table's kind of each. */
const KIND_OF = {
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  507: 'answer_too_large',
} as const satisfies Record<number, ErrorKind>;

export type CalDavStatus = keyof typeof KIND_OF;

export interface Precondition {
  ns: string;
  local: string;
}

export class CalDavError extends DoorError {
  override readonly name = 'CalDavError';
  constructor(
    status: CalDavStatus,
    message: string,
    /** The precondition element, e.g. `{ ns: CALDAV, local: 'valid-calendar-data' }`. */
    readonly precondition?: Precondition,
    headers: Record<string, string> = {},
  ) {
    super(KIND_OF[status], message, { headers });
  }
}

export const badCalendarData = (message: string) =>
  new CalDavError(400, message, { ns: CALDAV, local: 'valid-calendar-data' });
export const unsupportedObject = (message: string) =>
  new CalDavError(403, message, { ns: CALDAV, local: 'valid-calendar-object-resource' });
export const readOnly = (message: string) =>
  new CalDavError(403, message, { ns: DAV, local: 'need-privileges' });

/** The precondition an answer of the table names when the error did not say (RFC 4918, 4331). */
const DEFAULT_PRECONDITION: Partial<Record<ErrorKind, Precondition>> = {
  payload_too_large: { ns: CALDAV, local: 'max-resource-size' },
  store_full: { ns: DAV, local: 'sufficient-disk-space' },
};

/** The error body: the precondition (when there is one) and the message. */
export function errorXml(message: string, precondition?: Precondition): string {
  const pre = precondition ? el(precondition) : '';
  return document('error', pre + el({ ns: HOUSEHOLD, local: 'message' }, escapeXml(message)));
}

/** Writes an answer of the table as CalDAV does: status and headers, a `DAV:error` body. */
export function renderDav(answer: ErrorAnswer, ctx: Koa.Context): void {
  const cause = answer.cause;
  const precondition =
    cause instanceof CalDavError ? cause.precondition : DEFAULT_PRECONDITION[answer.kind];
  ctx.status = answer.status;
  // The status line says why too: vdirsyncer, DAVx⁵ and Home Assistant show a person that.
  ctx.message = reasonPhrase(answer.message);
  ctx.set(answer.headers);
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = errorXml(answer.message, precondition);
}

/** A domain refusal as CalDAV says it: invalid data is a 403 on the object resource. */
export function fromDomain(err: DomainError): CalDavError {
  switch (err.kind) {
    case 'invalid': {
      const path = err.issues?.[0]?.path.join('.') ?? '';
      const message = err.issues?.length
        ? `${path ? `${path} ` : ''}${err.issues[0].message}`
        : err.message;
      return new CalDavError(403, message, { ns: CALDAV, local: 'valid-calendar-object-resource' });
    }
    case 'not_found':
      return new CalDavError(404, err.message);
    case 'conflict':
      return new CalDavError(409, err.message);
    case 'forbidden':
      return new CalDavError(403, err.message, { ns: DAV, local: 'need-privileges' });
    default: {
      const never: never = err.kind;
      return new CalDavError(500, String(never));
    }
  }
}

/** A domain refusal becomes CalDAV's own; every other error goes to the table as it is. */
export function asCalDav(err: unknown): unknown {
  return err instanceof DomainError ? fromDomain(err) : err;
}

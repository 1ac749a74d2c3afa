/**
 * CalDAV answers refusals as RFC 4918 `DAV:error` bodies naming the precondition that failed
 * (RFC 4791 §1.3), with a readable message in our own namespace beside it, since clients such
 * as Thunderbird and DAVx⁵ show the body's text to the person. Domain errors are mapped here,
 * in one place, as the REST error middleware maps them for JSON.
 */
import { type DomainError } from '../domain/shared/errors.js';
import { CALDAV, DAV, HOUSEHOLD, document, el, escapeXml } from './xml.js';

export class CalDavError extends Error {
  override readonly name = 'CalDavError';
  constructor(
    readonly status: number,
    message: string,
    /** The precondition element, e.g. `{ ns: CALDAV, local: 'valid-calendar-data' }`. */
    readonly precondition?: { ns: string; local: string },
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badCalendarData = (message: string) =>
  new CalDavError(400, message, { ns: CALDAV, local: 'valid-calendar-data' });
export const unsupportedObject = (message: string) =>
  new CalDavError(403, message, { ns: CALDAV, local: 'valid-calendar-object-resource' });
export const readOnly = (message: string) =>
  new CalDavError(403, message, { ns: DAV, local: 'need-privileges' });

/** The error body: the precondition (when there is one) and the message. */
export function errorXml(err: CalDavError): string {
  const pre = err.precondition ? el(err.precondition) : '';
  return document('error', pre + el({ ns: HOUSEHOLD, local: 'message' }, escapeXml(err.message)));
}

/** A domain refusal as a CalDAV answer: invalid data is a 403 on the object resource. */
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

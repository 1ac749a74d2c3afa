/**
 * Helpers of the CalDAV door's methods and reports: sync tokens, XML bodies, multistatus
 * answers and the caller a command is made for.
 */
import { createHash } from 'node:crypto';
import type { Caller, FamilyState } from '../domain/shared/state.js';
import { CalDavError } from './errors.js';
import type { DavRequest } from './request.js';
import { document, parseXml, XmlError, type XmlElement } from './xml.js';

const SYNC_BASE = 'http://household-organizer.invalid/sync/';

/** The family's sync token: its last durable change-log sequence and a tag of its zone. */
export function syncToken(req: DavRequest, state: FamilyState): string {
  return `${SYNC_BASE}${req.actor.lastDurableSeq}-${zoneTag(state.family.timezone)}`;
}

export function zoneTag(tz: string): string {
  return createHash('sha256').update(tz).digest('hex').slice(0, 8);
}

/** `<seq>` of a token this family issued, or null. */
export function parseToken(
  token: string,
  state: FamilyState,
): { seq: number; sameZone: boolean } | null {
  const m = /^http:\/\/household-organizer\.invalid\/sync\/(\d{1,15})-([0-9a-f]{8})$/.exec(
    token.trim(),
  );
  if (!m) return null;
  return { seq: Number(m[1]), sameZone: m[2] === zoneTag(state.family.timezone) };
}

export function xmlBody(req: DavRequest): XmlElement | null {
  if (!req.body.trim()) return null;
  const type = req.koa.request.type.toLowerCase();
  if (type && type !== 'application/xml' && type !== 'text/xml') {
    throw new CalDavError(
      415,
      `${req.koa.method} takes an XML body (application/xml), not ${type.slice(0, 60)}`,
    );
  }
  try {
    return parseXml(req.body);
  } catch (e) {
    if (e instanceof XmlError) throw new CalDavError(400, e.message);
    throw e;
  }
}

export function multistatus(req: DavRequest, inner: string): void {
  req.koa.status = 207;
  req.koa.type = 'application/xml; charset=utf-8';
  req.koa.body = document('multistatus', inner);
}

/** Who makes a change through CalDAV: the key that logged in. */
export function callerOf(req: DavRequest): Caller {
  return { keyId: req.key.id, personId: req.key.personId, keyName: req.key.name };
}

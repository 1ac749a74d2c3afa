/**
 * What every part of the CalDAV door shares: one request as the handlers see it, and the
 * door's fixed limits.
 */
import type Koa from 'koa';
import type { FamilyActor } from '../family/actor.js';
import type { Services } from '../http/route.js';
import type { ApiKeyRecord } from '../store/types.js';

export const DAV_ROOT = '/dav/';
/** Bodies larger than this are refused (413); advertised as max-resource-size. */
export const MAX_BODY = 1024 * 1024;
export const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR';

/** What a resource takes, by where it is: the root and home, a collection, an object. */
export const ALLOW_AT = {
  home: 'OPTIONS, GET, HEAD, PROPFIND, REPORT',
  collection: 'OPTIONS, GET, HEAD, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR',
  object: 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND',
} as const;

/** The Allow header of the resource at these segments (after /dav/<slug>/). */
export function allowAt(segments: readonly string[]): string {
  return segments.length === 0
    ? ALLOW_AT.home
    : segments.length === 1
      ? ALLOW_AT.collection
      : ALLOW_AT.object;
}

/** What a handler knows about one request. */
export interface DavRequest {
  koa: Koa.Context;
  services: Services;
  actor: FamilyActor;
  key: ApiKeyRecord;
  /** Path segments after /dav/<slug>/ (decoded). */
  segments: string[];
  body: string;
  depth: '0' | '1' | 'infinity';
}

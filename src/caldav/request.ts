/**
 * What every part of the CalDAV door shares: one request as the handlers see it, and the
 * door's fixed limits.
 */
import type { FamilyActor } from '../family/actor.js';
import type { CoreServices, CoreStore } from '../door/route.js';
import type { DoorContext } from '../door/state.js';
import type { LogReads } from '../store/ports.js';
import type { ApiKeyRecord } from '../store/types.js';

/** What the CalDAV door uses besides the core's: sync-collection reads the change log. */
export interface CalDavServices extends CoreServices {
  store: CoreStore & Pick<LogReads, 'readLog'>;
}

export type Depth = '0' | '1' | 'infinity';

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
  koa: DoorContext;
  services: CalDavServices;
  actor: FamilyActor;
  key: ApiKeyRecord;
  /** Path segments after /dav/<slug>/ (decoded). */
  segments: string[];
  body: string;
  depth: Depth;
}

/**
 * WebDAV and CalDAV properties of the four kinds of resource (service root, the family's
 * principal/home, a collection, an object), and the multistatus answers that carry them.
 * A property a resource does not have is answered 404 in its own propstat, as RFC 4918 asks.
 */
import { vtimezone } from '../domain/calendar/icsTimezone.js';
import { COLORS, type Color } from '../domain/collections/types.js';
import { isUtcZone } from '../domain/shared/time.js';
import { activePerson } from '../domain/people/people.js';
import type { FamilyState } from '../domain/shared/state.js';
import { hasScope } from '../family/scopes.js';
import { MAX_BODY, type DavRequest } from './request.js';
import type { DavCollection, DavObject } from './objects.js';
import { APPLE, CALDAV, CS, DAV, HOUSEHOLD, c, d, el, escapeXml, type QName } from './xml.js';
import { PRODID } from './eventOut.js';

export type Resource =
  | { type: 'root' }
  | { type: 'home' }
  | { type: 'collection'; col: DavCollection }
  | { type: 'object'; col: DavCollection; obj: DavObject };

/** The API's palette names ↔ the fixed colours CalDAV clients get (#RRGGBBAA, as Apple writes). */
export const PALETTE: Record<Color, string> = {
  sage: '#8FA876FF',
  blue: '#3F7FD0FF',
  clay: '#C46F4EFF',
  plum: '#8E4A8AFF',
  gold: '#D9A52BFF',
};

/** The palette colour nearest to a client's `#RRGGBB[AA]`, or null when it is not a colour. */
export function nearestColor(hex: string): Color | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})(?:[0-9a-f]{2})?$/i.exec(hex.trim());
  if (!m) return null;
  const rgb = m.slice(1, 4).map((x) => parseInt(x, 16));
  let best: Color = COLORS[0];
  let bestDistance = Infinity;
  for (const name of COLORS) {
    const p = PALETTE[name];
    const q = [1, 3, 5].map((i) => parseInt(p.slice(i, i + 2), 16));
    const dist = q.reduce((s, v, i) => s + (v - rgb[i]) ** 2, 0);
    if (dist < bestDistance) {
      bestDistance = dist;
      best = name;
    }
  }
  return best;
}

const enc = (s: string) => encodeURIComponent(s);
export const homeHref = (slug: string) => `/dav/${enc(slug)}/`;
export const collectionHref = (slug: string, key: string) => `/dav/${enc(slug)}/${enc(key)}/`;
export const objectHref = (slug: string, key: string, name: string) =>
  `/dav/${enc(slug)}/${enc(key)}/${enc(name)}.ics`;

export function hrefOf(state: FamilyState, r: Resource): string {
  const slug = state.family.slug;
  switch (r.type) {
    case 'root':
      return '/dav/';
    case 'home':
      return homeHref(slug);
    case 'collection':
      return collectionHref(slug, r.col.collection.key);
    case 'object':
      return objectHref(slug, r.col.collection.key, r.obj.name);
  }
}

export interface PropContext {
  req: DavRequest;
  state: FamilyState;
  /** The family's sync token (also every collection's ctag). */
  token: string;
}

const href = (h: string) => d('href', escapeXml(h));

function privileges(names: string[]): string {
  return names.map((n) => d('privilege', d(n))).join('');
}

/** The value (inner XML) of a property, or undefined when the resource has none. */
export function propValue(p: QName, r: Resource, x: PropContext): string | undefined {
  const slug = x.state.family.slug;
  const writable = hasScope(x.req.key, 'write');
  const key = `${p.ns}|${p.local}`;
  switch (key) {
    case `${DAV}|current-user-principal`:
      return href(homeHref(slug));
    case `${DAV}|principal-URL`:
      return r.type === 'home' ? href(homeHref(slug)) : undefined;
    case `${DAV}|principal-collection-set`:
      return href('/dav/');
    case `${DAV}|resourcetype`:
      if (r.type === 'root') return d('collection');
      if (r.type === 'home') return d('collection') + d('principal');
      if (r.type === 'collection') return d('collection') + c('calendar');
      return '';
    case `${DAV}|displayname`:
      if (r.type === 'home') return escapeXml(x.state.family.name);
      if (r.type === 'collection') return escapeXml(r.col.collection.name);
      if (r.type === 'root') return 'Household Organizer';
      return undefined;
    case `${DAV}|owner`:
      return r.type === 'root' ? undefined : href(homeHref(slug));
    case `${DAV}|current-user-privilege-set`: {
      const canWrite =
        writable &&
        !(r.type === 'collection' || r.type === 'object' ? r.col.feed : false) &&
        r.type !== 'root';
      return privileges(
        canWrite
          ? [
              'read',
              'read-current-user-privilege-set',
              'write',
              'write-properties',
              'write-content',
              'bind',
              'unbind',
            ]
          : ['read', 'read-current-user-privilege-set'],
      );
    }
    case `${DAV}|supported-report-set`:
      if (r.type !== 'collection' && r.type !== 'home') return undefined;
      return (
        ['calendar-query', 'calendar-multiget']
          .map((n) => d('supported-report', d('report', c(n))))
          .join('') +
        (r.type === 'collection' ? d('supported-report', d('report', d('sync-collection'))) : '')
      );
    case `${DAV}|sync-token`:
      return r.type === 'collection' ? escapeXml(x.token) : undefined;
    case `${CS}|getctag`:
      return r.type === 'collection' || r.type === 'home' ? escapeXml(x.token) : undefined;
    case `${DAV}|getetag`:
      return r.type === 'object' ? escapeXml(r.obj.etag) : undefined;
    case `${DAV}|getcontenttype`:
      if (r.type === 'object')
        return `text/calendar; charset=utf-8; component=${r.col.component.toLowerCase()}`;
      return r.type === 'collection' ? 'text/calendar; charset=utf-8' : undefined;
    case `${DAV}|getcontentlength`:
      return r.type === 'object' ? String(Buffer.byteLength(r.obj.ics)) : undefined;
    case `${DAV}|getlastmodified`:
      return r.type === 'object' ? new Date(r.obj.entry.updatedAt).toUTCString() : undefined;
    case `${CALDAV}|calendar-home-set`:
      return r.type === 'root' || r.type === 'home' ? href(homeHref(slug)) : undefined;
    case `${CALDAV}|calendar-user-address-set`: {
      if (r.type !== 'home') return undefined;
      const email = x.req.key.personId ? activePerson(x.state, x.req.key.personId)?.email : null;
      return (email ? href(`mailto:${email}`) : '') + href(homeHref(slug));
    }
    case `${CALDAV}|supported-calendar-component-set`:
      return r.type === 'collection' ? `<c:comp name="${r.col.component}"/>` : undefined;
    case `${CALDAV}|supported-calendar-data`:
      return r.type === 'collection'
        ? '<c:calendar-data content-type="text/calendar" version="2.0"/>'
        : undefined;
    case `${CALDAV}|max-resource-size`:
      return r.type === 'collection' ? String(MAX_BODY) : undefined;
    case `${CALDAV}|calendar-description`:
      return r.type === 'collection' && r.col.collection.description
        ? escapeXml(r.col.collection.description)
        : undefined;
    case `${CALDAV}|calendar-timezone`:
      return r.type === 'collection'
        ? escapeXml(timezoneObject(x.state, x.req.services.now()))
        : undefined;
    case `${CALDAV}|calendar-data`:
      return r.type === 'object' ? escapeXml(r.obj.ics) : undefined;
    case `${APPLE}|calendar-color`: {
      if (r.type !== 'collection') return undefined;
      return PALETTE[r.col.collection.color ?? (r.col.component === 'VEVENT' ? 'sage' : 'blue')];
    }
    case `${HOUSEHOLD}|collection-key`:
      return r.type === 'collection' ? escapeXml(r.col.collection.key) : undefined;
    default:
      return undefined;
  }
}

/** A VCALENDAR holding the family's VTIMEZONE (calendar-timezone). */
export function timezoneObject(state: FamilyState, now: Date): string {
  const tz = state.family.timezone;
  const year = now.getUTCFullYear();
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    ...(isUtcZone(tz) ? [] : vtimezone(tz, year - 1, year + 1)),
    'END:VCALENDAR',
  ];
  return lines.join('\r\n') + '\r\n';
}

/** What `allprop` answers (RFC 4918: the live properties a client may want, not the expensive ones). */
export const ALLPROP: QName[] = [
  { ns: DAV, local: 'resourcetype' },
  { ns: DAV, local: 'displayname' },
  { ns: DAV, local: 'getetag' },
  { ns: DAV, local: 'getcontenttype' },
  { ns: DAV, local: 'getcontentlength' },
  { ns: DAV, local: 'getlastmodified' },
  { ns: DAV, local: 'current-user-principal' },
  { ns: DAV, local: 'owner' },
  { ns: CS, local: 'getctag' },
  { ns: DAV, local: 'sync-token' },
  { ns: CALDAV, local: 'supported-calendar-component-set' },
  { ns: APPLE, local: 'calendar-color' },
];

/** One `<d:response>` with a propstat per status. */
export function propResponse(hrefText: string, found: string[], missing: QName[]): string {
  let inner = href(hrefText);
  if (found.length)
    inner += d('propstat', d('prop', found.join('')) + d('status', 'HTTP/1.1 200 OK'));
  inner += missingPropstat(missing);
  if (!found.length && !missing.length)
    inner += d('propstat', d('prop', '') + d('status', 'HTTP/1.1 200 OK'));
  return d('response', inner);
}

function missingPropstat(missing: QName[]): string {
  if (!missing.length) return '';
  return d(
    'propstat',
    d('prop', missing.map((m) => el(m)).join('')) + d('status', 'HTTP/1.1 404 Not Found'),
  );
}

/** The response of a resource for the requested properties. */
export function respond(r: Resource, wanted: QName[], x: PropContext): string {
  const found: string[] = [];
  const missing: QName[] = [];
  for (const p of wanted) {
    const v = propValue(p, r, x);
    if (v === undefined) missing.push(p);
    else found.push(el(p, v));
  }
  return propResponse(hrefOf(x.state, r), found, missing);
}

/**
 * The response of an object whose calendar-data is written as parts already escaped (an
 * expanded event, answer.ts): what comes before the data, with the other properties found, and
 * what comes after. `length` is the data's size before escaping (getcontentlength).
 */
export function responseAroundData(
  r: Resource,
  wanted: QName[],
  x: PropContext,
  length: number,
): { head: string; tail: string } {
  const found: string[] = [];
  const missing: QName[] = [];
  for (const p of wanted) {
    if (p.ns === CALDAV && p.local === 'calendar-data') continue;
    const v = p.ns === DAV && p.local === 'getcontentlength' ? String(length) : propValue(p, r, x);
    if (v === undefined) missing.push(p);
    else found.push(el(p, v));
  }
  return {
    head: `<d:response>${href(hrefOf(x.state, r))}<d:propstat><d:prop>${found.join('')}<c:calendar-data>`,
    tail: `</c:calendar-data></d:prop>${d('status', 'HTTP/1.1 200 OK')}</d:propstat>${missingPropstat(missing)}</d:response>`,
  };
}

export function statusResponse(hrefText: string, status: string): string {
  return d('response', href(hrefText) + d('status', `HTTP/1.1 ${status}`));
}

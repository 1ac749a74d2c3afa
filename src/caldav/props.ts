/**
 * WebDAV and CalDAV properties of the four kinds of resource (service root, the family's
 * principal/home, a collection, an object), and the multistatus answers that carry them.
 * A property a resource does not have is answered 404 in its own propstat, as RFC 4918 asks.
 */
import { vtimezone } from '../domain/calendar/icsTimezone.js';
import { NAMED_COLORS, type NamedColor } from '../domain/collections/types.js';
import { isUtcZone } from '../domain/shared/time.js';
import { activePerson } from '../domain/people/people.js';
import type { FamilyState } from '../domain/shared/state.js';
import { hasScope } from '../family/scopes.js';
import { MAX_BODY, type DavRequest } from './request.js';
import { calendarDataXml, type DavCollection, type DavObject } from './objects.js';
import { APPLE, CALDAV, CS, DAV, HOUSEHOLD, c, d, el, escapeXml, type QName } from './xml.js';
import { PRODID } from './eventOut.js';

export type Resource =
  | { type: 'root' }
  | { type: 'home' }
  | { type: 'collection'; col: DavCollection }
  | { type: 'object'; col: DavCollection; obj: DavObject };

/** The API's palette names ↔ the fixed colours CalDAV clients get (#RRGGBBAA, as Apple writes). */
export const PALETTE: Record<NamedColor, string> = {
  sage: '#8FA876FF',
  blue: '#3F7FD0FF',
  clay: '#C46F4EFF',
  plum: '#8E4A8AFF',
  gold: '#D9A52BFF',
};

/** The palette colour nearest to a client's `#RRGGBB[AA]`, or null when it is not a colour. */
export function nearestColor(hex: string): NamedColor | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})(?:[0-9a-f]{2})?$/i.exec(hex.trim());
  if (!m) return null;
  const rgb = m.slice(1, 4).map((x) => parseInt(x, 16));
  let best: NamedColor = NAMED_COLORS[0];
  let bestDistance = Infinity;
  for (const name of NAMED_COLORS) {
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

/** How one property reads: its inner XML for a resource, or undefined when it has none. */
type PropReader = (r: Resource, x: PropContext) => string | undefined;

const home = (x: PropContext) => href(homeHref(x.state.family.slug));
const onlyCollection =
  (value: (r: Extract<Resource, { type: 'collection' }>) => string) => (r: Resource) =>
    r.type === 'collection' ? value(r) : undefined;
const onlyObject =
  (value: (r: Extract<Resource, { type: 'object' }>) => string) => (r: Resource) =>
    r.type === 'object' ? value(r) : undefined;

const WRITER = [
  'read',
  'read-current-user-privilege-set',
  'write',
  'write-properties',
  'write-content',
  'bind',
  'unbind',
];

/** What the caller may do here: write where its key may and the collection is not a feed's. */
function privilegeSet(r: Resource, x: PropContext): string {
  const canWrite =
    hasScope(x.req.key, 'write') &&
    !(r.type === 'collection' || r.type === 'object' ? r.col.feed : false) &&
    r.type !== 'root';
  return privileges(canWrite ? WRITER : ['read', 'read-current-user-privilege-set']);
}

/** The reports a collection (and the home) answers. */
function reportSet(r: Resource): string | undefined {
  if (r.type !== 'collection' && r.type !== 'home') return undefined;
  return (
    ['calendar-query', 'calendar-multiget']
      .map((n) => d('supported-report', d('report', c(n))))
      .join('') +
    (r.type === 'collection' ? d('supported-report', d('report', d('sync-collection'))) : '')
  );
}

/** The properties of WebDAV (RFC 4918, 5397, 6578) and of the calendar server extensions. */
const DAV_PROPS: Record<string, PropReader> = {
  [`${DAV}|current-user-principal`]: (_r, x) => home(x),
  [`${DAV}|principal-URL`]: (r, x) => (r.type === 'home' ? home(x) : undefined),
  [`${DAV}|principal-collection-set`]: () => href('/dav/'),
  [`${DAV}|resourcetype`]: (r) =>
    r.type === 'root'
      ? d('collection')
      : r.type === 'home'
        ? d('collection') + d('principal')
        : r.type === 'collection'
          ? d('collection') + c('calendar')
          : '',
  [`${DAV}|displayname`]: (r, x) =>
    r.type === 'home'
      ? escapeXml(x.state.family.name)
      : r.type === 'collection'
        ? escapeXml(r.col.collection.name)
        : r.type === 'root'
          ? 'Household Organizer'
          : undefined,
  [`${DAV}|owner`]: (r, x) => (r.type === 'root' ? undefined : home(x)),
  [`${DAV}|current-user-privilege-set`]: privilegeSet,
  [`${DAV}|supported-report-set`]: reportSet,
  [`${DAV}|sync-token`]: (r, x) => (r.type === 'collection' ? escapeXml(x.token) : undefined),
  [`${CS}|getctag`]: (r, x) =>
    r.type === 'collection' || r.type === 'home' ? escapeXml(x.token) : undefined,
  [`${DAV}|getetag`]: onlyObject((r) => escapeXml(r.obj.etag)),
  [`${DAV}|getcontenttype`]: (r) =>
    r.type === 'object'
      ? `text/calendar; charset=utf-8; component=${r.col.component.toLowerCase()}`
      : r.type === 'collection'
        ? 'text/calendar; charset=utf-8'
        : undefined,
  [`${DAV}|getcontentlength`]: onlyObject((r) => String(Buffer.byteLength(r.obj.ics))),
  [`${DAV}|getlastmodified`]: onlyObject((r) => new Date(r.obj.entry.updatedAt).toUTCString()),
};

/** The properties of CalDAV (RFC 4791, 6638), Apple's color and our own. */
const CALDAV_PROPS: Record<string, PropReader> = {
  [`${CALDAV}|calendar-home-set`]: (r, x) =>
    r.type === 'root' || r.type === 'home' ? home(x) : undefined,
  [`${CALDAV}|calendar-user-address-set`]: (r, x) => {
    if (r.type !== 'home') return undefined;
    const email = x.req.key.personId ? activePerson(x.state, x.req.key.personId)?.email : null;
    return (email ? href(`mailto:${email}`) : '') + home(x);
  },
  [`${CALDAV}|supported-calendar-component-set`]: onlyCollection(
    (r) => `<c:comp name="${r.col.component}"/>`,
  ),
  [`${CALDAV}|supported-calendar-data`]: onlyCollection(
    () => '<c:calendar-data content-type="text/calendar" version="2.0"/>',
  ),
  [`${CALDAV}|max-resource-size`]: onlyCollection(() => String(MAX_BODY)),
  [`${CALDAV}|calendar-description`]: (r) =>
    r.type === 'collection' && r.col.collection.description
      ? escapeXml(r.col.collection.description)
      : undefined,
  [`${CALDAV}|calendar-timezone`]: (r, x) =>
    r.type === 'collection' ? escapeXml(timezoneObject(x.state, x.req.services.now())) : undefined,
  [`${CALDAV}|calendar-data`]: onlyObject((r) => calendarDataXml(r.obj)),
  [`${APPLE}|calendar-color`]: onlyCollection(
    (r) => PALETTE[r.col.collection.color ?? (r.col.component === 'VEVENT' ? 'sage' : 'blue')],
  ),
  [`${HOUSEHOLD}|collection-key`]: onlyCollection((r) => escapeXml(r.col.collection.key)),
};

const PROPS = new Map<string, PropReader>(Object.entries({ ...DAV_PROPS, ...CALDAV_PROPS }));

/** The value (inner XML) of a property, or undefined when the resource has none. */
export function propValue(p: QName, r: Resource, x: PropContext): string | undefined {
  return PROPS.get(`${p.ns}|${p.local}`)?.(r, x);
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

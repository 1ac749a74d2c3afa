/**
 * The collection methods of the CalDAV door: PROPPATCH (a collection's displayname and
 * calendar-color, all or nothing) and MKCALENDAR/MKCOL (a new event calendar, or a to-do list
 * when the client asks for VTODO alone). A display name is a label here: one another collection
 * has is taken and made distinct for REST ("Packing (2)"), never refused.
 */
import {
  LIST_FIELDS,
  decideCreateCollection,
  decideUpdateCollection,
} from '../domain/collections/collections.js';
import type { NamedColor } from '../domain/collections/types.js';
import { ALLOW_AT, type DavRequest } from './request.js';
import { callerOf, multistatus, xmlBody } from './common.js';
import { CalDavError } from './errors.js';
import { findCollection } from './objects.js';
import { collectionAt } from './paths.js';
import { nearestColor, propResponse } from './props.js';
import { APPLE, CALDAV, DAV, child, d, el, type QName, type XmlElement } from './xml.js';

/** displayname and calendar-color of a set/remove, as UpdateCollectionInput. */
function collectionProps(el: XmlElement | undefined): {
  name?: string;
  color?: NamedColor;
  other: QName[];
} {
  const out: { name?: string; color?: NamedColor; other: QName[] } = { other: [] };
  for (const p of el?.children ?? []) {
    if (p.ns === DAV && p.local === 'displayname') out.name = p.text.trim();
    else if (p.ns === APPLE && p.local === 'calendar-color') {
      const color = nearestColor(p.text);
      if (!color)
        throw new CalDavError(
          400,
          `calendar-color must be #RRGGBB or #RRGGBBAA, not ${p.text.slice(0, 20)}`,
        );
      out.color = color;
    } else out.other.push({ ns: p.ns, local: p.local });
  }
  return out;
}

export async function proppatch(req: DavRequest): Promise<void> {
  const [key, segment] = req.segments;
  if (key === undefined || segment !== undefined)
    throw new CalDavError(
      403,
      "Only a collection's displayname and calendar-color can be changed",
      { ns: DAV, local: 'cannot-modify-protected-property' },
    );
  const body = xmlBody(req);
  if (!body || body.ns !== DAV || body.local !== 'propertyupdate')
    throw new CalDavError(400, 'A PROPPATCH body must be a DAV:propertyupdate element');
  const sets = body.children
    .filter((c) => c.ns === DAV && c.local === 'set')
    .map((s) => collectionProps(child(s, DAV, 'prop')));
  const removes = body.children
    .filter((c) => c.ns === DAV && c.local === 'remove')
    .flatMap((r) => child(r, DAV, 'prop')?.children ?? []);
  const input: { name?: string; color?: NamedColor } = {};
  const other: QName[] = [];
  for (const s of sets) {
    if (s.name !== undefined) input.name = s.name;
    if (s.color !== undefined) input.color = s.color;
    other.push(...s.other);
  }
  other.push(...removes.map((r) => ({ ns: r.ns, local: r.local })));
  const href = await req.actor.read((state) => {
    const col = collectionAt(state, key);
    return `/dav/${encodeURIComponent(state.family.slug)}/${encodeURIComponent(col.collection.key)}/`;
  });
  const done = [
    ...(input.name !== undefined ? [{ ns: DAV, local: 'displayname' }] : []),
    ...(input.color ? [{ ns: APPLE, local: 'calendar-color' }] : []),
  ];
  if (other.length) {
    // RFC 4918: all or nothing; the properties we cannot store fail the whole request.
    const failed = d(
      'propstat',
      d('prop', other.map((o) => el(o)).join('')) + d('status', 'HTTP/1.1 403 Forbidden'),
    );
    const dependent = done.length
      ? d(
          'propstat',
          d('prop', done.map((o) => el(o)).join('')) +
            d('status', 'HTTP/1.1 424 Failed Dependency'),
        )
      : '';
    multistatus(req, d('response', d('href', href) + failed + dependent));
    return;
  }
  if (done.length)
    await req.actor.execute(
      (s, ctx) => decideUpdateCollection(s, key, { ...input, onNameTaken: 'number' }, ctx),
      callerOf(req),
    );
  multistatus(
    req,
    propResponse(
      href,
      done.map((o) => el(o)),
      [],
    ),
  );
}

/**
 * What a new collection holds, from the MKCALENDAR's supported-calendar-component-set: VTODO
 * alone makes a to-do list (an ordinary collection, as iOS Reminders' "Add List" and tasks.org
 * ask); VEVENT, both, or no set make a calendar (to-dos stay in lists). Other names (VJOURNAL,
 * VFREEBUSY, …) are ignored beside one of these — their objects are refused when PUT — and a set
 * of only those is refused.
 */
function componentOf(set: XmlElement | undefined): 'VEVENT' | 'VTODO' {
  const comps = set ? child(set, CALDAV, 'supported-calendar-component-set') : undefined;
  if (!comps) return 'VEVENT';
  const names = new Set(comps.children.map((c) => (c.attrs.name ?? '').toUpperCase()));
  if (names.has('VEVENT')) return 'VEVENT';
  if (names.has('VTODO')) return 'VTODO';
  throw new CalDavError(
    403,
    `Collections here hold events (VEVENT) or to-dos (VTODO), not ${[...names].join(', ').slice(0, 60) || 'nothing'}`,
    { ns: CALDAV, local: 'supported-calendar-component' },
  );
}

export async function mkcalendar(req: DavRequest): Promise<void> {
  const [key, segment] = req.segments;
  if (key === undefined || segment !== undefined)
    throw new CalDavError(403, 'Calendars are made at /dav/<family>/<new-name>/', {
      ns: DAV,
      local: 'resource-must-be-null',
    });
  const body = xmlBody(req);
  const set = body ? child(child(body, DAV, 'set'), DAV, 'prop') : undefined;
  // Extended MKCOL (RFC 5689, DAVx⁵'s way) makes a calendar only when it asks for one.
  if (req.koa.method === 'MKCOL' && !child(child(set, DAV, 'resourcetype'), CALDAV, 'calendar'))
    throw new CalDavError(
      403,
      'Only calendar collections are made here: MKCOL needs a resourcetype with CALDAV:calendar',
      { ns: DAV, local: 'valid-resourcetype' },
    );
  const props = collectionProps(set);
  const component = componentOf(set);
  await req.actor.read((state) => {
    if (findCollection(state, key))
      throw new CalDavError(
        405,
        `${key} already exists`,
        { ns: DAV, local: 'resource-must-be-null' },
        { Allow: ALLOW_AT.collection },
      );
  });
  const made = await req.actor.execute(
    (s, ctx) =>
      decideCreateCollection(
        s,
        {
          name: props.name || key,
          key,
          onNameTaken: 'number',
          ...(component === 'VEVENT' ? { category: 'calendar' } : { fields: [...LIST_FIELDS] }),
          ...(props.color ? { color: props.color } : {}),
        },
        ctx,
      ),
    callerOf(req),
  );
  req.koa.status = 201;
  req.koa.set(
    'Location',
    `/dav/${encodeURIComponent(req.actor.family.slug)}/${encodeURIComponent(made.key)}/`,
  );
  req.koa.body = '';
}

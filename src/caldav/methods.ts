/**
 * The methods of the CalDAV door: PROPFIND, GET/HEAD, PUT and DELETE here, PROPPATCH and
 * MKCALENDAR in collectionMethods.ts, REPORT in reports.ts. Reads take what they answer from
 * the family's durable state in one actor read (objects are renderings that a write replaces,
 * never changes, so a multistatus written over several turns still shows one moment); writes are
 * commands through the actor, the same deciders REST uses, so the change log, webhooks and
 * reminders follow.
 */
import { decideDeleteCollection } from '../domain/collections/collections.js';
import { decideDeleteEvent } from '../domain/calendar/events.js';
import { decideDeleteEntries } from '../domain/collections/entries.js';
import { decidePutEvent, decidePutTodo } from '../domain/caldav/objects.js';
import type { EventRecord } from '../domain/calendar/types.js';
import { allowAt, type DavRequest } from './request.js';
import { mkcalendar, proppatch } from './collectionMethods.js';
import { Answer, sendMultistatus } from './answer.js';
import { callerOf, syncToken, xmlBody } from './common.js';
import { CalDavError, readOnly, unsupportedObject } from './errors.js';
import { eventPut } from './eventIn.js';
import { readObject } from './icalRead.js';
import { davCollections, objectsOf } from './objects.js';
import { collectionAt, MAKES_COLLECTION, objectName, resourceExists } from './paths.js';
import { ALLPROP, propResponse, respond, type PropContext, type Resource } from './props.js';
import { handleReport } from './reports.js';
import { todoPut } from './todo.js';
import { CALDAV, DAV, child, el, type QName, type XmlElement } from './xml.js';

export async function handleMethod(req: DavRequest, root: boolean): Promise<void> {
  const method = req.koa.method;
  // A method this kind of resource never takes is a 405 with what it does take, there or not;
  // for the others a missing resource is a 404 (but for the method that makes it).
  const allowed = allowAt(req.segments).split(', ').includes(method);
  if (!allowed && !MAKES_COLLECTION.has(method)) notAllowed(req);
  const exists = await req.actor.read((state) =>
    resourceExists(state, req.segments, method, req.services.now()),
  );
  if (exists && !allowed) notAllowed(req);
  switch (method) {
    case 'PROPFIND':
      return propfind(req, root);
    case 'REPORT':
      return handleReport(req);
    case 'GET':
    case 'HEAD':
      return get(req, root);
    case 'PUT':
      return put(req);
    case 'DELETE':
      return remove(req);
    case 'PROPPATCH':
      return proppatch(req);
    case 'MKCALENDAR':
    case 'MKCOL':
      return mkcalendar(req);
    default:
      return notAllowed(req);
  }
}

function notAllowed(req: DavRequest): never {
  throw new CalDavError(
    405,
    `${req.koa.method} is not supported here; this resource takes ${allowAt(req.segments)}`,
    undefined,
    { Allow: allowAt(req.segments) },
  );
}

/** The properties a PROPFIND asks for: a list, allprop (also an empty body) or propname. */
function wantedProps(body: XmlElement | null): QName[] | 'propname' {
  if (!body) return ALLPROP;
  if (body.ns !== DAV || body.local !== 'propfind')
    throw new CalDavError(400, 'A PROPFIND body must be a DAV:propfind element');
  if (child(body, DAV, 'propname')) return 'propname';
  const prop = child(body, DAV, 'prop');
  if (prop) return prop.children.map((c) => ({ ns: c.ns, local: c.local }));
  return ALLPROP;
}

async function propfind(req: DavRequest, root: boolean): Promise<void> {
  const wanted = wantedProps(xmlBody(req));
  const now = req.services.now();
  // What to answer is decided in one read; a long answer (a collection of thousands of objects)
  // is then written in slices, from the objects as they were (answer.ts).
  const { x, resources } = await req.actor.read((state) => {
    const x: PropContext = { req, state, token: syncToken(req, state) };
    const resources: Resource[] = [];
    const [key, objectSegment] = req.segments;
    if (root) resources.push({ type: 'root' });
    else if (key === undefined) {
      resources.push({ type: 'home' });
      if (req.depth !== '0')
        for (const col of davCollections(state)) resources.push({ type: 'collection', col });
    } else {
      const col = collectionAt(state, key);
      if (objectSegment === undefined) {
        resources.push({ type: 'collection', col });
        if (req.depth !== '0')
          for (const obj of objectsOf(state, col, now).byName.values())
            resources.push({ type: 'object', col, obj });
      } else {
        const obj = objectsOf(state, col, now).byName.get(objectName(objectSegment));
        if (!obj) throw new CalDavError(404, `No object ${objectSegment} in ${key}`);
        resources.push({ type: 'object', col, obj });
      }
    }
    return { x, resources };
  });
  const answer = new Answer();
  for (const r of resources) {
    answer.add(
      wanted === 'propname'
        ? propResponse(
            hrefOfResource(x, r),
            ALLPROP.map((p) => el(p)),
            [],
          )
        : respond(r, wanted, x),
    );
    await answer.pause();
  }
  sendMultistatus(req.koa, answer);
}

function hrefOfResource(x: PropContext, r: Resource): string {
  return respond(r, [], x).match(/<d:href>([^<]*)<\/d:href>/)![1];
}

async function get(req: DavRequest, root: boolean): Promise<void> {
  const [key, segment] = req.segments;
  if (root || key === undefined || segment === undefined) {
    req.koa.status = 200;
    req.koa.type = 'text/plain; charset=utf-8';
    req.koa.body = 'This is a CalDAV address: add it to a calendar app (docs/caldav.md).\n';
    return;
  }
  const obj = await req.actor.read((state) =>
    objectsOf(state, collectionAt(state, key), req.services.now()).byName.get(objectName(segment)),
  );
  if (!obj) throw new CalDavError(404, `No object ${segment} in ${key}`);
  req.koa.status = 200;
  req.koa.set('ETag', obj.etag);
  req.koa.set('Last-Modified', new Date(obj.entry.updatedAt).toUTCString());
  req.koa.type = 'text/calendar; charset=utf-8';
  req.koa.body = obj.ics;
}

/** If-Match / If-None-Match against the object's current ETag (412 when they fail). */
function preconditions(req: DavRequest, etag: string | undefined): void {
  const ifMatch = req.koa.get('if-match').trim();
  const ifNone = req.koa.get('if-none-match').trim();
  const tags = (h: string) => h.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (ifMatch && (etag === undefined || (ifMatch !== '*' && !tags(ifMatch).includes(etag)))) {
    throw new CalDavError(
      412,
      etag === undefined
        ? 'If-Match: the object does not exist'
        : 'If-Match: the object has changed since it was read',
      undefined,
    );
  }
  if (ifNone && etag !== undefined && (ifNone === '*' || tags(ifNone).includes(etag))) {
    throw new CalDavError(412, 'If-None-Match: the object already exists', {
      ns: CALDAV,
      local: 'no-uid-conflict',
    });
  }
}

async function put(req: DavRequest): Promise<void> {
  const [key, segment] = req.segments;
  if (key === undefined || segment === undefined || req.segments.length !== 2)
    throw new CalDavError(
      405,
      'PUT creates or replaces an object: /dav/<family>/<collection>/<name>.ics',
      undefined,
      { Allow: allowAt(req.segments) },
    );
  const name = objectName(segment);
  const type = req.koa.request.type.toLowerCase();
  if (type !== 'text/calendar')
    throw new CalDavError(
      415,
      `Objects are iCalendar (Content-Type: text/calendar), not ${type.slice(0, 60) || 'untyped'}`,
      { ns: CALDAV, local: 'supported-calendar-data' },
    );
  const now = req.services.now();
  const obj = readObject(req.body, now);
  const created = await req.actor.read((state) => {
    const col = collectionAt(state, key);
    if (col.feed)
      throw readOnly(`${col.collection.name} mirrors an external feed and is read-only`);
    if (obj.kind !== col.component.toLowerCase()) {
      throw unsupportedObject(
        `${col.collection.name} holds ${col.component}s; this object is a ${obj.kind.toUpperCase()}`,
      );
    }
    const index = objectsOf(state, col, now);
    const existing = index.byName.get(name);
    preconditions(req, existing?.etag);
    const sameUid = index.byUid.get(obj.uid);
    if (sameUid && sameUid !== existing) {
      throw new CalDavError(
        409,
        `Another object in ${col.collection.name} (${sameUid.name}.ics) has the UID ${obj.uid}`,
        { ns: CALDAV, local: 'no-uid-conflict' },
      );
    }
    // Map here, on the state the write will see; the decider re-checks what it relies on.
    return col.component === 'VEVENT'
      ? {
          kind: 'event' as const,
          put: eventPut(state, obj, {
            collectionKey: key,
            name,
            ...(existing ? { before: existing.entry as EventRecord } : {}),
          }),
        }
      : { kind: 'todo' as const, put: todoPut(state, col.collection, obj, name, existing?.entry) };
  });
  const result =
    created.kind === 'event'
      ? await req.actor.execute((s, ctx) => decidePutEvent(s, created.put, ctx), callerOf(req))
      : await req.actor.execute((s, ctx) => decidePutTodo(s, created.put, ctx), callerOf(req));
  // The server rewrites what clients send (its own times, zone, properties): no ETag, so the
  // client fetches the object as stored (RFC 4791 §5.3.4).
  req.koa.status = result.created ? 201 : 204;
  req.koa.body = '';
}

async function remove(req: DavRequest): Promise<void> {
  const [key, segment] = req.segments;
  if (key === undefined)
    throw new CalDavError(403, 'The calendar home cannot be deleted', {
      ns: DAV,
      local: 'need-privileges',
    });
  if (segment === undefined) {
    await req.actor.read((state) => {
      const col = collectionAt(state, key);
      if (col.collection.builtin)
        throw new CalDavError(403, `${col.collection.name} is built in and cannot be deleted`, {
          ns: DAV,
          local: 'need-privileges',
        });
      if (col.feed)
        throw readOnly(
          `${col.collection.name} belongs to an external feed: remove the feed instead`,
        );
    });
    await req.actor.execute((s, ctx) => decideDeleteCollection(s, key, ctx), callerOf(req));
    req.koa.status = 204;
    req.koa.body = '';
    return;
  }
  const name = objectName(segment);
  const target = await req.actor.read((state) => {
    const col = collectionAt(state, key);
    if (col.feed)
      throw readOnly(`${col.collection.name} mirrors an external feed and is read-only`);
    const obj = objectsOf(state, col, req.services.now()).byName.get(name);
    if (!obj) throw new CalDavError(404, `No object ${segment} in ${key}`);
    preconditions(req, obj.etag);
    return { id: obj.entry.id, event: col.component === 'VEVENT' };
  });
  if (target.event)
    await req.actor.execute((s, ctx) => decideDeleteEvent(s, target.id, ctx), callerOf(req));
  else
    await req.actor.execute(
      (s, ctx) => decideDeleteEntries(s, key, [target.id], ctx),
      callerOf(req),
    );
  req.koa.status = 204;
  req.koa.body = '';
}

/**
 * REPORTs: calendar-multiget and calendar-query (RFC 4791 §7.8–7.9; its filters are
 * evaluated by filters.ts) and sync-collection (RFC 6578). Time ranges are matched on the
 * occurrences the calendar's own expansion produces (the same code the REST listing and the ICS
 * feed use), so a series with removed and moved occurrences matches exactly where it happens
 * (occurrences.ts); expanded answers are written by expand.ts.
 */
import type { EventRecord } from '../domain/calendar/types.js';
import { DAV_TOMBSTONES, type DavTombstone } from '../domain/collections/tombstones.js';
import type { DavRequest } from './request.js';
import { createHash } from 'node:crypto';
import { hasScope } from '../family/scopes.js';
import { CalDavError } from './errors.js';
import { expandedParts } from './expand.js';
import { ANSWER_LIMITS, Answer, sendMultistatus, tooMuch } from './answer.js';
import { recall, remember } from './answerCache.js';
import { multistatus, parseToken, syncToken, xmlBody } from './common.js';
import {
  findCollection,
  objectsOf,
  type DavCollection,
  type DavObject,
  type ObjectIndex,
} from './objects.js';
import { occurrencesOf, type Range } from './occurrences.js';
import { checkFilter, matchesFilter } from './filters.js';
import { addShaped } from './calendarData.js';
import { freeBusyReport } from './freebusy.js';
import { dataRequest, type DataRequest } from './selection.js';
import {
  objectHref,
  respond,
  responseAroundData,
  statusResponse,
  type PropContext,
} from './props.js';
import { CALDAV, DAV, child, children, d, escapeXml, type QName, type XmlElement } from './xml.js';

/** What a report reads, taken in one actor read: later parts of a long answer see the same. */
interface Snapshot {
  x: PropContext;
  col: DavCollection;
  index: ObjectIndex;
  version: number;
  tz: string;
  /** The family's last durable change-log sequence when the report started. */
  seq: number;
}

export async function handleReport(req: DavRequest): Promise<void> {
  const body = xmlBody(req);
  if (!body) throw new CalDavError(400, 'A REPORT needs a body');
  const [key, segment] = req.segments;
  const kind = `${body.ns}|${body.local}`;
  // A free-busy-query is answered in iCalendar, of a calendar or of the whole home.
  if (kind === `${CALDAV}|free-busy-query` && segment === undefined)
    return freeBusyReport(req, body);
  if (key === undefined || segment !== undefined) {
    throw new CalDavError(403, 'Reports are asked of a collection: /dav/<family>/<collection>/', {
      ns: DAV,
      local: 'supported-report',
    });
  }
  const now = req.services.now();
  // An answer is kept until the family's next write, keyed by the request itself.
  const asked = createHash('sha256').update(req.body).digest('base64url');
  const question = `${key}:${asked}:${hasScope(req.key, 'write')}:${now.getUTCFullYear()}`;
  const start = await req.actor.read((state): Snapshot | string => {
    const hit = recall(state, question);
    if (hit !== undefined) return hit;
    const col = findCollection(state, key);
    if (!col) throw new CalDavError(404, `No collection ${key} in this family`);
    return {
      x: { req, state, token: syncToken(req, state) },
      col,
      index: objectsOf(state, col, now),
      version: state.version,
      tz: state.family.timezone,
      seq: req.actor.lastDurableSeq,
    };
  });
  if (typeof start === 'string') {
    multistatus(req, start);
    return;
  }
  const answer = new Answer();
  switch (kind) {
    case `${CALDAV}|calendar-multiget`:
      await multiget(body, start, answer);
      break;
    case `${CALDAV}|calendar-query`:
      await query(body, start, answer);
      break;
    case `${DAV}|sync-collection`:
      await sync(body, start, answer);
      break;
    default:
      throw new CalDavError(403, `The report ${body.local} is not supported`, {
        ns: DAV,
        local: 'supported-report',
      });
  }
  remember(start.x.state, start.version, question, answer);
  sendMultistatus(req.koa, answer);
}

/** The requested properties, with what calendar-data asks beyond the whole object. */
function requested(body: XmlElement): { props: QName[]; data?: DataRequest } {
  const prop = child(body, DAV, 'prop');
  const props = (prop?.children ?? []).map((c) => ({ ns: c.ns, local: c.local }));
  const data = dataRequest(child(prop, CALDAV, 'calendar-data'));
  return { props, ...(data ? { data } : {}) };
}

/**
 * One object's response, added to the answer: as it is, expanded (an event's occurrences are
 * written in parts below; to-dos and selections by calendarData.ts), or with only the parts
 * calendar-data selects.
 */
async function addObject(
  obj: DavObject,
  s: Snapshot,
  props: QName[],
  answer: Answer,
  data?: DataRequest,
): Promise<void> {
  const wantsData = props.some((p) => p.ns === CALDAV && p.local === 'calendar-data');
  if (!data || !wantsData) {
    answer.add(respond({ type: 'object', col: s.col, obj }, props, s.x));
    return;
  }
  if (data.expand && !data.comp && s.col.component === 'VEVENT')
    return addExpandedEvent(obj, s, props, answer, data.expand);
  await addShaped(obj, { col: s.col, x: s.x, tz: s.tz }, props, answer, data);
}

/**
 * An event expanded: each occurrence is counted against the answer's budget as it is produced,
 * and written in parts (escaped once per distinct part: the same long note comes back for every
 * occurrence).
 */
async function addExpandedEvent(
  obj: DavObject,
  s: Snapshot,
  props: QName[],
  answer: Answer,
  expand: Range,
): Promise<void> {
  const ev = obj.entry as EventRecord;
  const escaped = new Map<string, [string, number, number]>();
  const data: string[] = [];
  let length = 0;
  let bytes = 0;
  const parts = expandedParts(s.tz, obj.uid, ev, occurrencesOf(ev, expand, s.tz), () =>
    answer.countOccurrences(1),
  );
  for (const part of parts) {
    let e = escaped.get(part);
    if (!e) {
      const x = escapeXml(part);
      e = [x, Buffer.byteLength(part), Buffer.byteLength(x)];
      if (part.length > 200 && escaped.size < 1000) escaped.set(part, e);
    }
    length += e[1];
    bytes += e[2];
    if (answer.bytes + bytes > ANSWER_LIMITS.bytes)
      throw tooMuch(`${ANSWER_LIMITS.bytes / 1024 / 1024} MiB`);
    data.push(e[0]);
    await answer.pause();
  }
  const { head, tail } = responseAroundData(
    { type: 'object', col: s.col, obj },
    props,
    s.x,
    length,
  );
  answer.add(head);
  answer.addWritten(data, bytes);
  answer.add(tail);
}

async function multiget(body: XmlElement, s: Snapshot, answer: Answer): Promise<void> {
  const { props, data } = requested(body);
  const prefix = objectHref(s.x.state.family.slug, s.col.collection.key, '');
  const decodedPrefix = decodeURIComponent(prefix.slice(0, -4));
  for (const h of children(body, DAV, 'href')) {
    const raw = h.text.trim();
    let path = raw;
    try {
      path = decodeURIComponent(new URL(raw, 'http://x').pathname);
    } catch {
      /* answered 404 below */
    }
    const name =
      path.startsWith(decodedPrefix) && path.endsWith('.ics')
        ? path.slice(decodedPrefix.length, -4)
        : undefined;
    const obj = name === undefined ? undefined : s.index.byName.get(name);
    if (obj) await addObject(obj, s, props, answer, data);
    else answer.add(statusResponse(raw, '404 Not Found'));
    await answer.pause();
  }
}

// ---- calendar-query ------------------------------------------------------------------------

async function query(body: XmlElement, s: Snapshot, answer: Answer): Promise<void> {
  const { props, data } = requested(body);
  const top = checkFilter(child(body, CALDAV, 'filter'));
  const now = s.x.req.services.now();
  for (const obj of [...s.index.byName.values()]) {
    if (matchesFilter(top, { obj, col: s.col, tz: s.tz, now }))
      await addObject(obj, s, props, answer, data);
    await answer.pause();
  }
}

// ---- sync-collection -----------------------------------------------------------------------

/** Log records read for one sync before answering with every member instead. */
const SYNC_SCAN_MAX = 20_000;
/** Change types after which every object of every collection may render differently. */
const RENDER_WIDE = new Set([
  'person.created',
  'person.updated',
  'person.deleted',
  'external_calendar.updated',
  'external_calendar.deleted',
]);

async function sync(body: XmlElement, s: Snapshot, answer: Answer): Promise<void> {
  const { col, x, index } = s;
  const tokenText = child(body, DAV, 'sync-token')?.text.trim() ?? '';
  const level = child(body, DAV, 'sync-level')?.text.trim();
  if (level && level !== '1')
    throw new CalDavError(403, 'Only sync-level 1 is supported', {
      ns: DAV,
      local: 'sync-traversal-supported',
    });
  const { props } = requested(body);
  const tokenEl = d('sync-token', escapeXml(x.token));
  const all = async () => {
    for (const obj of [...index.byName.values()]) {
      answer.add(respond({ type: 'object', col, obj }, props, x));
      await answer.pause();
    }
    answer.add(tokenEl);
  };
  if (!tokenText) return all();
  const parsed = parseToken(tokenText, x.state);
  if (!parsed || parsed.seq > s.seq) {
    throw new CalDavError(
      403,
      'This sync token was not issued for this collection or is no longer valid; sync again without one',
      { ns: DAV, local: 'valid-sync-token' },
    );
  }
  if (!parsed.sameZone) return all();
  const changed = await changedSince(parsed.seq, s, answer);
  if (changed === 'all') return all();
  const slug = x.state.family.slug;
  for (const id of changed) {
    const obj = index.byId.get(id);
    if (obj) answer.add(respond({ type: 'object', col, obj }, props, x));
    else {
      const tomb = x.state.get<DavTombstone>(DAV_TOMBSTONES, id);
      // The name the client knew it by: its own, or the id of one made through REST.
      const name = tomb && tomb.collectionKey === col.collection.key ? tomb.name : id;
      // A name taken again since is answered as it is now, above.
      if (!index.byName.has(name))
        answer.add(statusResponse(objectHref(slug, col.collection.key, name), '404 Not Found'));
    }
    await answer.pause();
  }
  answer.add(tokenEl);
}

/**
 * The ids of the collection's records changed after `from` up to the snapshot, from the change
 * log; 'all' when a change may alter every object or too much was written since.
 */
async function changedSince(
  from: number,
  s: Snapshot,
  answer: Answer,
): Promise<Set<string> | 'all'> {
  const key = s.col.collection.key;
  const changed = new Set<string>();
  let after = from;
  while (after < s.seq) {
    const page = s.x.req.services.store.readLog(s.x.state.family.id, after, 1000);
    if (!page.length) break;
    for (const rec of page) {
      if (rec.seq > s.seq) return changed;
      if (RENDER_WIDE.has(rec.type)) return 'all';
      if (rec.type === 'collection.updated' && (rec.object as { key?: string }).key === key)
        return 'all';
      for (const o of [rec.object, rec.previous] as (
        { id?: string; collectionKey?: string; calendarKey?: string } | undefined
      )[]) {
        if (o?.id && (o.collectionKey ?? o.calendarKey) === key) changed.add(o.id);
      }
    }
    after = page[page.length - 1].seq;
    if (after - from > SYNC_SCAN_MAX) return 'all';
    await answer.pause();
  }
  return changed;
}

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
import {
  EXPANDED_HEAD,
  EXPANDED_TAIL,
  expandedOccurrence,
  expandedRun,
  type Written,
} from './expand.js';
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
import { occurrenceRuns, occurrencesOf, takeWindows, type Range } from './occurrences.js';
import { aroundExpanded, objectResponse, responseKey } from './objectResponses.js';
import { checkFilter, matchesFilter } from './filters.js';
import { addShaped } from './calendarData.js';
import { freeBusyReport } from './freebusy.js';
import { dataRequest, type DataRequest } from './selection.js';
import { objectHref, respond, statusResponse, type PropContext } from './props.js';
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
    // The occurrence index's windows for the body's time ranges, as this read sees the family.
    takeWindows(state, col, body);
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

/**
 * The requested properties, with what calendar-data asks beyond the whole object, and what else
 * an object's response depends on (objectResponses.ts).
 */
function requested(
  body: XmlElement,
  x: PropContext,
): { props: QName[]; data?: DataRequest; key: string | null } {
  const prop = child(body, DAV, 'prop');
  const props = (prop?.children ?? []).map((c) => ({ ns: c.ns, local: c.local }));
  const data = dataRequest(child(prop, CALDAV, 'calendar-data'));
  return { props, ...(data ? { data } : {}), key: responseKey(prop, x) };
}

type Requested = ReturnType<typeof requested>;

/**
 * One object's response, added to the answer: as it is (kept per object and properties asked),
 * expanded (an event's occurrences from the occurrence index, below; to-dos and selections by
 * calendarData.ts), or with only the parts calendar-data selects.
 */
async function addObject(
  obj: DavObject,
  s: Snapshot,
  asked: Requested,
  answer: Answer,
): Promise<void> {
  const { props, data, key } = asked;
  const wantsData = props.some((p) => p.ns === CALDAV && p.local === 'calendar-data');
  if (!data || !wantsData) {
    const r = objectResponse(s.col, obj, props, s.x, key);
    answer.add(r.text, r.bytes);
    return;
  }
  if (data.expand && !data.comp && s.col.component === 'VEVENT') {
    const { parts, length, bytes } = await expandedData(obj, s, data.expand, answer);
    const { head, tail } = aroundExpanded(s.col, obj, props, s.x, key, length);
    answer.add(head.text, head.bytes);
    answer.addWritten(parts, bytes);
    answer.add(tail.text, tail.bytes);
    return;
  }
  await addShaped(obj, { col: s.col, x: s.x, tz: s.tz }, props, answer, data);
}

/**
 * An event's calendar-data expanded over `expand`, as escaped parts and their sizes, each
 * occurrence counted against the answer's budget as it is added. From the occurrence index, a
 * run of an event's occurrences in one month is one slice of text written before; otherwise
 * each occurrence is written (once: expand.ts keeps it with the occurrence) as it comes.
 */
async function expandedData(
  obj: DavObject,
  s: Snapshot,
  expand: Range,
  answer: Answer,
): Promise<{ parts: string[]; length: number; bytes: number }> {
  const ev = obj.entry as EventRecord;
  const parts: string[] = [...EXPANDED_HEAD.parts];
  let length = EXPANDED_HEAD.length + EXPANDED_TAIL.length;
  let bytes = EXPANDED_HEAD.bytes + EXPANDED_TAIL.bytes;
  const add = (w: Written) => {
    length += w.length;
    bytes += w.bytes;
    if (answer.bytes + bytes > ANSWER_LIMITS.bytes)
      throw tooMuch(`${ANSWER_LIMITS.bytes / 1024 / 1024} MiB`);
    for (const p of w.parts) parts.push(p);
  };
  const runs = occurrenceRuns(ev, expand, s.tz);
  for (const run of runs ?? []) {
    answer.countOccurrences(run.to - run.from);
    const joined = expandedRun(s.tz, obj.uid, ev, run);
    if (joined) add(joined);
    else
      for (let k = run.from; k < run.to; k++)
        add(expandedOccurrence(s.tz, obj.uid, ev, run.list[k]));
    if (answer.due()) await answer.pause();
  }
  if (!runs) {
    for (const o of occurrencesOf(ev, expand, s.tz)) {
      answer.countOccurrences(1);
      add(expandedOccurrence(s.tz, obj.uid, ev, o));
      if (answer.due()) await answer.pause();
    }
  }
  parts.push(...EXPANDED_TAIL.parts);
  return { parts, length, bytes };
}

async function multiget(body: XmlElement, s: Snapshot, answer: Answer): Promise<void> {
  const asked = requested(body, s.x);
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
    if (obj) await addObject(obj, s, asked, answer);
    else answer.add(statusResponse(raw, '404 Not Found'));
    await answer.pause();
  }
}

// ---- calendar-query ------------------------------------------------------------------------

async function query(body: XmlElement, s: Snapshot, answer: Answer): Promise<void> {
  const asked = requested(body, s.x);
  const top = checkFilter(child(body, CALDAV, 'filter'));
  const now = s.x.req.services.now();
  for (const obj of [...s.index.byName.values()]) {
    if (matchesFilter(top, { obj, col: s.col, tz: s.tz, now }))
      await addObject(obj, s, asked, answer);
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
  const { props } = requested(body, x);
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

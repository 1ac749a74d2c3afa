/**
 * REPORTs: calendar-multiget and calendar-query (RFC 4791 §7.8–7.9: comp-filter, prop-filter
 * with text-match and is-not-defined, time-range, expand, limit-recurrence-set) and
 * sync-collection (RFC 6578). Time ranges are matched on the occurrences the calendar's own
 * expansion produces (the same code the REST listing and the ICS feed use), so a series with
 * removed and moved occurrences matches exactly where it happens (occurrences.ts); expanded
 * answers are written by expand.ts.
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
import { occurrencesOf, overlaps, range, type Range } from './occurrences.js';
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
  if (key === undefined || segment !== undefined) {
    throw new CalDavError(403, 'Reports are asked of a collection: /dav/<family>/<collection>/', {
      ns: DAV,
      local: 'supported-report',
    });
  }
  const kind = `${body.ns}|${body.local}`;
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

/** The requested properties, with calendar-data's expand range when it asks for one. */
function requested(body: XmlElement): { props: QName[]; expand?: Range } {
  const prop = child(body, DAV, 'prop');
  const props = (prop?.children ?? []).map((c) => ({ ns: c.ns, local: c.local }));
  const data = child(prop, CALDAV, 'calendar-data');
  const expand = child(data, CALDAV, 'expand');
  return { props, ...(expand ? { expand: range(expand) } : {}) };
}

/**
 * One object's response, added to the answer. Expanded, each occurrence is counted against the
 * answer's budget as it is produced, and written in parts (escaped once per distinct part: the
 * same long note comes back for every occurrence).
 */
async function addObject(
  obj: DavObject,
  s: Snapshot,
  props: QName[],
  answer: Answer,
  expand?: Range,
): Promise<void> {
  const wantsData = props.some((p) => p.ns === CALDAV && p.local === 'calendar-data');
  if (!expand || !wantsData || s.col.component !== 'VEVENT') {
    answer.add(respond({ type: 'object', col: s.col, obj }, props, s.x));
    return;
  }
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
  const { props, expand } = requested(body);
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
    if (obj) await addObject(obj, s, props, answer, expand);
    else answer.add(statusResponse(raw, '404 Not Found'));
    await answer.pause();
  }
}

// ---- calendar-query ------------------------------------------------------------------------

async function query(body: XmlElement, s: Snapshot, answer: Answer): Promise<void> {
  const { props, expand } = requested(body);
  const filter = child(body, CALDAV, 'filter');
  const top = child(filter, CALDAV, 'comp-filter');
  if (!top || top.attrs.name?.toUpperCase() !== 'VCALENDAR') {
    throw new CalDavError(400, 'calendar-query needs a filter with a VCALENDAR comp-filter', {
      ns: CALDAV,
      local: 'valid-filter',
    });
  }
  const inner = children(top, CALDAV, 'comp-filter');
  // Ranges are checked before any object is looked at, so a bad filter is refused on an empty calendar too.
  for (const f of inner) for (const tr of children(f, CALDAV, 'time-range')) range(tr);
  for (const obj of [...s.index.byName.values()]) {
    if (inner.every((f) => matchesComponent(f, obj, s.col, s.tz)))
      await addObject(obj, s, props, answer, expand);
    await answer.pause();
  }
}

function matchesComponent(f: XmlElement, obj: DavObject, col: DavCollection, tz: string): boolean {
  const name = f.attrs.name?.toUpperCase();
  const present = name === col.component;
  if (child(f, CALDAV, 'is-not-defined')) return !present;
  if (!present) return false;
  const tr = child(f, CALDAV, 'time-range');
  if (tr && !overlaps(obj, col, range(tr), tz)) return false;
  for (const pf of children(f, CALDAV, 'prop-filter'))
    if (!matchesProp(pf, obj, col.component)) return false;
  // Nested comp-filters (VALARM) are not evaluated: the object is answered (a superset).
  return true;
}

/** The master component's (the first VEVENT or VTODO, never a VTIMEZONE) properties by name. */
function componentProps(ics: string, component: string): Map<string, string[]> {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  const out = new Map<string, string[]>();
  let inside = false;
  let depth = 0;
  for (const l of lines) {
    if (!inside) {
      if (l.toUpperCase() === `BEGIN:${component}`) inside = true;
      continue;
    }
    if (/^BEGIN:/i.test(l)) {
      depth++;
      continue;
    }
    if (/^END:/i.test(l)) {
      if (depth === 0) break;
      depth--;
      continue;
    }
    if (depth !== 0) continue; // an alarm's own properties
    const m = /^([A-Za-z0-9-]+)(?:;[^:]*)?:(.*)$/.exec(l);
    if (!m) continue;
    const k = m[1].toUpperCase();
    out.set(k, [...(out.get(k) ?? []), m[2]]);
  }
  return out;
}

function matchesProp(pf: XmlElement, obj: DavObject, component: string): boolean {
  const values = componentProps(obj.ics, component).get((pf.attrs.name ?? '').toUpperCase());
  if (child(pf, CALDAV, 'is-not-defined')) return values === undefined;
  if (values === undefined) return false;
  const tm = child(pf, CALDAV, 'text-match');
  if (!tm) return true;
  // i;octet compares exactly; the default i;ascii-casemap ignores ASCII case.
  const exact = tm.attrs.collation === 'i;octet';
  const fold = (v: string) => (exact ? v : v.toLowerCase());
  const needle = fold(tm.text);
  const hit = values.some((v) =>
    fold(v.replace(/\\([\\;,])/g, '$1').replace(/\\n/gi, '\n')).includes(needle),
  );
  return tm.attrs['negate-condition'] === 'yes' ? !hit : hit;
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

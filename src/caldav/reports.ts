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
import type { FamilyState } from '../domain/shared/state.js';
import type { DavRequest } from './request.js';
import { createHash } from 'node:crypto';
import { hasScope } from '../family/scopes.js';
import { CalDavError } from './errors.js';
import { expandedIcs } from './expand.js';
import { multistatus, parseToken, syncToken, xmlBody } from './common.js';
import { findCollection, objectsOf, type DavCollection, type DavObject } from './objects.js';
import { overlaps, range, type Range } from './occurrences.js';
import { objectHref, respond, statusResponse, type PropContext } from './props.js';
import { CALDAV, DAV, child, children, d, escapeXml, type QName, type XmlElement } from './xml.js';

/**
 * Answers kept per family until its next write, at most REMEMBERED of them: a map of their own,
 * so clients asking many different questions (ever-new sync tokens) do not push the family's
 * other derived values (listings, the search index) out of the state's shared cache.
 */
const REMEMBERED = 32;
const answers = new WeakMap<FamilyState, { version: number; byQuestion: Map<string, string> }>();

function remembered(state: FamilyState, question: string, answer: () => string): string {
  let kept = answers.get(state);
  if (!kept || kept.version !== state.version) {
    kept = { version: state.version, byQuestion: new Map() };
    answers.set(state, kept);
  }
  const hit = kept.byQuestion.get(question);
  if (hit !== undefined) return hit;
  const fresh = answer();
  if (kept.byQuestion.size >= REMEMBERED)
    kept.byQuestion.delete(kept.byQuestion.keys().next().value!);
  kept.byQuestion.set(question, fresh);
  return fresh;
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
  // Clients ask the same question again and again (Home Assistant polls one window, phones the
  // same ranges): an answer is kept until the family's next write, keyed by the request itself.
  const asked = createHash('sha256').update(req.body).digest('base64url');
  const inner = await req.actor.read((state) =>
    remembered(
      state,
      `${key}:${asked}:${hasScope(req.key, 'write')}:${req.services.now().getUTCFullYear()}`,
      () => {
        const col = findCollection(state, key);
        if (!col) throw new CalDavError(404, `No collection ${key} in this family`);
        const x: PropContext = { req, state, token: syncToken(req, state) };
        switch (kind) {
          case `${CALDAV}|calendar-multiget`:
            return multiget(body, col, x);
          case `${CALDAV}|calendar-query`:
            return query(body, col, x);
          case `${DAV}|sync-collection`:
            return sync(body, col, x);
          default:
            throw new CalDavError(403, `The report ${body.local} is not supported`, {
              ns: DAV,
              local: 'supported-report',
            });
        }
      },
    ),
  );
  multistatus(req, inner);
}

/** The requested properties, with calendar-data's expand range when it asks for one. */
function requested(body: XmlElement): { props: QName[]; expand?: Range } {
  const prop = child(body, DAV, 'prop');
  const props = (prop?.children ?? []).map((c) => ({ ns: c.ns, local: c.local }));
  const data = child(prop, CALDAV, 'calendar-data');
  const expand = child(data, CALDAV, 'expand');
  return { props, ...(expand ? { expand: range(expand) } : {}) };
}

function objectResponse(
  obj: DavObject,
  col: DavCollection,
  props: QName[],
  x: PropContext,
  expand?: Range,
): string {
  if (!expand || col.component !== 'VEVENT') return respond({ type: 'object', col, obj }, props, x);
  const expanded: DavObject = {
    ...obj,
    ics: expandedIcs(x.state, obj.entry as EventRecord, expand),
  };
  return respond({ type: 'object', col, obj: expanded }, props, x);
}

function multiget(body: XmlElement, col: DavCollection, x: PropContext): string {
  const { props, expand } = requested(body);
  const index = objectsOf(x.state, col, x.req.services.now());
  const prefix = objectHref(x.state.family.slug, col.collection.key, '');
  return children(body, DAV, 'href')
    .map((h) => {
      const raw = h.text.trim();
      let path = raw;
      try {
        path = decodeURIComponent(new URL(raw, 'http://x').pathname);
      } catch {
        /* answered 404 below */
      }
      const decodedPrefix = decodeURIComponent(prefix.slice(0, -4));
      const name =
        path.startsWith(decodedPrefix) && path.endsWith('.ics')
          ? path.slice(decodedPrefix.length, -4)
          : undefined;
      const obj = name === undefined ? undefined : index.byName.get(name);
      return obj
        ? objectResponse(obj, col, props, x, expand)
        : statusResponse(raw, '404 Not Found');
    })
    .join('');
}

// ---- calendar-query ------------------------------------------------------------------------

function query(body: XmlElement, col: DavCollection, x: PropContext): string {
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
  const out: string[] = [];
  for (const obj of objectsOf(x.state, col, x.req.services.now()).byName.values()) {
    if (inner.every((f) => matchesComponent(f, obj, col, x.state)))
      out.push(objectResponse(obj, col, props, x, expand));
  }
  return out.join('');
}

function matchesComponent(
  f: XmlElement,
  obj: DavObject,
  col: DavCollection,
  state: FamilyState,
): boolean {
  const name = f.attrs.name?.toUpperCase();
  const present = name === col.component;
  if (child(f, CALDAV, 'is-not-defined')) return !present;
  if (!present) return false;
  const tr = child(f, CALDAV, 'time-range');
  if (tr && !overlaps(obj, col, range(tr), state)) return false;
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

function sync(body: XmlElement, col: DavCollection, x: PropContext): string {
  const tokenText = child(body, DAV, 'sync-token')?.text.trim() ?? '';
  const level = child(body, DAV, 'sync-level')?.text.trim();
  if (level && level !== '1')
    throw new CalDavError(403, 'Only sync-level 1 is supported', {
      ns: DAV,
      local: 'sync-traversal-supported',
    });
  const { props } = requested(body);
  const index = objectsOf(x.state, col, x.req.services.now());
  const all = () =>
    [...index.byName.values()].map((o) => respond({ type: 'object', col, obj: o }, props, x));
  const tokenEl = d('sync-token', escapeXml(x.token));
  if (!tokenText) return all().join('') + tokenEl;
  const parsed = parseToken(tokenText, x.state);
  const last = x.req.actor.lastDurableSeq;
  if (!parsed || parsed.seq > last) {
    throw new CalDavError(
      403,
      'This sync token was not issued for this collection or is no longer valid; sync again without one',
      { ns: DAV, local: 'valid-sync-token' },
    );
  }
  if (!parsed.sameZone) return all().join('') + tokenEl;
  // What changed since the token, from the change log.
  const changed = new Set<string>();
  let after = parsed.seq;
  let wide = false;
  while (after < last && !wide) {
    const page = x.req.services.store.readLog(x.state.family.id, after, 1000);
    if (!page.length) break;
    for (const rec of page) {
      if (RENDER_WIDE.has(rec.type)) wide = true;
      if (
        rec.type === 'collection.updated' &&
        (rec.object as { key?: string }).key === col.collection.key
      )
        wide = true;
      for (const o of [rec.object, rec.previous] as (
        { id?: string; collectionKey?: string; calendarKey?: string } | undefined
      )[]) {
        if (o?.id && (o.collectionKey ?? o.calendarKey) === col.collection.key) changed.add(o.id);
      }
    }
    after = page[page.length - 1].seq;
    if (after - parsed.seq > SYNC_SCAN_MAX) wide = true;
  }
  if (wide) return all().join('') + tokenEl;
  const out: string[] = [];
  const slug = x.state.family.slug;
  for (const id of changed) {
    const obj = index.byId.get(id);
    if (obj) {
      out.push(respond({ type: 'object', col, obj }, props, x));
      continue;
    }
    const tomb = x.state.get<DavTombstone>(DAV_TOMBSTONES, id);
    // The name the client knew it by: its own, or the id of one made through REST.
    const name = tomb && tomb.collectionKey === col.collection.key ? tomb.name : id;
    if (index.byName.has(name)) continue; // the name was taken again since
    out.push(statusResponse(objectHref(slug, col.collection.key, name), '404 Not Found'));
  }
  return out.join('') + tokenEl;
}

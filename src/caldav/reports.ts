/**
 * REPORTs: calendar-multiget and calendar-query (RFC 4791 §7.8–7.9: comp-filter, prop-filter
 * with text-match and is-not-defined, time-range, expand, limit-recurrence-set) and
 * sync-collection (RFC 6578). Time ranges are matched on the occurrences the calendar's own
 * expansion produces (the same code the REST listing and the ICS feed use), so a series with
 * removed and moved occurrences matches exactly where it happens.
 */
import { escapeText, foldLine } from '../domain/calendar/ics.js';
import { isSeries, occurrenceData } from '../domain/calendar/events.js';
import { seriesStarts } from '../domain/calendar/series.js';
import type { EventData, EventRecord } from '../domain/calendar/types.js';
import { DAV_TOMBSTONES, type DavTombstone } from '../domain/collections/tombstones.js';
import type { FamilyState } from '../domain/shared/state.js';
import { addDays, instantToLocal, localToInstant } from '../domain/shared/time.js';
import type { DavRequest } from './request.js';
import { createHash } from 'node:crypto';
import { hasScope } from '../family/scopes.js';
import { CalDavError } from './errors.js';
import { PRODID, objectUid } from './eventOut.js';
import { multistatus, parseToken, syncToken, xmlBody } from './common.js';
import { findCollection, objectsOf, type DavCollection, type DavObject } from './objects.js';
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

interface Range {
  start: number;
  end: number;
  local?: { tz: string; from: string; to: string };
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

/** Parsed ranges by element, so a filter is read once per request, not once per object. */
const parsedRanges = new WeakMap<XmlElement, Range>();

/** A time-range or expand element's start/end (UTC, `YYYYMMDDTHHMMSSZ`); open ends allowed. */
function range(e: XmlElement): Range {
  let r = parsedRanges.get(e);
  if (!r) {
    r = readRange(e);
    parsedRanges.set(e, r);
  }
  return r;
}

function readRange(e: XmlElement): Range {
  const parse = (v: string | undefined, fallback: number) => {
    if (v === undefined) return fallback;
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v.trim());
    if (!m)
      throw new CalDavError(
        400,
        `${e.local} needs UTC times like 20260101T000000Z, not ${v.slice(0, 30)}`,
        { ns: CALDAV, local: 'valid-filter' },
      );
    return Date.UTC(
      Number(m[1]),
      Number(m[2]) - 1,
      Number(m[3]),
      Number(m[4]),
      Number(m[5]),
      Number(m[6]),
    );
  };
  const r = { start: parse(e.attrs.start, -8.64e15), end: parse(e.attrs.end, 8.64e15) };
  if (r.end <= r.start)
    throw new CalDavError(400, `${e.local} must end after it starts`, {
      ns: CALDAV,
      local: 'valid-filter',
    });
  return r;
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

interface Occurrence {
  date: string;
  data: EventData;
  title: string;
  status: string;
  start: number;
  end: number;
}

/**
 * Local wall time → instant, remembered: the same occurrence dates come back in every REPORT,
 * and each fresh conversion asks Intl for two or three zone offsets.
 */
const instants = new Map<string, number>();
function instant(date: string, time: string, tz: string): number {
  const key = `${tz}|${date}|${time}`;
  let ms = instants.get(key);
  if (ms === undefined) {
    if (instants.size >= 200_000) instants.clear();
    ms = localToInstant(date, time, tz).getTime();
    instants.set(key, ms);
  }
  return ms;
}

/** An occurrence's end instant (listing.ts's eventEnd, through the remembered conversion). */
function endOf(d: EventData, tz: string): number {
  const allDay = d.allDay === true || d.time === undefined;
  if (allDay) return instant(addDays(d.endDate ?? d.date, 1), '00:00', tz);
  if (d.endTime !== undefined) return instant(d.endDate ?? d.date, d.endTime, tz);
  if (d.endDate !== undefined && d.endDate > d.date)
    return instant(addDays(d.endDate, 1), '00:00', tz);
  return instant(d.date, d.time!, tz) + (d.durationMinutes ?? 60) * 60_000;
}

/** The local dates a UTC range touches, clamped to the years objects may have (remembered per range). */
function localDates(r: Range, tz: string): { from: string; to: string } {
  if (r.local?.tz === tz) return r.local;
  const clamp = (ms: number) => Math.min(Math.max(ms, Date.UTC(1899, 0, 1)), Date.UTC(2201, 0, 1));
  r.local = {
    tz,
    from: instantToLocal(new Date(clamp(r.start)), tz).date,
    to: instantToLocal(new Date(clamp(r.end)), tz).date,
  };
  return r.local;
}

/**
 * The event's occurrences that overlap `r` (removed ones left out, moved ones where they are),
 * at most `max`. Candidates come from the series' own expansion over the local dates the range
 * touches (a day earlier, for events that run past midnight); only they are converted to
 * instants.
 */
function occurrencesIn(ev: EventRecord, r: Range, tz: string, max = Infinity): Occurrence[] {
  const { from, to } = localDates(r, tz);
  const candidates = new Set<string>();
  for (const date of seriesStarts(ev, { from: addDays(from, -1), to })) {
    candidates.add(date);
    if (candidates.size > 5000) break;
  }
  // Moved occurrences may now fall inside the range from anywhere.
  for (const [date, x] of Object.entries(ev.exceptions ?? {}))
    if (!x.removed && x.data?.date !== undefined) candidates.add(date);
  const out: Occurrence[] = [];
  for (const date of candidates) {
    const x = ev.exceptions?.[date];
    if (x?.removed) continue;
    const data = occurrenceData(ev, date, x);
    if (data.date > to || addDays(data.endDate ?? data.date, 1) < from) continue;
    const allDay = data.allDay === true || data.time === undefined;
    const start = instant(data.date, allDay ? '00:00' : data.time!, tz);
    const end = endOf(data, tz);
    // RFC 4791 §9.9: a zero-length event overlaps when it starts inside the range.
    if (start < r.end && (end > r.start || (end === start && start >= r.start))) {
      out.push({
        date,
        data,
        title: x?.title ?? ev.title,
        status: x?.status ?? ev.status,
        start,
        end,
      });
      if (out.length >= max) break;
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function overlaps(obj: DavObject, col: DavCollection, r: Range, state: FamilyState): boolean {
  const tz = state.family.timezone;
  if (col.component === 'VEVENT')
    return occurrencesIn(obj.entry as EventRecord, r, tz, 1).length > 0;
  // A to-do with a DUE date occupies that day; one without matches every range (RFC 4791 §9.9).
  const due = /\r\nDUE;VALUE=DATE:(\d{4})(\d{2})(\d{2})/.exec(obj.ics);
  if (!due) return true;
  const day = `${due[1]}-${due[2]}-${due[3]}`;
  const start = localToInstant(day, '00:00', tz).getTime();
  return start < r.end && localToInstant(addDays(day, 1), '00:00', tz).getTime() > r.start;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYYMMDDTHHMMSSZ`, by hand: this runs for every occurrence of an expanded answer. */
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/** Folds only what needs it (most lines are short). */
function fold(line: string): string {
  return line.length > 18 && Buffer.byteLength(line) > 75 ? foldLine(line) : line;
}

/** The event as separate occurrences in UTC (calendar-data `expand`), no RRULE or EXDATE. */
export function expandedIcs(state: FamilyState, ev: EventRecord, r: Range): string {
  const tz = state.family.timezone;
  const uid = escapeText(objectUid(state, ev));
  const repeating = isSeries(ev);
  const out = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN'];
  const updated = stamp(Date.parse(ev.updatedAt));
  for (const o of occurrencesIn(ev, r, tz)) {
    const allDay = o.data.allDay === true || o.data.time === undefined;
    out.push('BEGIN:VEVENT', `UID:${uid}`, `DTSTAMP:${updated}`);
    if (repeating) {
      out.push(
        allDay || !ev.data.time
          ? `RECURRENCE-ID;VALUE=DATE:${o.date.replaceAll('-', '')}`
          : `RECURRENCE-ID:${stamp(instant(o.date, ev.data.time, tz))}`,
      );
    }
    if (allDay) {
      out.push(
        `DTSTART;VALUE=DATE:${o.data.date.replaceAll('-', '')}`,
        `DTEND;VALUE=DATE:${addDays(o.data.endDate ?? o.data.date, 1).replaceAll('-', '')}`,
      );
    } else out.push(`DTSTART:${stamp(o.start)}`, `DTEND:${stamp(o.end)}`);
    out.push(`SUMMARY:${escapeText(o.title)}`);
    const note = o.data.note ?? o.data.description;
    if (typeof note === 'string' && note) out.push(`DESCRIPTION:${escapeText(note)}`);
    if (o.data.where) out.push(`LOCATION:${escapeText(o.data.where)}`);
    out.push(`STATUS:${o.status === 'archived' ? 'CANCELLED' : 'CONFIRMED'}`, 'END:VEVENT');
  }
  out.push('END:VCALENDAR');
  return out.map(fold).join('\r\n') + '\r\n';
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

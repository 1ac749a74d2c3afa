/**
 * calendar-query filters (RFC 4791 §9.7) evaluated on the object as it is served: comp-filters
 * at any depth (VEVENT, VTODO, and VALARM inside them), prop-filters with is-not-defined,
 * time-range or text-match, and param-filters. A comp-filter matches when some component of its
 * name matches all it holds (its time range, every prop-filter, every nested comp-filter), or,
 * with is-not-defined, when there is none. A prop-filter matches when some property of its name
 * matches (the same for a param-filter's parameter).
 *
 * text-match (§9.7.5) is a substring match, `i;ascii-casemap` (ASCII letters folded, nothing
 * else) unless the element names `i;octet` (exact) or `i;unicode-casemap` (RFC 5051, read as
 * lower case after compatibility decomposition); `negate-condition="yes"` inverts it; the
 * `match-type` some servers take (equals, starts-with, ends-with; contains by default) is
 * honoured too. Another collation is refused with `CALDAV:supported-collation`.
 *
 * Time ranges (§9.9): an event's by its occurrences as the calendar expands them (a series with
 * moved and removed occurrences matches where they are, occurrences.ts), a to-do's by the VTODO
 * table (todoTimes.ts), an alarm's by its triggers — relative ones at every occurrence of the
 * component they belong to, repeats included — and a property's by its value.
 */
import type { EventRecord } from '../domain/calendar/types.js';
import { CalDavError } from './errors.js';
import { durationSeconds } from './icalRead.js';
import { instantsOf, zonesOf } from './icalTimes.js';
import {
  firstProp,
  param,
  parseTree,
  unescapeValue,
  type IcalComp,
  type IcalProp,
} from './icalTree.js';
import type { DavCollection, DavObject } from './objects.js';
import { occurrencesOf, overlaps, range, type Range } from './occurrences.js';
import { todoInstances, todoOverlaps } from './todoTimes.js';
import { CALDAV, child, children, type XmlElement } from './xml.js';

/** What a filter is evaluated against: one object of a collection, in the family's zone. */
export interface FilterTarget {
  obj: DavObject;
  col: DavCollection;
  tz: string;
  now: Date;
}

const COLLATIONS = new Set(['i;ascii-casemap', 'i;octet', 'i;unicode-casemap']);

const invalid = (message: string) =>
  new CalDavError(400, message, { ns: CALDAV, local: 'valid-filter' });

/**
 * The filter's top comp-filter (VCALENDAR), after checking the whole filter once — names,
 * ranges and collations — so a bad filter is refused on an empty calendar too.
 */
export function checkFilter(filter: XmlElement | undefined): XmlElement {
  const top = child(filter, CALDAV, 'comp-filter');
  if (!top || top.attrs.name?.toUpperCase() !== 'VCALENDAR')
    throw invalid('calendar-query needs a filter with a VCALENDAR comp-filter');
  const walk = (e: XmlElement) => {
    if (e.ns === CALDAV) {
      if (['comp-filter', 'prop-filter', 'param-filter'].includes(e.local) && !e.attrs.name)
        throw invalid(`A ${e.local} needs a name`);
      if (e.local === 'time-range') range(e);
      if (e.local === 'text-match') {
        const collation = e.attrs.collation ?? 'i;ascii-casemap';
        if (!COLLATIONS.has(collation))
          throw new CalDavError(
            403,
            `The collation ${collation.slice(0, 40)} is not supported; use i;ascii-casemap, i;octet or i;unicode-casemap`,
            { ns: CALDAV, local: 'supported-collation' },
          );
      }
    }
    e.children.forEach(walk);
  };
  walk(top);
  return top;
}

/**
 * Trees by record, kept across writes: a write renders and re-indexes only what changed, and an
 * unchanged object keeps its text (the same string), so it is not read again.
 */
const trees = new WeakMap<object, { ics: string; tree: IcalComp }>();

/** The object's served text as a tree, read once per rendering. */
export function treeOf(obj: DavObject): IcalComp {
  const hit = trees.get(obj.entry);
  if (hit && hit.ics === obj.ics) return hit.tree;
  const tree = parseTree(obj.ics);
  trees.set(obj.entry, { ics: obj.ics, tree });
  return tree;
}

/** Whether the object matches the filter's top (VCALENDAR) comp-filter. */
export function matchesFilter(top: XmlElement, t: FilterTarget): boolean {
  const simple = simpleKind(top);
  if (simple === undefined) return compFilter(top, treeOf(t.obj), t);
  // What calendar apps ask all day: the collection's kind, perhaps in a time range. Every object
  // of a calendar holds VEVENTs (of a list, VTODOs), so the text need not be read for it.
  if (simple.name !== t.col.component) return false;
  if (!simple.range) return true;
  return t.col.component === 'VEVENT'
    ? overlaps(t.obj.entry as EventRecord, simple.range, t.tz)
    : todoOverlaps(treeOf(t.obj), t.tz, t.now, simple.range);
}

/**
 * The one VEVENT or VTODO comp-filter of a VCALENDAR filter that asks nothing but an optional
 * time range (no is-not-defined, prop-filters or nested comp-filters), or undefined.
 */
function simpleKind(top: XmlElement): { name: string; range?: Range } | undefined {
  if (top.children.length !== 1) return undefined;
  const f = top.children[0];
  const name = f.attrs.name?.toUpperCase();
  if (f.ns !== CALDAV || f.local !== 'comp-filter' || (name !== 'VEVENT' && name !== 'VTODO'))
    return undefined;
  if (f.children.some((c) => c.ns !== CALDAV || c.local !== 'time-range')) return undefined;
  const tr = child(f, CALDAV, 'time-range');
  return { name, ...(tr ? { range: range(tr) } : {}) };
}

function compFilter(f: XmlElement, parent: IcalComp, t: FilterTarget): boolean {
  const name = f.attrs.name.toUpperCase();
  const candidates = parent.comps.filter((c) => c.name === name);
  if (child(f, CALDAV, 'is-not-defined')) return candidates.length === 0;
  return candidates.some((c) => componentMatches(f, c, parent, t));
}

function componentMatches(f: XmlElement, c: IcalComp, parent: IcalComp, t: FilterTarget): boolean {
  const tr = child(f, CALDAV, 'time-range');
  if (tr && !componentInRange(c, parent, t, range(tr))) return false;
  const anyOf = f.attrs.test === 'anyof';
  const tests = [
    ...children(f, CALDAV, 'prop-filter').map((pf) => () => propFilter(pf, c, t)),
    ...children(f, CALDAV, 'comp-filter').map((cf) => () => compFilter(cf, c, t)),
  ];
  if (!tests.length) return true;
  return anyOf ? tests.some((x) => x()) : tests.every((x) => x());
}

function componentInRange(c: IcalComp, parent: IcalComp, t: FilterTarget, r: Range): boolean {
  switch (c.name) {
    case 'VEVENT':
      return t.col.component === 'VEVENT' && overlaps(t.obj.entry as EventRecord, r, t.tz);
    case 'VTODO':
      return todoOverlaps(treeOf(t.obj), t.tz, t.now, r);
    case 'VALARM':
      return alarmInRange(c, parent, t, r);
    default:
      // No time range is defined for other components (VTIMEZONE and its parts): they match.
      return true;
  }
}

// ---- alarms ---------------------------------------------------------------------------------

/** Repeats of one alarm at most (REPEAT), so a hostile count costs nothing. */
const MAX_REPEAT = 100;

/** Whether one of the alarm's triggers falls in `r` (RFC 4791 §9.9, VALARM). */
function alarmInRange(alarm: IcalComp, parent: IcalComp, t: FilterTarget, r: Range): boolean {
  const trigger = firstProp(alarm, 'TRIGGER');
  if (!trigger) return false;
  const repeat = Math.min(MAX_REPEAT, Math.max(0, Number(firstProp(alarm, 'REPEAT')?.value) || 0));
  const every = (durationSeconds(firstProp(alarm, 'DURATION')?.value) ?? 0) * 1000;
  const steps = Array.from({ length: repeat + 1 }, (_, k) => k * every);
  const within = (ms: number) => ms >= r.start && ms < r.end;
  if (param(trigger, 'VALUE')?.toUpperCase() === 'DATE-TIME') {
    const at = instantsOf(trigger, t.tz, zonesOf(treeOf(t.obj), t.now))[0]?.ms;
    return at !== undefined && steps.some((s) => within(at + s));
  }
  const offset = durationSeconds(trigger.value);
  if (offset === null) return false;
  const fromEnd = param(trigger, 'RELATED')?.toUpperCase() === 'END';
  return steps.some((s) => {
    const off = offset * 1000 + s;
    // The instances whose anchor (start, or end/due) lies in the range moved back by the offset.
    const shifted: Range = { start: r.start - off, end: r.end - off };
    for (const a of anchors(parent, t, shifted, fromEnd)) if (within(a + off)) return true;
    return false;
  });
}

/** Starts (or ends) of the instances of the component an alarm belongs to that overlap `r`. */
function* anchors(
  parent: IcalComp,
  t: FilterTarget,
  r: Range,
  fromEnd: boolean,
): Generator<number> {
  const zone = zonesOf(treeOf(t.obj), t.now);
  const own = (name: string) => instantsOf(firstProp(parent, name) ?? NONE, t.tz, zone)[0]?.ms;
  if (parent.name === 'VEVENT' && t.col.component === 'VEVENT') {
    if (!firstProp(parent, 'RECURRENCE-ID')) {
      for (const o of occurrencesOf(t.obj.entry as EventRecord, r, t.tz))
        yield fromEnd ? o.end : o.start;
      return;
    }
    const start = own('DTSTART');
    const end = own('DTEND') ?? start;
    const a = fromEnd ? end : start;
    if (a !== undefined) yield a;
    return;
  }
  if (parent.name === 'VTODO') {
    for (const i of todoInstances(treeOf(t.obj), t.tz, t.now, r)) {
      const a = fromEnd
        ? (i.due ?? (i.start !== undefined ? i.start + (i.durationMs ?? 0) : undefined))
        : (i.start ?? i.due);
      if (a !== undefined) yield a;
    }
  }
}

const NONE: IcalProp = { name: '', params: new Map(), value: '', line: '' };

// ---- properties and parameters --------------------------------------------------------------

function propFilter(pf: XmlElement, c: IcalComp, t: FilterTarget): boolean {
  const name = pf.attrs.name.toUpperCase();
  const found = c.props.filter((p) => p.name === name);
  if (child(pf, CALDAV, 'is-not-defined')) return found.length === 0;
  const tr = child(pf, CALDAV, 'time-range');
  const tm = child(pf, CALDAV, 'text-match');
  const params = children(pf, CALDAV, 'param-filter');
  const zone = zonesOf(treeOf(t.obj), t.now);
  return found.some((p) => {
    if (tr) {
      const r = range(tr);
      if (!instantsOf(p, t.tz, zone).some((i) => i.ms >= r.start && i.ms < r.end)) return false;
    }
    if (tm && !textMatches(tm, unescapeValue(p.value))) return false;
    return params.every((f) => paramFilter(f, p));
  });
}

function paramFilter(f: XmlElement, p: IcalProp): boolean {
  const values = p.params.get(f.attrs.name.toUpperCase());
  if (child(f, CALDAV, 'is-not-defined')) return values === undefined;
  if (values === undefined) return false;
  const tm = child(f, CALDAV, 'text-match');
  return !tm || values.some((v) => textMatches(tm, v));
}

/** ASCII letters to lower case, nothing else (i;ascii-casemap, RFC 4790 §9.2). */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

const FOLD: Record<string, (s: string) => string> = {
  'i;octet': (s) => s,
  'i;ascii-casemap': asciiLower,
  'i;unicode-casemap': (s) => s.normalize('NFKD').toLowerCase(),
};

/** A text-match (RFC 4791 §9.7.5) against one value. */
export function textMatches(tm: XmlElement, value: string): boolean {
  const fold = FOLD[tm.attrs.collation ?? 'i;ascii-casemap'] ?? asciiLower;
  const needle = fold(tm.text);
  const v = fold(value);
  let hit: boolean;
  switch (tm.attrs['match-type']) {
    case 'equals':
      hit = v === needle;
      break;
    case 'starts-with':
      hit = v.startsWith(needle);
      break;
    case 'ends-with':
      hit = v.endsWith(needle);
      break;
    default:
      hit = v.includes(needle);
  }
  return tm.attrs['negate-condition'] === 'yes' ? !hit : hit;
}

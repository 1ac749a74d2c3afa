/**
 * What of an object a `calendar-data` element asks for (RFC 4791 §9.6): the components and
 * properties it names (`comp`, `prop` with `novalue`, `allprop`, `allcomp`), and with
 * `limit-recurrence-set` only the changed occurrences of a series that overlap its range beside
 * the series itself. `expand` is written by expand.ts and todoExpand.ts; `limit-freebusy-set`
 * concerns VFREEBUSY components, which no collection here holds.
 */
import { CalDavError } from './errors.js';
import { instantsOf, dayEnd, zonesOf } from './icalTimes.js';
import { durationSeconds } from './icalRead.js';
import { componentLines, firstProp, param, parseTree, type IcalComp } from './icalTree.js';
import { foldLine } from '../domain/calendar/ics.js';
import { range, type Range } from './occurrences.js';
import { CALDAV, child, children, type XmlElement } from './xml.js';

/** What one calendar-data element asks beyond the whole object. */
export interface DataRequest {
  /** The top `comp` (VCALENDAR) of a selection. */
  comp?: XmlElement;
  expand?: Range;
  limitRecurrence?: Range;
}

/** Reads (and checks) a calendar-data element; undefined when it asks for the object as it is. */
export function dataRequest(data: XmlElement | undefined): DataRequest | undefined {
  if (!data) return undefined;
  const comp = child(data, CALDAV, 'comp');
  if (comp && comp.attrs.name?.toUpperCase() !== 'VCALENDAR')
    throw new CalDavError(400, 'calendar-data selects from a VCALENDAR comp element', {
      ns: CALDAV,
      local: 'valid-calendar-data',
    });
  if (comp) checkComp(comp);
  const expand = child(data, CALDAV, 'expand');
  const limit = child(data, CALDAV, 'limit-recurrence-set');
  const out: DataRequest = {
    ...(comp ? { comp } : {}),
    ...(expand ? { expand: range(expand) } : {}),
    ...(limit && !expand ? { limitRecurrence: range(limit) } : {}),
  };
  return Object.keys(out).length ? out : undefined;
}

function checkComp(c: XmlElement): void {
  for (const x of [...children(c, CALDAV, 'comp'), ...children(c, CALDAV, 'prop')]) {
    if (!x.attrs.name)
      throw new CalDavError(400, `calendar-data: a ${x.local} element needs a name`, {
        ns: CALDAV,
        local: 'valid-calendar-data',
      });
    if (x.local === 'comp') checkComp(x);
  }
}

/** The text with only what the request selects (its VCALENDAR `comp`), folded, CRLF. */
export function selectParts(ics: string, comp: XmlElement): string {
  const cal = parseTree(ics).comps.find((c) => c.name === 'VCALENDAR');
  if (!cal) return ics;
  return selected(cal, comp).map(foldLine).join('\r\n') + '\r\n';
}

function selected(c: IcalComp, spec: XmlElement): string[] {
  const lines = [`BEGIN:${c.name}`];
  if (child(spec, CALDAV, 'allprop')) lines.push(...c.props.map((p) => p.line));
  else {
    const wanted = new Map(
      children(spec, CALDAV, 'prop').map((p) => [
        p.attrs.name.toUpperCase(),
        p.attrs.novalue === 'yes',
      ]),
    );
    for (const p of c.props) {
      const novalue = wanted.get(p.name);
      if (novalue === undefined) continue;
      // Without its value: the name and parameters as written, then the colon.
      lines.push(novalue ? p.line.slice(0, p.line.length - p.value.length) : p.line);
    }
  }
  if (child(spec, CALDAV, 'allcomp')) lines.push(...c.comps.flatMap(componentLines));
  else {
    const specs = children(spec, CALDAV, 'comp');
    for (const sub of c.comps) {
      const s = specs.find((x) => x.attrs.name.toUpperCase() === sub.name);
      if (s) lines.push(...selected(sub, s));
    }
  }
  lines.push(`END:${c.name}`);
  return lines;
}

/**
 * The text without the changed occurrences (RECURRENCE-ID) that neither overlap `r` nor, with
 * RANGE=THISANDFUTURE, start before its end (RFC 4791 §9.6.6); the series itself always stays.
 */
export function limitRecurrenceSet(ics: string, r: Range, tz: string, now: Date): string {
  const root = parseTree(ics);
  const cal = root.comps.find((c) => c.name === 'VCALENDAR');
  if (!cal) return ics;
  const zone = zonesOf(root, now);
  const at = (c: IcalComp, name: string) => {
    const p = firstProp(c, name);
    return p ? { p, ms: instantsOf(p, tz, zone)[0]?.ms } : undefined;
  };
  const keep = (c: IcalComp): boolean => {
    const id = at(c, 'RECURRENCE-ID');
    if (!id) return true;
    if (param(id.p, 'RANGE')?.toUpperCase() === 'THISANDFUTURE' && id.ms !== undefined)
      return id.ms < r.end;
    const start = at(c, 'DTSTART') ?? id;
    if (start.ms === undefined) return true;
    const endProp = at(c, 'DTEND') ?? at(c, 'DUE');
    const seconds = durationSeconds(firstProp(c, 'DURATION')?.value);
    const end =
      endProp?.ms ??
      (seconds !== null ? start.ms + seconds * 1000 : (dayEnd(start.p.value, tz) ?? start.ms));
    return start.ms < r.end && (end > r.start || (end === start.ms && start.ms >= r.start));
  };
  const kept: IcalComp = { ...cal, comps: cal.comps.filter(keep) };
  return componentLines(kept).map(foldLine).join('\r\n') + '\r\n';
}

/**
 * Reading one CalDAV object (a VCALENDAR with the components of one UID) with ical.js, which
 * does the lexing (folding, escaping, parameters) into jCal. What the object may hold is
 * checked here, before any mapping: exactly one kind of component (VEVENT or VTODO), one UID,
 * at most one master and overrides keyed by RECURRENCE-ID. Times are turned into dates and times
 * of the event's zone by `localOf`, TZIDs resolved as feeds resolve them (IANA names, vendor
 * paths, Windows names, or a VTIMEZONE matched by its offsets).
 */
import ICAL from 'ical.js';
import { ZoneLimitError, namedZone, zoneResolver } from '../integrations/icsZones.js';
import {
  instantToLocal,
  localToInstant,
  parseCalendarDate,
  addDays,
} from '../domain/shared/time.js';
import { badCalendarData, unsupportedObject } from './errors.js';
import { checkIcsShape } from './icalShape.js';
import { unfold } from './icalTree.js';

export type Props = ICAL.JCalProperty[];
export type Component = ICAL.JCalComponent;

export interface CalObject {
  kind: 'vevent' | 'vtodo';
  uid: string;
  /** The component without RECURRENCE-ID (absent when a client sends only overrides). */
  master?: Component;
  overrides: Component[];
  /** The object's VTIMEZONE components, as sent. */
  zones: Component[];
  /** TZID → IANA zone, or null when the name is unknown. */
  zone: (tzid: string) => string | null;
}

/** Parses the body; throws a CalDavError (400 valid-calendar-data, 403 for what we do not hold). */
export function readObject(body: string, now: Date): CalObject {
  const source = body.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(source))
    throw badCalendarData(
      'The body is not an iCalendar object (it must start with BEGIN:VCALENDAR)',
    );
  // Counted before ical.js reads it: its cost grows with lines and parameters, not bytes.
  checkIcsShape(source);
  let parsed: ICAL.JCalComponent | ICAL.JCalComponent[];
  try {
    parsed = ICAL.parse(source);
  } catch (e) {
    throw badCalendarData(
      `The body could not be read as iCalendar: ${String((e as Error).message).slice(0, 200)}`,
    );
  }
  const cals = Array.isArray(parsed[0])
    ? (parsed as ICAL.JCalComponent[])
    : [parsed as ICAL.JCalComponent];
  if (cals.length !== 1 || cals[0][0] !== 'vcalendar')
    throw badCalendarData('The body must hold exactly one VCALENDAR');
  const cal = cals[0];
  const comps = cal[2].filter((c) => c[0] !== 'vtimezone');
  const kinds = new Set(comps.map((c) => c[0]));
  if (comps.length === 0) throw badCalendarData('The VCALENDAR holds no VEVENT or VTODO');
  if (kinds.size > 1)
    throw badCalendarData(
      `The VCALENDAR mixes ${[...kinds].map((k) => k.toUpperCase()).join(' and ')}: one object holds one kind of component`,
    );
  const kind = comps[0][0];
  if (kind !== 'vevent' && kind !== 'vtodo')
    throw unsupportedObject(
      `${kind.toUpperCase()} components are not stored here (only VEVENT and VTODO)`,
    );
  const uids = new Set(comps.map((c) => text(prop(c[1], 'uid'))));
  if (uids.has(null) || uids.has(''))
    throw badCalendarData(`Every ${kind.toUpperCase()} needs a UID`);
  if (uids.size > 1)
    throw badCalendarData(
      `The components have different UIDs (${[...uids].slice(0, 3).join(', ')}): one object holds one UID`,
    );
  const masters = comps.filter((c) => !prop(c[1], 'recurrence-id'));
  if (masters.length > 1)
    throw badCalendarData(
      `The object holds ${masters.length} ${kind.toUpperCase()}s without RECURRENCE-ID; only one may be the series`,
    );
  const overrides = comps.filter((c) => prop(c[1], 'recurrence-id'));
  const vtimezones = new Map<string, ICAL.JCalComponent>();
  for (const tz of cal[2].filter((x) => x[0] === 'vtimezone')) {
    const id = text(prop(tz[1], 'tzid'));
    if (id) vtimezones.set(id, tz);
  }
  return {
    kind,
    uid: [...uids][0]!,
    ...(masters[0] ? { master: masters[0] } : {}),
    overrides,
    zones: cal[2].filter((x) => x[0] === 'vtimezone'),
    zone: zoneResolver(vtimezones, now, true),
  };
}

export function prop(props: Props, name: string): ICAL.JCalProperty | undefined {
  return props.find((p) => p[0] === name);
}

export function props(propsList: Props, name: string): ICAL.JCalProperty[] {
  return propsList.filter((p) => p[0] === name);
}

/** A property's first value as text; unknown-typed (X-) values are unescaped here. */
export function text(p: ICAL.JCalProperty | undefined): string | null {
  if (!p) return null;
  const v = p[3];
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  return p[2] === 'unknown' ? unescapeText(v) : v;
}

export function unescapeText(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** A value in the family's zone: a date, or a date and `HH:mm`. */
export interface Local {
  date: string;
  time?: string;
}

/** One DATE or DATE-TIME value as written: its zone is `tz` (IANA), `utc`, or floating. */
export interface Written {
  date: string;
  time?: string;
  seconds?: number;
  utc: boolean;
  tz: string | null;
  floating: boolean;
}

/** The years a CalDAV date may fall in. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;

const VALUE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z)?)?$/;

/** The values of a DATE/DATE-TIME property (EXDATE may hold several). */
export function written(p: ICAL.JCalProperty, obj: CalObject): Written[] {
  const tzidRaw = p[1].tzid;
  const tzid =
    typeof tzidRaw === 'string' ? tzidRaw : Array.isArray(tzidRaw) ? String(tzidRaw[0]) : undefined;
  let tz: string | null = null;
  if (tzid !== undefined) {
    tz = zoneOfTzid(obj, tzid);
    if (!tz)
      throw badCalendarData(
        `${p[0].toUpperCase()} names the time zone ${JSON.stringify(tzid.slice(0, 80))}, which is not a zone this server knows (send an IANA name or its VTIMEZONE)`,
      );
  }
  return p.slice(3).map((v) => {
    const s: unknown = Array.isArray(v) ? (v as unknown[])[0] : v;
    const m = typeof s === 'string' ? VALUE_RE.exec(s) : null;
    const date = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
    if (!m || !parseCalendarDate(date))
      throw badCalendarData(
        `${p[0].toUpperCase()} has a value that is not a date or date-time: ${JSON.stringify(String(s).slice(0, 40))}`,
      );
    // Zone rules are written for every year an object spans; centuries of them cost seconds.
    const year = Number(m[1]);
    if (year < MIN_YEAR || year > MAX_YEAR)
      throw unsupportedObject(
        `${p[0].toUpperCase()} is in the year ${year}; dates from ${MIN_YEAR} to ${MAX_YEAR} are held`,
      );
    if (m[4] === undefined || p[2] === 'date')
      return { date, utc: false, tz: null, floating: false };
    const h = Number(m[4]);
    const min = Number(m[5]);
    const sec = Number(m[6]);
    if (h > 23 || min > 59 || sec > 60)
      throw badCalendarData(`${p[0].toUpperCase()} has a time out of range: ${String(s)}`);
    const utc = m[7] === 'Z';
    return {
      date,
      time: `${m[4]}:${m[5]}`,
      seconds: sec,
      utc,
      tz: utc ? 'UTC' : tz,
      floating: !utc && tz === null,
    };
  });
}

/** The IANA zone a TZID of the object means (null: none); a VTIMEZONE past a limit is a 403. */
export function zoneOfTzid(obj: CalObject, tzid: string): string | null {
  try {
    return obj.zone(tzid);
  } catch (e) {
    // A VTIMEZONE beyond what is read (vtimezoneRules.ts): refused, naming the limit.
    if (e instanceof ZoneLimitError) throw unsupportedObject(e.message);
    throw e;
  }
}

/**
 * A kept VTIMEZONE as it is stored: when its TZID names no zone by itself but its rules match
 * one, with that zone's name in X-LIC-LOCATION (as Thunderbird writes it), so reading the object
 * later (a REPORT's time range, after any restart) finds the zone by name and never matches the
 * rules again. Resolved here, on the write, in strict mode: past a limit the PUT is refused.
 */
export function locatedZone(tz: Component, obj: CalObject): Component {
  const tzid = text(prop(tz[1], 'tzid'));
  if (!tzid || namedZone(tzid) || prop(tz[1], 'x-lic-location')) return tz;
  const z = zoneOfTzid(obj, tzid);
  return z ? [tz[0], [...tz[1], ['x-lic-location', {}, 'unknown', z]], tz[2]] : tz;
}

/**
 * The written value on the clock of zone `tz` (the event's zone; a floating time is read as
 * that clock's, a value in another zone is converted at its instant).
 */
export function localOf(w: Written, tz: string): Local {
  if (w.time === undefined) return { date: w.date };
  if (w.floating || w.tz === tz) return { date: w.date, time: w.time };
  return instantToLocal(localToInstant(w.date, w.time, w.tz!), tz);
}

/** The instant of a written date-time (a floating one read in zone `tz`). */
export function instantOf(w: Written, tz: string): Date {
  return localToInstant(w.date, w.time ?? '00:00', w.floating || !w.tz ? tz : w.tz);
}

/** Minutes of a DURATION value (may be negative); null when it is not one. */
export function durationSeconds(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  try {
    return ICAL.Duration.fromString(v).toSeconds();
  } catch {
    return null;
  }
}

/** The raw content lines of a property or component, unfolded, as they came. */
export function rawLines(
  x: ICAL.JCalProperty | ICAL.JCalComponent,
  isComponent: boolean,
): string[] {
  const s = isComponent
    ? new ICAL.Component(x as ICAL.JCalComponent).toString()
    : new ICAL.Property(x as ICAL.JCalProperty).toICALString();
  return unfold(s);
}

export { addDays };

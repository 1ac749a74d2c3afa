/**
 * Instants of the DATE and DATE-TIME properties of a served object, for time-range filters on
 * to-dos, alarms and properties (RFC 4791 §9.9). A date is the start of that day, and a floating
 * time is read, on the family's clock; a TZID is resolved as feeds resolve it (IANA names, vendor
 * paths, Windows names, or the object's own VTIMEZONE matched by its offsets); an unknown one is
 * read as floating.
 */
import ICAL from 'ical.js';
import { zoneResolver } from '../integrations/icsZones.js';
import { addDays, localInstantMs } from '../domain/shared/time.js';
import { componentLines, param, type IcalComp, type IcalProp } from './icalTree.js';

/** TZID → IANA zone of one object, from its VTIMEZONEs (read by ical.js only when needed). */
export type ZoneOf = (tzid: string) => string | null;

const resolvers = new WeakMap<IcalComp, ZoneOf>();

/** The resolver of a parsed object (its root), kept with it. */
export function zonesOf(root: IcalComp, now: Date): ZoneOf {
  let r = resolvers.get(root);
  if (!r) {
    let inner: ZoneOf | null = null;
    r = (tzid) => {
      if (!inner) {
        const map = new Map<string, ICAL.JCalComponent>();
        for (const cal of root.comps)
          for (const tz of cal.comps.filter((c) => c.name === 'VTIMEZONE')) {
            const id = tz.props.find((p) => p.name === 'TZID')?.value;
            if (!id) continue;
            try {
              map.set(id, ICAL.parse(componentLines(tz).join('\r\n')) as ICAL.JCalComponent);
            } catch {
              /* an unreadable VTIMEZONE names no zone */
            }
          }
        inner = zoneResolver(map, now);
      }
      return inner(tzid);
    };
    resolvers.set(root, r);
  }
  return r;
}

const VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;

export interface Instant {
  ms: number;
  /** A DATE value (a whole day). */
  date: boolean;
}

/** One DATE or DATE-TIME value in a zone (`tz` for floating ones), or null when it is not one. */
export function instantOfValue(v: string, tz: string, tzid?: string | null): Instant | null {
  const m = VALUE.exec(v.trim());
  if (!m) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  if (m[4] === undefined) return { ms: localInstantMs(day, '00:00', tz), date: true };
  const seconds = Number(m[6]) * 1000;
  if (m[7]) return { ms: Date.parse(`${day}T${m[4]}:${m[5]}:00Z`) + seconds, date: false };
  return { ms: localInstantMs(day, `${m[4]}:${m[5]}`, tzid ?? tz) + seconds, date: false };
}

/** The values of a DATE/DATE-TIME property (EXDATE and RDATE may list several). */
export function instantsOf(p: IcalProp, tz: string, zone: ZoneOf): Instant[] {
  const tzid = param(p, 'TZID');
  const z = tzid ? zone(tzid) : null;
  const out: Instant[] = [];
  for (const v of p.value.split(',')) {
    const i = instantOfValue(v, tz, z);
    if (i) out.push(i);
  }
  return out;
}

/** The end of a DATE value's day (the next day's start on the same clock). */
export function dayEnd(v: string, tz: string): number | null {
  const m = VALUE.exec(v.trim());
  if (!m || m[4] !== undefined) return null;
  return localInstantMs(addDays(`${m[1]}-${m[2]}-${m[3]}`, 1), '00:00', tz);
}

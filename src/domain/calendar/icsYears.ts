/**
 * The years and zones an iCalendar body writes values in, for the VTIMEZONEs ics.ts generates:
 * the family's zone's years in use, and the other zones of own-zone series with theirs.
 */
import { isUtcZone } from '../shared/time.js';
import { isAllDay, type IcsEvent, type IcsOwnSeries } from './icsTypes.js';

export function yearsInUse(
  events: IcsEvent[],
  familyTz: string,
): { first: number; last: number } | null {
  let first = Infinity;
  let last = -Infinity;
  const see = (d: string | undefined) => {
    if (!d) return;
    const y = Number(d.slice(0, 4));
    first = Math.min(first, y);
    last = Math.max(last, y);
  };
  for (const ev of events) {
    if (ev.own) {
      // Its changed occurrences are written in the family's zone; the rest too when that is its
      // zone.
      for (const o of ev.overrides ?? [])
        if (!isAllDay({ ...ev, ...o })) {
          see(o.date);
          see(o.endDate);
        }
      if (ev.own.tz === familyTz) for (const y of ownYears(ev.own)) see(`${y}-01-01`);
      continue;
    }
    const timed = !isAllDay(ev) || (ev.overrides ?? []).some((o) => !isAllDay({ ...ev, ...o }));
    if (!timed) continue;
    see(ev.date);
    see(ev.endDate);
    const until = /UNTIL=(\d{4})/.exec(ev.rrule ?? '');
    if (until) see(`${until[1]}-01-01`);
    for (const o of ev.overrides ?? []) {
      see(o.recurrenceDate);
      see(o.date);
      see(o.endDate);
    }
  }
  return first === Infinity ? null : { first, last };
}

/** First and last year an own-zone series writes values in. */
function ownYears(own: IcsOwnSeries): [number, number] {
  const first = Number(own.start.slice(0, 4));
  const until = /UNTIL=(\d{4})/.exec(own.rrule ?? '');
  return [
    first,
    Math.max(
      first,
      until ? Number(until[1]) : first,
      ...own.rdates.map((d) => Number(d.slice(0, 4))),
    ),
  ];
}

/** Zones of own-zone series other than the family's (written with it), with the years they use. */
export function ownZones(
  events: IcsEvent[],
  familyTz: string,
): Map<string, { first: number; last: number }> {
  const out = new Map<string, { first: number; last: number }>();
  for (const ev of events) {
    const tz = ev.own?.tz;
    if (!tz || tz === familyTz || isUtcZone(tz)) continue;
    const [first, last] = ownYears(ev.own!);
    const had = out.get(tz);
    out.set(
      tz,
      had ? { first: Math.min(had.first, first), last: Math.max(had.last, last) } : { first, last },
    );
  }
  return out;
}

/**
 * The zones an iCalendar body writes values in, each with the years it writes them in, for the
 * VTIMEZONEs ics.ts generates: every event's own zone (`timeZone`, else the calendar's) for its
 * timed values, and the zone of an external feed's own-zone series.
 */
import { isAllDay, type IcsEvent, type IcsOwnSeries } from './icsTypes.js';

export interface Years {
  first: number;
  last: number;
}

/** Zones in use → their first and last year, in the order first seen. */
export function zonesInUse(events: IcsEvent[], calendarTz: string): Map<string, Years> {
  const out = new Map<string, Years>();
  const see = (tz: string, d: string | undefined) => {
    if (!d) return;
    const y = Number(d.slice(0, 4));
    const had = out.get(tz);
    out.set(
      tz,
      had ? { first: Math.min(had.first, y), last: Math.max(had.last, y) } : { first: y, last: y },
    );
  };
  for (const ev of events) {
    const tz = ev.timeZone ?? calendarTz;
    if (ev.own) {
      // Its changed occurrences are written in the event's zone, the series in its own.
      for (const o of ev.overrides ?? [])
        if (!isAllDay({ ...ev, ...o })) {
          see(tz, o.date);
          see(tz, o.endDate);
        }
      if (ev.own.tz) for (const y of ownYears(ev.own)) see(ev.own.tz, `${y}-01-01`);
      continue;
    }
    const timed = !isAllDay(ev) || (ev.overrides ?? []).some((o) => !isAllDay({ ...ev, ...o }));
    if (!timed) continue;
    see(tz, ev.date);
    see(tz, ev.endDate);
    const until = /UNTIL=(\d{4})/.exec(ev.rrule ?? '');
    if (until) see(tz, `${until[1]}-01-01`);
    for (const o of ev.overrides ?? []) {
      see(tz, o.recurrenceDate);
      see(tz, o.date);
      see(tz, o.endDate);
    }
  }
  return out;
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

/**
 * The free-busy-query REPORT (RFC 4791 §7.10), which Thunderbird and Outlook ask when they
 * schedule: the busy periods of a calendar's events in a time range — or of every calendar's when
 * asked of the calendar home — as one VFREEBUSY in UTC. Each event is expanded as the calendar
 * expands it (moved and removed occurrences where they are, each in its own zone); an event or
 * occurrence marked TRANSP:TRANSPARENT or cancelled is left out; periods are cut to the range,
 * sorted and joined where they touch. A to-do list has no busy time (to-dos do not block time).
 * The answer is `200 text/calendar`, not a multistatus; the expansion counts against the same
 * occurrence limit as `expand` (507 past it).
 */
import type { EventRecord } from '../domain/calendar/types.js';
import { utcStamp } from '../domain/calendar/ics.js';
import { Answer } from './answer.js';
import { CalDavError } from './errors.js';
import { PRODID } from './eventOut.js';
import { davCollections, findCollection, objectsOf, type DavCollection } from './objects.js';
import { occurrencesOf, range, type Range } from './occurrences.js';
import type { DavRequest } from './request.js';
import { CALDAV, child, type XmlElement } from './xml.js';

const TRANSPARENT = /^TRANSP:TRANSPARENT$/i;
const TRANSP = /^TRANSP:/i;

/** Whether an occurrence of the event (by its original date) blocks time. */
function opaque(ev: EventRecord, date: string): boolean {
  const own = ev.dav?.keepByOccurrence?.[date]?.find((l) => TRANSP.test(l));
  if (own) return !TRANSPARENT.test(own);
  return !(ev.dav?.keep ?? []).some((l) => TRANSPARENT.test(l));
}

/** The busy periods of the calendars' events in `r`, sorted and joined. */
async function busyPeriods(
  events: EventRecord[],
  r: Range,
  tz: string,
  answer: Answer,
): Promise<[number, number][]> {
  const periods: [number, number][] = [];
  for (const ev of events) {
    for (const o of occurrencesOf(ev, r, tz)) {
      answer.countOccurrences(1);
      if (o.status === 'archived' || o.end <= o.start || !opaque(ev, o.date)) continue;
      periods.push([Math.max(o.start, r.start), Math.min(o.end, r.end)]);
    }
    await answer.pause();
  }
  periods.sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const p of periods) {
    const last = joined[joined.length - 1];
    if (last && p[0] <= last[1]) last[1] = Math.max(last[1], p[1]);
    else joined.push([p[0], p[1]]);
  }
  return joined;
}

/** The time range a free-busy-query asks about: both ends are needed. */
function askedRange(body: XmlElement): Range {
  const tr = child(body, CALDAV, 'time-range');
  if (!tr || tr.attrs.start === undefined || tr.attrs.end === undefined)
    throw new CalDavError(400, 'free-busy-query needs a time-range with a start and an end', {
      ns: CALDAV,
      local: 'valid-filter',
    });
  return range(tr);
}

/** Answers a free-busy-query asked of a calendar (`key`) or of the calendar home. */
export async function freeBusyReport(req: DavRequest, body: XmlElement): Promise<void> {
  const r = askedRange(body);
  const [key] = req.segments;
  const { events, tz } = await req.actor.read((state) => {
    let cols: DavCollection[];
    if (key === undefined) cols = davCollections(state);
    else {
      const col = findCollection(state, key);
      if (!col) throw new CalDavError(404, `No collection ${key} in this family`);
      cols = [col];
    }
    const now = req.services.now();
    return {
      tz: state.family.timezone,
      events: cols
        .filter((c) => c.component === 'VEVENT')
        .flatMap((c) =>
          [...objectsOf(state, c, now).byId.values()].map((o) => o.entry as EventRecord),
        ),
    };
  });
  const answer = new Answer();
  const periods = await busyPeriods(events, r, tz, answer);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'BEGIN:VFREEBUSY',
    `DTSTAMP:${utcStamp(req.services.now().getTime())}`,
    `DTSTART:${utcStamp(Math.max(r.start, Date.UTC(1900, 0, 1)))}`,
    `DTEND:${utcStamp(Math.min(r.end, Date.UTC(2201, 0, 1)))}`,
    ...periods.map(([a, b]) => `FREEBUSY:${utcStamp(a)}/${utcStamp(b)}`),
    'END:VFREEBUSY',
    'END:VCALENDAR',
  ];
  req.koa.status = 200;
  req.koa.type = 'text/calendar; charset=utf-8';
  req.koa.body = lines.join('\r\n') + '\r\n';
}

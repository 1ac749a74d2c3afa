/**
 * Reading an iCalendar feed body into parsed VEVENTs (src/domain/feeds/parsed.ts), the way feeds
 * are really written. ical.js does the lexing (folding, escaping, parameters) into jCal; values
 * are then read here:
 * - DATE and DATE-TIME values, also a DATE written without VALUE=DATE (`DTSTART:20190101`, which
 *   ical.js mistakes for a broken date-time);
 * - TZIDs resolved by icsZones.ts; floating times read in X-WR-TIMEZONE, else the family's zone;
 *   with X-WR-TIMEZONE, UTC times are read in that zone too, as Google Calendar means them
 *   (the zone then drives the repeats);
 * - every value of every EXDATE and RDATE (PERIOD values by their start);
 * - REFRESH-INTERVAL or X-PUBLISHED-TTL as a refresh hint.
 * A body that is not an iCalendar stream, or that has more than MAX_FEED_EVENTS VEVENTs, is
 * refused with a FeedParseError whose message says why (shown to the household).
 */
import ICAL from 'ical.js';
import { MAX_FEED_EVENTS } from '../domain/feeds/types.js';
import type { FeedTime, ParsedCalendar, ParsedEvent } from '../domain/feeds/parsed.js';
import { msToWall, wallToMs } from '../domain/feeds/wall.js';
import { parseCalendarDate } from '../domain/shared/time.js';
import { zoneResolver } from './icsZones.js';

export class FeedParseError extends Error {
  override readonly name = 'FeedParseError';
}

export interface ParseOptions {
  /** The family's zone: floating times are read in it when the feed names none. */
  defaultZone: string;
  /** For matching unnamed VTIMEZONEs against the zones of the years around it. */
  now: Date;
}

type Props = ICAL.JCalProperty[];

const VALUE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2})?:(\d{2})?:(\d{2})?(Z)?)?$/;

interface RawTime {
  date: string;
  seconds?: number;
  utc: boolean;
}

/** A jCal date or date-time string, tolerating a DATE given where a DATE-TIME was expected. */
function rawTime(v: unknown): RawTime | null {
  const s: unknown = Array.isArray(v) ? (v as unknown[])[0] : v; // PERIOD: [start, end-or-duration]
  if (typeof s !== 'string') return null;
  const m = VALUE_RE.exec(s);
  if (!m) return null;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (!parseCalendarDate(date)) return null;
  if (m[4] === undefined || m[5] === undefined) return { date, utc: false };
  const h = Number(m[4]);
  const min = Number(m[5]);
  const sec = Number(m[6] ?? 0);
  if (h > 23 || min > 59 || sec > 60) return null;
  return { date, seconds: h * 3600 + min * 60 + Math.min(sec, 59), utc: m[7] === 'Z' };
}

function text(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

function first(props: Props, name: string): ICAL.JCalProperty | undefined {
  return props.find((p) => p[0] === name);
}

function all(props: Props, name: string): ICAL.JCalProperty[] {
  return props.filter((p) => p[0] === name);
}

function durationMinutes(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  try {
    const s = ICAL.Duration.fromString(v).toSeconds();
    return s > 0 ? Math.ceil(s / 60) : null;
  } catch {
    return null;
  }
}

function startOfBody(s: string): string {
  return JSON.stringify(s.trimStart().slice(0, 30));
}

/** The feed's calendars as jCal; not iCalendar at all, or no VCALENDAR → FeedParseError. */
function calendarsOf(body: string): ICAL.JCalComponent[] {
  const source = body.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(source)) {
    throw new FeedParseError(
      source.trim()
        ? `is not an iCalendar feed (it starts with ${startOfBody(source)})`
        : 'is empty',
    );
  }
  let parsed: ICAL.JCalComponent | ICAL.JCalComponent[];
  try {
    parsed = ICAL.parse(source);
  } catch (e) {
    throw new FeedParseError(`could not be read as iCalendar: ${(e as Error).message}`);
  }
  const calendars = (
    Array.isArray(parsed[0]) ? (parsed as ICAL.JCalComponent[]) : [parsed as ICAL.JCalComponent]
  ).filter((c) => c[0] === 'vcalendar');
  if (!calendars.length) throw new FeedParseError('has no VCALENDAR');
  return calendars;
}

/** Reads a property's values as FeedTimes (those that cannot be read are left out). */
type TimesOf = (p: ICAL.JCalProperty | undefined) => FeedTime[];

/**
 * How the feed's times are read: a TZID the feed defines or names, UTC (moved to
 * X-WR-TIMEZONE's wall clock when the feed names one), or floating in X-WR-TIMEZONE or the
 * family's zone.
 */
function timeReader(calendars: ICAL.JCalComponent[], opts: ParseOptions): TimesOf {
  const vtimezones = new Map<string, ICAL.JCalComponent>();
  for (const c of calendars) {
    for (const tz of c[2].filter((x) => x[0] === 'vtimezone')) {
      const id = text(first(tz[1], 'tzid')?.[3]);
      if (id) vtimezones.set(id, tz);
    }
  }
  const resolve = zoneResolver(vtimezones, opts.now);
  const xwrName = text(
    first(
      calendars.flatMap((c) => c[1]),
      'x-wr-timezone',
    )?.[3],
  );
  const xwr = xwrName ? resolve(xwrName.trim()) : null;
  const floating = xwr ?? opts.defaultZone;
  return (p) => {
    if (!p) return [];
    const tzid =
      typeof p[1].tzid === 'string'
        ? p[1].tzid
        : Array.isArray(p[1].tzid)
          ? p[1].tzid[0]
          : undefined;
    const out: FeedTime[] = [];
    for (const v of p.slice(3)) {
      const r = rawTime(v);
      if (!r) continue;
      if (r.seconds === undefined || p[2] === 'date') {
        out.push({ date: r.date });
      } else if (r.utc && !xwr) {
        out.push({ date: r.date, seconds: r.seconds, tz: 'UTC' });
      } else if (r.utc && xwr) {
        // X-WR-TIMEZONE: the same instant, on that zone's wall clock.
        const w = msToWall(wallToMs(r.date, r.seconds, 'UTC'), xwr);
        out.push({ date: w.date, seconds: w.seconds, tz: xwr });
      } else {
        const zone = (tzid && resolve(tzid)) || floating;
        out.push({ date: r.date, seconds: r.seconds, tz: zone });
      }
    }
    return out;
  };
}

/** One VEVENT as read, or null when its start cannot be read (it is skipped). */
function eventOf(ve: ICAL.JCalComponent, times: TimesOf): ParsedEvent | null {
  const props = ve[1];
  const start = times(first(props, 'dtstart'))[0];
  if (!start) return null;
  const rrules = all(props, 'rrule')
    .map((p) => {
      try {
        return ICAL.Recur.fromData(p[3] as Record<string, unknown>).toString();
      } catch {
        return null;
      }
    })
    .filter((r): r is string => r !== null);
  const duration = text(first(props, 'duration')?.[3]);
  let durationSec: number | null = null;
  if (duration) {
    try {
      durationSec = Math.max(0, ICAL.Duration.fromString(duration).toSeconds());
    } catch {
      durationSec = null;
    }
  }
  const seq = Number(first(props, 'sequence')?.[3] ?? 0);
  return {
    uid: (text(first(props, 'uid')?.[3]) ?? '').trim(),
    recurrenceId: times(first(props, 'recurrence-id'))[0] ?? null,
    sequence: Number.isFinite(seq) ? seq : 0,
    title: text(first(props, 'summary')?.[3]) ?? '',
    description: text(first(props, 'description')?.[3]),
    location: text(first(props, 'location')?.[3]),
    cancelled: (text(first(props, 'status')?.[3]) ?? '').trim().toUpperCase() === 'CANCELLED',
    start,
    end: times(first(props, 'dtend'))[0] ?? null,
    durationSec,
    // Several RRULEs are undefined behaviour (RFC 5545 §3.8.5.3); the first one is kept.
    rrule: rrules[0] ?? null,
    rdates: all(props, 'rdate').flatMap(times),
    exdates: all(props, 'exdate').flatMap(times),
  };
}

/** Parses a feed body. Throws FeedParseError when it is not a usable iCalendar feed. */
export function parseIcs(body: string, opts: ParseOptions): ParsedCalendar {
  const calendars = calendarsOf(body);
  const calProps = calendars.flatMap((c) => c[1]);
  const vevents = calendars.flatMap((c) => c[2].filter((x) => x[0] === 'vevent'));
  if (vevents.length > MAX_FEED_EVENTS) {
    throw new FeedParseError(
      `has ${vevents.length} events, more than the ${MAX_FEED_EVENTS.toLocaleString('en-US')} a feed may have`,
    );
  }
  const times = timeReader(calendars, opts);
  const events: ParsedEvent[] = [];
  let skipped = 0;
  for (const ve of vevents) {
    const event = eventOf(ve, times);
    if (event) events.push(event);
    else skipped++;
  }
  const name = text(first(calProps, 'x-wr-calname')?.[3]) ?? text(first(calProps, 'name')?.[3]);
  const ttl =
    durationMinutes(first(calProps, 'refresh-interval')?.[3]) ??
    durationMinutes(first(calProps, 'x-published-ttl')?.[3]);
  return {
    calendarName: name?.trim() || null,
    ttlMinutes: ttl,
    events,
    eventCount: vevents.length,
    skipped,
  };
}

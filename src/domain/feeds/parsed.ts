/**
 * A feed as the iCalendar reader (src/integrations/icsParse.ts) hands it over: every VEVENT's
 * properties with their time values already read in a named zone. The reader resolved TZIDs
 * (IANA, Windows names, the feed's VTIMEZONEs), floating times (X-WR-TIMEZONE, else the
 * family's zone) and X-WR-TIMEZONE's reading of UTC times; convert.ts does the rest.
 */

/** A DATE value, or a DATE-TIME as wall clock in an IANA zone (`UTC` for `Z` times). */
export type FeedTime =
  | { date: string; seconds?: undefined; tz?: undefined }
  | { date: string; seconds: number; tz: string };

export interface ParsedEvent {
  /** '' when the VEVENT has none. */
  uid: string;
  recurrenceId: FeedTime | null;
  sequence: number;
  title: string;
  description: string | null;
  location: string | null;
  cancelled: boolean;
  start: FeedTime;
  end: FeedTime | null;
  durationSec: number | null;
  rrule: string | null;
  rdates: FeedTime[];
  exdates: FeedTime[];
}

export interface ParsedCalendar {
  calendarName: string | null;
  /** REFRESH-INTERVAL or X-PUBLISHED-TTL, in whole minutes. */
  ttlMinutes: number | null;
  events: ParsedEvent[];
  /** VEVENTs in the body. */
  eventCount: number;
  /** VEVENTs that could not be read (no usable DTSTART). */
  skipped: number;
}

export function isTimed(t: FeedTime): t is { date: string; seconds: number; tz: string } {
  return t.tz !== undefined;
}

/**
 * The shape of an iCalendar body, checked in one linear pass before ical.js reads it. ical.js
 * costs far more per line, component, parameter and list value than per byte: within the 1 MiB
 * body limit, 100,000 one-word properties took 0.2 s, 60,000 parameters on one line 2–3 s,
 * 60,000 EXDATE values 0.4 s, 450,000 escapes 0.2 s and 40,000 nested components 0.5 s of the
 * event loop (measured on a shared two-core machine, docs/performance.md). Mapping an object
 * and writing it back costs most per changed occurrence. Every count is bounded here, above
 * what a calendar client writes for a household, so no PUT holds the loop for long.
 */
import { CalDavError, badCalendarData } from './errors.js';
import { contentLines } from './icalTree.js';
import { CALDAV } from './xml.js';

export const ICS_LIMITS = {
  /** Lines as sent, folds included: 1 MiB folded at 75 octets is about 14,000. */
  physicalLines: 20_000,
  /** Properties and BEGIN/END lines after unfolding. */
  contentLines: 5_000,
  /** BEGIN lines: the series, its changed occurrences, alarms, time zones and their rules. */
  components: 300,
  /**
   * VEVENTs and VTODOs: the series and its changed occurrences. Each is mapped, checked against
   * the series and written back (with its times in the family's zone) on every change: about a
   * millisecond apiece on a busy two-core machine.
   */
  occurrences: 100,
  /** VCALENDAR › VEVENT › VALARM is three; nothing in iCalendar nests deeper than four. */
  depth: 4,
  /** Parameters on one property (an ATTENDEE line has about eight). */
  parameters: 64,
  /**
   * EXDATE and RDATE values over the whole object: each removed date is checked against the
   * series, stored and written back on every change.
   */
  dates: 500,
  /**
   * Commas, semicolons, backslashes and carets: ical.js splits lists and structured values and
   * undoes escapes one of these at a time, at about half a microsecond each.
   */
  separators: 40_000,
  /** Characters of one RRULE (ical.js reads each part of a rule at a few microseconds). */
  ruleLength: 2_000,
} as const;

const tooBig = (limit: number, what: string) =>
  new CalDavError(
    413,
    `The object has more than ${limit.toLocaleString('en-US')} ${what}, the most this server reads`,
    { ns: CALDAV, local: 'max-resource-size' },
  );

/** Occurrences of the characters `chars` in `s`, counted up to one past `limit` (indexOf). */
function countUpTo(s: string, chars: string, limit: number): number {
  let n = 0;
  for (const ch of chars)
    for (let at = s.indexOf(ch); at !== -1; at = s.indexOf(ch, at + 1)) if (++n > limit) return n;
  return n;
}

/**
 * Throws a CalDavError when the body is beyond ICS_LIMITS. Its cost is native scans (indexOf,
 * split) per character, and JavaScript only per line, separator and quoted
 * value, each of which is counted against its limit as it is found.
 */
export function checkIcsShape(body: string): void {
  if (countUpTo(body, '\n', ICS_LIMITS.physicalLines) > ICS_LIMITS.physicalLines)
    throw tooBig(ICS_LIMITS.physicalLines, 'lines');
  if (countUpTo(body, ',;\\^', ICS_LIMITS.separators) > ICS_LIMITS.separators)
    throw tooBig(ICS_LIMITS.separators, 'commas, semicolons, backslashes and carets');
  const lines = contentLines(body);
  if (lines.length > ICS_LIMITS.contentLines) throw tooBig(ICS_LIMITS.contentLines, 'properties');
  let depth = 0;
  let components = 0;
  let occurrences = 0;
  let dates = 0;
  for (const line of lines) {
    const head = line.slice(0, 6).toUpperCase();
    if (head === 'BEGIN:') {
      if (++components > ICS_LIMITS.components) throw tooBig(ICS_LIMITS.components, 'components');
      const kind = line.slice(6).trim().toUpperCase();
      if ((kind === 'VEVENT' || kind === 'VTODO') && ++occurrences > ICS_LIMITS.occurrences)
        throw tooBig(ICS_LIMITS.occurrences, 'events or to-dos (a series and its changes)');
      if (++depth > ICS_LIMITS.depth)
        throw badCalendarData(
          `Components nest deeper than ${ICS_LIMITS.depth} levels, which iCalendar never does`,
        );
      continue;
    }
    if (head.startsWith('END:')) {
      depth--;
      continue;
    }
    dates += checkProperty(line);
    if (dates > ICS_LIMITS.dates) throw tooBig(ICS_LIMITS.dates, 'EXDATE and RDATE values');
  }
}

/** Semicolons of `line` in [from, to), counted up to one past the parameter limit. */
function semicolons(line: string, from: number, to: number, seen: number): number {
  let n = seen;
  for (let at = line.indexOf(';', from); at !== -1 && at < to; at = line.indexOf(';', at + 1))
    if (++n > ICS_LIMITS.parameters)
      throw tooBig(ICS_LIMITS.parameters, 'parameters on one property');
  return n;
}

/**
 * Where a property's value starts (its first colon outside quoted parameter values; the line's
 * length when none), its parameters counted on the way.
 */
function valueStart(line: string): number {
  let params = 0;
  let at = 0;
  let colon = line.indexOf(':');
  for (let quoted = 0; ; quoted++) {
    // Looked for again only once a quoted value has passed it.
    if (colon !== -1 && colon < at) colon = line.indexOf(':', at);
    const quote = line.indexOf('"', at);
    if (quote === -1 || (colon !== -1 && colon < quote)) {
      semicolons(line, at, colon === -1 ? line.length : colon, params);
      return colon === -1 ? line.length : colon;
    }
    if (quoted >= ICS_LIMITS.parameters * 4)
      throw tooBig(ICS_LIMITS.parameters * 4, 'quoted parameter values on one property');
    params = semicolons(line, at, quote, params);
    const close = line.indexOf('"', quote + 1);
    if (close === -1) return line.length;
    at = close + 1;
  }
}

/** Checks a property's parameters (outside quoted values); answers its EXDATE or RDATE values. */
function checkProperty(line: string): number {
  const i = valueStart(line);
  const name = line.slice(0, Math.min(i, 6)).toUpperCase();
  if (name.startsWith('RRULE') || name.startsWith('EXRULE')) {
    if (line.length - i > ICS_LIMITS.ruleLength)
      throw tooBig(ICS_LIMITS.ruleLength, 'characters in one repeat rule');
    return 0;
  }
  if (!name.startsWith('EXDATE') && !name.startsWith('RDATE')) return 0;
  let values = 1;
  for (let at = line.indexOf(',', i); at !== -1; at = line.indexOf(',', at + 1)) {
    // Counted as they are found: one line may hold far more than the limit.
    if (++values > ICS_LIMITS.dates) return values;
  }
  return values;
}

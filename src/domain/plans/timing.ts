/**
 * When a plan happens: its span is the union of its linked events' dates and the
 * dates of its settled polls' winning options, read in the family's time zone (an event in a zone
 * of its own counts on the days its instants fall on for the family).
 *
 *   phase: unscheduled (nothing dated) · upcoming (today before the span) ·
 *          happening (today within it) · past (today after it)
 *   when:  "Sat, Jun 13, 2026" · "Jun 13 – 15, 2026" · "Jun 30 – Jul 2, 2026" ·
 *          "Dec 30, 2026 – Jan 2, 2027" · "Not scheduled"
 *
 * A repeating event counts with its first occurrence (its own date and end date): plans are
 * one-off things, and an open-ended series has no end a phase could be measured against.
 */
import { formatTime12, parseCalendarDate, todayIn, weekday } from '../shared/time.js';
import { getEvent, eventTiming } from '../calendar/events.js';
import type { FamilyState } from '../shared/state.js';
import type { PlanRecord } from './types.js';

export const PHASES = ['unscheduled', 'upcoming', 'happening', 'past'] as const;
export type Phase = (typeof PHASES)[number];

export interface Span {
  start: string;
  end: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
export const NOT_SCHEDULED = 'Not scheduled';

/** The dated spans a plan is made of (its events that still exist, its settled dated options). */
export function planSpans(state: FamilyState, plan: PlanRecord): Span[] {
  const spans: Span[] = [];
  for (const link of plan.events) {
    const ev = getEvent(state, link.eventId);
    if (!ev) continue;
    const t = eventTiming(ev, state.family.timezone);
    spans.push({ start: t.date, end: t.endDate < t.date ? t.date : t.endDate });
  }
  for (const poll of plan.polls) {
    if (poll.status !== 'settled') continue;
    const o = poll.options.find((x) => x.id === poll.settledOptionId);
    if (o?.date)
      spans.push({ start: o.date, end: o.endDate && o.endDate > o.date ? o.endDate : o.date });
  }
  return spans;
}

/** The smallest span covering them all, or null when there is none. */
export function coverSpan(spans: readonly Span[]): Span | null {
  if (!spans.length) return null;
  let { start, end } = spans[0];
  for (const s of spans) {
    if (s.start < start) start = s.start;
    if (s.end > end) end = s.end;
  }
  return { start, end };
}

export function phaseOf(span: Span | null, today: string): Phase {
  if (!span) return 'unscheduled';
  if (today < span.start) return 'upcoming';
  if (today > span.end) return 'past';
  return 'happening';
}

/** Short human text of a span of dates, en-US ("Sat, Jun 13, 2026", "Jun 13 – 15, 2026"). */
export function whenText(span: Span | null): string {
  if (!span) return NOT_SCHEDULED;
  const a = parseCalendarDate(span.start)!;
  const b = parseCalendarDate(span.end)!;
  if (span.start === span.end)
    return `${DAYS[weekday(span.start)]}, ${MONTHS[a.month - 1]} ${a.day}, ${a.year}`;
  if (a.year !== b.year)
    return `${MONTHS[a.month - 1]} ${a.day}, ${a.year} – ${MONTHS[b.month - 1]} ${b.day}, ${b.year}`;
  if (a.month !== b.month)
    return `${MONTHS[a.month - 1]} ${a.day} – ${MONTHS[b.month - 1]} ${b.day}, ${a.year}`;
  return `${MONTHS[a.month - 1]} ${a.day} – ${b.day}, ${a.year}`;
}

/** A single timed or all-day item as text: "Sat, Jun 13, 2026, 3:30 PM – 5:00 PM". */
export function itemWhenText(t: {
  date: string;
  endDate: string | null;
  time: string | null;
  endTime: string | null;
}): string {
  const end = t.endDate && t.endDate > t.date ? t.endDate : t.date;
  if (!t.time) return whenText({ start: t.date, end });
  const from = `${whenText({ start: t.date, end: t.date })}, ${formatTime12(t.time)}`;
  if (end !== t.date)
    return `${from} – ${whenText({ start: end, end })}${t.endTime ? `, ${formatTime12(t.endTime)}` : ''}`;
  return t.endTime ? `${from} – ${formatTime12(t.endTime)}` : from;
}

export interface PlanTiming {
  phase: Phase;
  when: string;
  span: Span | null;
}

/** The plan's phase and `when` at `now` in the family's time zone. */
export function planTiming(state: FamilyState, plan: PlanRecord, now: Date): PlanTiming {
  const span = coverSpan(planSpans(state, plan));
  return { phase: phaseOf(span, todayIn(state.family.timezone, now)), when: whenText(span), span };
}

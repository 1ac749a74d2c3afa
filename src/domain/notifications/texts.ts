/**
 * The words of the service's notifications (one text per kind), all on the family's clock: an
 * event in another zone is shown at the family's time of its start (a 09:00 New York event is
 * "15:00" to a Berlin family).
 * `plain` texts are built from the saved event or routine; `contextual` ones also from live data
 * at firing time: the day's events with attendance and leave-by, chores due, and the weather
 * when the family has a `location` (fetched by the job before it decides, and handed in here).
 */
import { entriesOf } from '../collections/listing.js';
import { listEvents } from '../calendar/listing.js';
import type { EventData } from '../calendar/types.js';
import type { EventView } from '../calendar/events.js';
import { activePerson, goingIds } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import { onFamilyClock } from '../calendar/series.js';
import { addDays, instantToLocal, todayIn, weekday } from '../shared/time.js';
import { isAllDay, type Occurrence } from './occurrences.js';
import { leaveByOf } from './schedule.js';
import type { RoutineRecord } from './types.js';

/** Weather for a day at the family's location, as the job fetched it (or why it could not). */
export interface WeatherNote {
  place: string;
  date: string;
  summary?: string;
  minC?: number;
  maxC?: number;
  precipitationProbability?: number;
  error?: string;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Sat 28 Nov`. */
export function dayLabel(date: string): string {
  return `${DAYS[weekday(date)]} ${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1]}`;
}

/** "Today 15:30", "Tomorrow, all day", "Sat 28 Nov 15:30" — relative to `now` in `tz`. */
export function startText(d: EventData, tz: string, now: Date): string {
  const today = todayIn(tz, now);
  const at = onFamilyClock(d, tz);
  const day =
    at.date === today ? 'Today' : at.date === addDays(today, 1) ? 'Tomorrow' : dayLabel(at.date);
  return isAllDay(d) ? `${day}, all day` : `${day} ${at.time}`;
}

function hhmm(ms: number, tz: string): string {
  return instantToLocal(new Date(ms), tz).time;
}

function names(state: FamilyState, ids: readonly string[]): string[] {
  return ids
    .map((id) => activePerson(state, id))
    .filter((p) => p !== undefined)
    .map((p) => p.familiarName ?? p.name);
}

function going(state: FamilyState, d: EventData): string[] {
  return names(state, [...goingIds(state, d)]);
}

function weatherLine(w: WeatherNote | null | undefined): string | null {
  if (!w) return null;
  if (w.error) return `Weather in ${w.place}: unavailable (${w.error})`;
  const parts = [w.summary ?? 'forecast'];
  if (w.minC !== undefined && w.maxC !== undefined)
    parts.push(`${Math.round(w.minC)}–${Math.round(w.maxC)} °C`);
  if (w.precipitationProbability !== undefined)
    parts.push(`${Math.round(w.precipitationProbability)} % chance of rain`);
  return `Weather in ${w.place}: ${parts.join(', ')}`;
}

/** A reminder: title the event's, body its start, place and leave-by time. */
export function reminderText(
  state: FamilyState,
  o: Occurrence,
  now: Date,
  contextual: boolean,
  weather?: WeatherNote | null,
): { title: string; body: string } {
  const tz = state.family.timezone;
  const parts = [startText(o.data, tz, now)];
  if (o.data.where) parts.push(o.data.where);
  const leave = leaveByOf(o.data, tz);
  if (leave !== null) parts.push(`leave by ${hhmm(leave, tz)}`);
  let body = parts.join(' · ');
  if (contextual) {
    const lines = [body];
    const who = going(state, o.data);
    if (who.length) lines.push(`Going: ${who.join(', ')}`);
    const responsible = names(state, o.data.responsiblePersonIds ?? []);
    if (responsible.length) lines.push(`Responsible: ${responsible.join(', ')}`);
    const w = weatherLine(weather);
    if (w) lines.push(w);
    body = lines.join('\n');
  }
  return { title: o.title, body };
}

/** Leave-by: "Leave now for <title>", origin, arrival time. */
export function leaveByText(state: FamilyState, o: Occurrence): { title: string; body: string } {
  const tz = state.family.timezone;
  const plan = o.data.travelPlan!;
  const arrive = o.start - (plan.arriveEarlyMinutes ?? 0) * 60_000;
  return {
    title: `Leave now for ${o.title}`,
    body: `From ${plan.origin} · arrive by ${hhmm(arrive, tz)}`,
  };
}

export function coverageText(
  state: FamilyState,
  o: Occurrence,
  now: Date,
): { title: string; body: string } {
  const parts = [startText(o.data, state.family.timezone, now)];
  if (o.data.where) parts.push(o.data.where);
  return { title: `Nobody is responsible for ${o.title}`, body: parts.join(' · ') };
}

export function checkText(
  state: FamilyState,
  task: string,
  o: Occurrence | null,
  eventTitle: string,
  now: Date,
): { title: string; body: string } {
  return {
    title: task,
    body: o ? `${eventTitle} · ${startText(o.data, state.family.timezone, now)}` : eventTitle,
  };
}

const ROUTINE_TITLES = {
  briefing: 'Morning briefing',
  digest: 'Digest',
  reminder: 'Reminder',
} as const;

/** The family's date of a listed event (where it falls on the family's clock). */
function familyDate(state: FamilyState, e: EventView): string {
  return onFamilyClock(e.data as unknown as EventData, state.family.timezone).date;
}

function eventLine(state: FamilyState, e: EventView): string {
  const tz = state.family.timezone;
  const d = e.data as EventData & { travelPlan?: { leaveAt?: string } };
  const at = onFamilyClock(d, tz);
  const when = at.allDay ? 'all day' : String(at.time);
  const extra: string[] = [];
  if (d.where) extra.push(String(d.where));
  const who = going(state, d);
  if (who.length) extra.push(`going: ${who.join(', ')}`);
  const leave = leaveByOf(d, tz);
  if (leave !== null) extra.push(`leave by ${hhmm(leave, tz)}`);
  return `- ${when} ${e.title}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

/**
 * A routine's text. Plain: its `title` (or the intent's) and `message`. Contextual: today's
 * and tomorrow's events (with attendance and leave-by), chores due by tomorrow, the weather.
 */
export function routineText(
  state: FamilyState,
  r: RoutineRecord,
  now: Date,
  weather?: WeatherNote | null,
): { title: string; body: string } {
  const title = r.title ?? ROUTINE_TITLES[r.intent];
  if (r.mode === 'plain') return { title, body: r.message ?? '' };
  const tz = state.family.timezone;
  const today = todayIn(tz, now);
  const tomorrow = addDays(today, 1);
  const lines: string[] = [];
  if (r.message) lines.push(r.message);
  const events = listEvents(state, { from: today, to: tomorrow, limit: 50 }, now).events;
  for (const [label, date] of [
    ['Today', today],
    ['Tomorrow', tomorrow],
  ] as const) {
    const day = events.filter((e) => familyDate(state, e) === date);
    lines.push(`${label} (${dayLabel(date)}):`);
    if (!day.length) lines.push('- nothing planned');
    for (const e of day) lines.push(eventLine(state, e));
  }
  // Overdue first, then today's, then tomorrow's.
  const chores = entriesOf(state, 'chores')
    .filter(
      (c) => c.status === 'active' && typeof c.data.due === 'string' && c.data.due <= tomorrow,
    )
    .sort((a, b) =>
      (a.data.due as string) < (b.data.due as string)
        ? -1
        : (a.data.due as string) > (b.data.due as string)
          ? 1
          : a.title.localeCompare(b.title),
    );
  if (chores.length) {
    const items = chores.slice(0, 20).map((c) => {
      const due = c.data.due as string;
      const whose = typeof c.data.assignee === 'string' ? names(state, [c.data.assignee]) : [];
      const when =
        due < today ? `overdue since ${dayLabel(due)}` : due === today ? 'today' : 'tomorrow';
      return `${c.title} (${[...whose, when].join(', ')})`;
    });
    lines.push(`Chores due: ${items.join('; ')}`);
  } else {
    lines.push('Chores due: none');
  }
  const w = weatherLine(weather);
  if (w) lines.push(w);
  return { title, body: lines.join('\n') };
}

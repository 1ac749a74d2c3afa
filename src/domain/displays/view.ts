/**
 * What a family display shows (docs/display.md), computed from the family's state for a moment:
 * today and the next days (events with their times on the family's clock — a 09:00 New York
 * event shows 15:00 on a Berlin family's display —, who is going and when to leave), the chores
 * due (overdue ones too) and those done, and the weather the edge fetched. It names people by
 * their familiar name only and carries no ids, emails or phones: the page and its stream are
 * open to whoever holds the link.
 */
import { entriesOf } from '../collections/listing.js';
import { getCollection } from '../collections/collections.js';
import { listEvents } from '../calendar/listing.js';
import { leaveAt } from '../calendar/events.js';
import { onFamilyClock } from '../calendar/series.js';
import type { EventData } from '../calendar/types.js';
import { activePerson, goingIds } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import { addDays, instantToLocal, todayIn } from '../shared/time.js';
import type { DisplayRecord } from './displays.js';

export interface DisplayWeatherDay {
  date: string;
  summary: string | null;
  minC: number | null;
  maxC: number | null;
  precipitationProbability: number | null;
}

export interface DisplayEvent {
  title: string;
  /** `HH:mm` local, null all day. */
  time: string | null;
  endTime: string | null;
  /** The last day of an event over several days, else null. */
  endDate: string | null;
  where: string | null;
  going: string[];
  /** `HH:mm` local time to leave, when the event has a travel plan. */
  leaveBy: string | null;
  calendar: string;
}

export interface DisplayDay {
  date: string;
  label: string;
  events: DisplayEvent[];
  weather: DisplayWeatherDay | null;
}

export interface DisplayChore {
  title: string;
  due: string | null;
  overdue: boolean;
  who: string[];
}

export interface DisplayContent {
  ok: true;
  name: string;
  family: string;
  timezone: string;
  /** The local date and time (`YYYY-MM-DD`, `HH:mm`) the content was computed for. */
  today: string;
  days: DisplayDay[];
  chores: { due: DisplayChore[]; done: DisplayChore[] };
  /** Where the forecast is for; null when the family has no location. */
  weatherPlace: string | null;
}

/** The forecast the edge fetched for the family's location, by date. */
export interface DisplayWeather {
  place: string;
  days: Map<string, DisplayWeatherDay>;
}

const MAX_EVENTS_PER_DAY = 30;
const MAX_CHORES = 30;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function dateLabel(date: string, today: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  const day = `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  if (date === today) return `Today · ${day}`;
  if (date === addDays(today, 1)) return `Tomorrow · ${day}`;
  return day;
}

function nameOf(state: FamilyState, id: string): string | null {
  const p = activePerson(state, id);
  return p ? (p.familiarName ?? p.name) : null;
}

/** Whether a display filtered by people shows this event (owner, responsible, or going/maybe). */
function concerns(d: EventData, people: Set<string>): boolean {
  if (d.ownerPersonId && people.has(d.ownerPersonId)) return true;
  if (d.responsiblePersonIds?.some((id) => people.has(id))) return true;
  if (d.everyoneAttendance === 'going') return true;
  return Object.entries(d.attendance ?? {}).some(([id, a]) => a !== 'out' && people.has(id));
}

/** The display's content at `now`, for `days` days from today in the family's zone. */
export function displayContent(
  state: FamilyState,
  display: DisplayRecord,
  now: Date,
  days: number,
  weather: DisplayWeather | null,
): DisplayContent {
  const tz = state.family.timezone;
  const today = todayIn(tz, now);
  const last = addDays(today, days - 1);
  const calendars = new Set(display.calendars);
  const people = new Set(display.personIds);
  const events = listEvents(state, { from: today, to: last, limit: 50, status: 'active' }, now)
    .events.filter((e) => !calendars.size || calendars.has(e.calendarKey))
    .filter((e) => !people.size || concerns(e.data as unknown as EventData, people));
  const out: DisplayDay[] = [];
  for (let i = 0; i < days; i++) {
    const date = addDays(today, i);
    const todays = events
      .map((e) => ({ e, d: e.data as unknown as EventData }))
      .map((x) => ({ ...x, at: onFamilyClock(x.d, tz) }))
      .filter(({ at }) => at.date <= date && at.endDate >= date)
      .slice(0, MAX_EVENTS_PER_DAY)
      .map(({ e, d, at }): DisplayEvent => {
        const leave = leaveAt(d, tz, tz);
        return {
          title: e.title,
          time: at.allDay || at.date !== date ? null : at.time,
          endTime: at.allDay ? null : at.endTime,
          endDate: at.endDate !== at.date ? at.endDate : null,
          where: typeof d.where === 'string' && d.where ? d.where : null,
          going: [...goingIds(state, d)]
            .map((id) => nameOf(state, id))
            .filter((n): n is string => n !== null),
          leaveBy: leave && leave.slice(0, 10) === date ? leave.slice(11) : null,
          calendar: getCollection(state, e.calendarKey)?.name ?? e.calendarKey,
        };
      });
    out.push({
      date,
      label: dateLabel(date, today),
      events: todays,
      weather: weather?.days.get(date) ?? null,
    });
  }
  const choreOf = (c: { title: string; data: Record<string, unknown> }): DisplayChore => {
    const due = typeof c.data.due === 'string' ? c.data.due : null;
    const assignee = typeof c.data.assignee === 'string' ? nameOf(state, c.data.assignee) : null;
    return {
      title: c.title,
      due,
      overdue: due !== null && due < today,
      who: assignee ? [assignee] : [],
    };
  };
  const mine = (c: { data: Record<string, unknown> }) =>
    !people.size || (typeof c.data.assignee === 'string' && people.has(c.data.assignee));
  const chores = entriesOf(state, 'chores').filter(mine);
  const byDue = (a: DisplayChore, b: DisplayChore) =>
    (a.due ?? '9') < (b.due ?? '9')
      ? -1
      : (a.due ?? '9') > (b.due ?? '9')
        ? 1
        : a.title.localeCompare(b.title);
  const due = chores
    .filter((c) => c.status === 'active' && typeof c.data.due === 'string' && c.data.due <= last)
    .map(choreOf)
    .sort(byDue)
    .slice(0, MAX_CHORES);
  // Done: the chores ticked off today (their last change was today, in the family's zone).
  const done = chores
    .filter((c) => c.status === 'done' && instantToLocal(new Date(c.updatedAt), tz).date === today)
    .map(choreOf)
    .sort(byDue)
    .slice(0, MAX_CHORES);
  return {
    ok: true,
    name: display.name,
    family: state.family.name,
    timezone: tz,
    today,
    days: out,
    chores: { due, done },
    weatherPlace: weather?.place ?? null,
  };
}

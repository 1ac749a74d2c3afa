/**
 * What a family display shows (docs/display.md), computed from the family's state for a moment:
 * today and the next days (events with their times on the family's clock — a 09:00 New York
 * event shows 15:00 on a Berlin family's display —, who is going and when to leave), the chores
 * due (overdue ones too) and those done, its lists, the open date polls, and the weather the
 * edge fetched. It names people by their familiar name only and carries no emails or phones:
 * the page and its stream are open to whoever holds the link. Only an interactive display's
 * content carries ids (of entries, events, people, polls): its page names them in its actions.
 */
import { getCollection } from '../collections/collections.js';
import { listEvents } from '../calendar/listing.js';
import type { EventView } from '../calendar/events.js';
import { leaveAt } from '../calendar/events.js';
import { onFamilyClock, startMs, type FamilyClock } from '../calendar/series.js';
import type { Attendance, EventData } from '../calendar/types.js';
import { goingIds } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import { addDays, instantToLocal, todayIn } from '../shared/time.js';
import { displaySettings, type DisplayRecord } from './displays.js';
import { displayLocale } from './text.js';
import { voiceOf, type Voice } from '../i18n/voice.js';
import {
  choresOf,
  listsOf,
  displayNameOf,
  peopleOf,
  pollsOf,
  type DisplayChore,
  type DisplayList,
  type DisplayPerson,
  type DisplayPoll,
  type Scope,
} from './viewItems.js';

export type { DisplayChore, DisplayList, DisplayPerson, DisplayPoll } from './viewItems.js';

export interface DisplayWeatherDay {
  date: string;
  summary: string | null;
  minC: number | null;
  maxC: number | null;
  precipitationProbability: number | null;
}

export interface DisplayEvent {
  /** Interactive displays only: the event (the series for an occurrence) its actions name. */
  id?: string;
  /** Interactive displays only: the occurrence's original date (a one-off event's own date). */
  occurrence?: string | null;
  title: string;
  /** `HH:mm` local, null all day. */
  time: string | null;
  /** `HH:mm` local: the end time, or the start plus the duration; null when neither is set. */
  endTime: string | null;
  /** The last day of an event over several days, else null. */
  endDate: string | null;
  where: string | null;
  going: string[];
  /** `HH:mm` local time to leave, when the event has a travel plan. */
  leaveBy: string | null;
  calendar: string;
  /** Interactive displays only: each of its people's answer (person id → going, maybe, out). */
  answers?: Record<string, Attendance>;
}

export interface DisplayDay {
  date: string;
  label: string;
  events: DisplayEvent[];
  weather: DisplayWeatherDay | null;
}

export interface DisplayContent {
  ok: true;
  name: string;
  family: string;
  timezone: string;
  /** The local date (`YYYY-MM-DD`) the content was computed for. */
  today: string;
  /** Whether the page offers its actions (docs/display.md, "Touch"). */
  interactive: boolean;
  /** When the page dims (`HH:mm` local, from–to, over midnight when to < from); null: never. */
  night: { from: string; to: string } | null;
  days: DisplayDay[];
  chores: { due: DisplayChore[]; done: DisplayChore[] };
  lists: DisplayList[];
  polls: DisplayPoll[];
  /** Who an interactive display answers and votes for; empty on a read-only one. */
  people: DisplayPerson[];
  /** Where the forecast is for; null when the family has no location. */
  weatherPlace: string | null;
}

/** The forecast the edge fetched for the family's location, by date. */
export interface DisplayWeather {
  place: string;
  days: Map<string, DisplayWeatherDay>;
}

const MAX_EVENTS_PER_DAY = 30;
/** A day's label, as the display's locale writes it: "Today · Thursday, 26 November 2026". */
function dateLabel(voice: Voice, date: string, today: string): string {
  const day = voice.formats.date(date, 'full');
  if (date === today) return voice.say('display', 'labelToday', { date: day });
  if (date === addDays(today, 1)) return voice.say('display', 'labelTomorrow', { date: day });
  return day;
}

/** Whether a display filtered by people shows this event (owner, responsible, or going/maybe). */
function concerns(d: EventData, people: ReadonlySet<string>): boolean {
  if (d.ownerPersonId && people.has(d.ownerPersonId)) return true;
  if (d.responsiblePersonIds?.some((id) => people.has(id))) return true;
  if (d.everyoneAttendance === 'going') return true;
  return Object.entries(d.attendance ?? {}).some(([id, a]) => a !== 'out' && people.has(id));
}

/**
 * When a timed event ends, `HH:mm` on the family's clock: its end time, else its start plus its
 * duration (an event given with `durationMinutes` has an end too); null for an all-day event or
 * one with neither (the display does not make an end up). `d` is the API's view of the data,
 * where an unset end time is null.
 */
function endTimeOf(d: EventData, at: FamilyClock, tz: string): string | null {
  if (at.allDay) return null;
  if (at.endTime) return at.endTime;
  if (typeof d.durationMinutes !== 'number') return null;
  return instantToLocal(new Date(startMs(d, tz) + d.durationMinutes * 60_000), tz).time;
}

/** Each of the display's people's answer to an event (everyone's when it has no people). */
function answersOf(s: Scope, d: EventData): Record<string, Attendance> {
  const out: Record<string, Attendance> = {};
  for (const p of peopleOf(s)) {
    const a = d.attendance?.[p.id] ?? d.everyoneAttendance;
    if (a) out[p.id] = a;
  }
  return out;
}

function eventOf(s: Scope, e: EventView, date: string): DisplayEvent {
  const { state, tz } = s;
  const d = e.data as unknown as EventData;
  const at = onFamilyClock(d, tz);
  const leave = leaveAt(d, tz, tz);
  return {
    ...(s.interactive ? { id: e.id, occurrence: e.occurrenceDate ?? null } : {}),
    title: e.title,
    time: at.allDay || at.date !== date ? null : at.time,
    endTime: endTimeOf(d, at, tz),
    endDate: at.endDate !== at.date ? at.endDate : null,
    where: typeof d.where === 'string' && d.where ? d.where : null,
    going: [...goingIds(state, d)]
      .map((id) => displayNameOf(state, id))
      .filter((n): n is string => n !== null),
    leaveBy: leave && leave.slice(0, 10) === date ? leave.slice(11) : null,
    calendar: getCollection(state, e.calendarKey)?.name ?? e.calendarKey,
    ...(s.interactive ? { answers: answersOf(s, d) } : {}),
  };
}

function daysOf(
  s: Scope,
  voice: Voice,
  count: number,
  weather: DisplayWeather | null,
): DisplayDay[] {
  const calendars = new Set(s.display.calendars);
  // Its calendars and people are part of the listing's filter, not applied to its page after:
  // 50 events of calendars it does not show must not take the place of those it does.
  const only = {
    key: `display:${[...calendars].join(',')}:${[...s.people].join(',')}`,
    test: (d: EventData, calendarKey: string) =>
      (!calendars.size || calendars.has(calendarKey)) && (!s.people.size || concerns(d, s.people)),
  };
  const window = { from: s.today, to: s.last, limit: 50, status: 'active' as const, only };
  const events = listEvents(s.state, window, s.now).events;
  const out: DisplayDay[] = [];
  for (let i = 0; i < count; i++) {
    const date = addDays(s.today, i);
    const todays = events
      .filter((e) => {
        const at = onFamilyClock(e.data as unknown as EventData, s.tz);
        return at.date <= date && at.endDate >= date;
      })
      .slice(0, MAX_EVENTS_PER_DAY)
      .map((e) => eventOf(s, e, date));
    out.push({
      date,
      label: dateLabel(voice, date, s.today),
      events: todays,
      weather: weather?.days.get(date) ?? null,
    });
  }
  return out;
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
  const settings = displaySettings(display);
  const s: Scope = {
    state,
    display,
    today,
    last: addDays(today, days - 1),
    tz,
    now,
    interactive: settings.interactive,
    people: new Set(display.personIds),
  };
  return {
    ok: true,
    name: display.name,
    family: state.family.name,
    timezone: tz,
    today,
    interactive: settings.interactive,
    night:
      settings.nightFrom && settings.nightTo
        ? { from: settings.nightFrom, to: settings.nightTo }
        : null,
    days: daysOf(s, voiceOf(displayLocale(state.family, display), tz), days, weather),
    chores: choresOf(s),
    lists: listsOf(s),
    polls: pollsOf(s),
    people: peopleOf(s),
    weatherPlace: weather?.place ?? null,
  };
}

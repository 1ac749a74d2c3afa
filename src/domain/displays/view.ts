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
import type { WeatherCondition } from '../notifications/texts.js';
import type { DisplayContent, DisplayDay, DisplayEvent, DisplayWeatherDay } from './content.js';
import {
  choresOf,
  listsOf,
  displayNamesOf,
  peopleAnsweredFor,
  pollsOf,
  type Scope,
} from './viewItems.js';

export type {
  DisplayChore,
  DisplayContent,
  DisplayDay,
  DisplayEvent,
  DisplayList,
  DisplayPerson,
  DisplayPoll,
  DisplayWeatherDay,
} from './content.js';

/** The forecast the edge fetched for the family's location, by date. */
export interface DisplayWeather {
  place: string;
  /** Each day's forecast; its `condition` is worded in the display's locale. */
  days: Map<string, DisplayWeatherDay & { condition?: WeatherCondition }>;
}

/** A day's forecast, its condition in the display's words ("leichter Regen"). */
function weatherOf(
  voice: Voice,
  day: (DisplayWeatherDay & { condition?: WeatherCondition }) | undefined,
): DisplayWeatherDay | null {
  if (!day) return null;
  const { condition, ...rest } = day;
  if (!condition) return rest;
  return { ...rest, summary: voice.say('notifications', 'condition', { condition }) };
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
function concerns(d: EventData, personIds: ReadonlySet<string>): boolean {
  if (d.ownerPersonId && personIds.has(d.ownerPersonId)) return true;
  if (d.responsiblePersonIds?.some((id) => personIds.has(id))) return true;
  if (d.everyoneAttendance === 'going') return true;
  return Object.entries(d.attendance ?? {}).some(([id, a]) => a !== 'out' && personIds.has(id));
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
  for (const p of peopleAnsweredFor(s)) {
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
  const goingNames = displayNamesOf(state, goingIds(state, d));
  return {
    ...(s.interactive ? { id: e.id, occurrence: e.occurrenceDate ?? null } : {}),
    title: e.title,
    time: at.allDay || at.date !== date ? null : at.time,
    endTime: endTimeOf(d, at, tz),
    endDate: at.endDate !== at.date ? at.endDate : null,
    where: typeof d.where === 'string' && d.where ? d.where : null,
    // The wire's word (docs/display.md): display names of who is going.
    going: goingNames,
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
    key: `display:${[...calendars].join(',')}:${[...s.personIds].join(',')}`,
    test: (d: EventData, calendarKey: string) =>
      (!calendars.size || calendars.has(calendarKey)) &&
      (!s.personIds.size || concerns(d, s.personIds)),
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
      weather: weatherOf(voice, weather?.days.get(date)),
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
    personIds: new Set(display.personIds),
    voice: voiceOf(displayLocale(state.family, display), tz),
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
    days: daysOf(s, s.voice, days, weather),
    chores: choresOf(s),
    lists: listsOf(s),
    polls: pollsOf(s),
    people: peopleAnsweredFor(s),
    weatherPlace: weather?.place ?? null,
  };
}

/**
 * The words of the service's notifications (one text per kind), said in their reader's voice
 * (docs/i18n.md, "Notifications"): every word from the catalog's `notifications` section, days
 * ("Today", "Sat, Nov 28"), times on the locale's clock, lists of names, temperatures and
 * percentages from its formats; all on the family's clock: an event in another zone is shown at
 * the family's time of its start (a 09:00 New York event is "3:00 PM" to a Berlin family).
 * `plain` texts are built from the saved event or routine; `contextual` ones also from live data
 * at firing time: the day's events with attendance and leave-by, chores due, and the weather
 * when the family has a `location` (fetched by the job before it decides, and handed in here).
 * A text is a function of the voice, so that each reader gets it in their own locale.
 */
import { entriesOf } from '../collections/listing.js';
import { listEvents } from '../calendar/listing.js';
import type { EventData } from '../calendar/types.js';
import type { EventView } from '../calendar/events.js';
import { activePerson, goingIds } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import { onFamilyClock } from '../calendar/series.js';
import { addDays, instantToLocal, todayIn } from '../shared/time.js';
import type { Voice } from '../i18n/voice.js';
import { isAllDay, type Occurrence } from './occurrences.js';
import { leaveByOf } from './schedule.js';
import type { RoutineRecord } from './types.js';

/** Kinds of weather a forecast reports (WMO codes grouped; the catalog's `condition`). */
export const WEATHER_CONDITIONS = [
  'clear',
  'mainlyClear',
  'partlyCloudy',
  'overcast',
  'fog',
  'drizzle',
  'freezingRain',
  'lightRain',
  'rain',
  'heavyRain',
  'snow',
  'heavySnow',
  'showers',
  'snowShowers',
  'thunderstorm',
  'hail',
  'other',
] as const;
export type WeatherCondition = (typeof WEATHER_CONDITIONS)[number];

/** Weather for a day at the family's location, as the job fetched it (or why it could not). */
export interface WeatherNote {
  place: string;
  date: string;
  condition?: WeatherCondition;
  /** The condition in English words, for the display's weather line (it words its own). */
  summary?: string;
  minC?: number;
  maxC?: number;
  precipitationProbability?: number;
  /** Why there is no forecast (for the log; the text says only that there is none). */
  error?: string;
}

/** A notification's words. */
export interface Text {
  title: string;
  body: string;
}
/** A text in its reader's voice. */
export type Texts = (voice: Voice) => Text;

const SEP = ' · ';

/** "Today 5:00 PM", "Tomorrow, all day", "Sat, Nov 28 5:00 PM" — relative to `now`. */
export function startText(voice: Voice, d: EventData, now: Date): string {
  const f = voice.formats;
  const at = onFamilyClock(d, f.timeZone);
  const day = f.dayLabel(at.date, todayIn(f.timeZone, now));
  return isAllDay(d) || at.time === null
    ? voice.say('common', 'dayAllDay', { day })
    : voice.say('common', 'dayAt', { day, time: f.time(at.time) });
}

function clock(voice: Voice, ms: number): string {
  return voice.formats.time(instantToLocal(new Date(ms), voice.formats.timeZone).time);
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

function weatherLine(voice: Voice, w: WeatherNote | null | undefined): string | null {
  if (!w) return null;
  const f = voice.formats;
  if (w.error) return voice.say('notifications', 'weatherUnavailable', { place: w.place });
  const parts = [voice.say('notifications', 'condition', { condition: w.condition ?? 'other' })];
  if (w.minC !== undefined && w.maxC !== undefined)
    parts.push(
      voice.say('notifications', 'temperatureRange', {
        low: f.temperature(w.minC),
        high: f.temperature(w.maxC),
      }),
    );
  if (w.precipitationProbability !== undefined)
    parts.push(
      voice.say('notifications', 'rainChance', {
        percent: f.percent(Math.round(w.precipitationProbability)),
      }),
    );
  const forecast = voice.formats.list(parts, 'unit');
  return voice.say('notifications', 'weather', { place: w.place, forecast });
}

/** A reminder: title the event's, body its start, place and leave-by time. */
export function reminderText(
  state: FamilyState,
  o: Occurrence,
  now: Date,
  contextual: boolean,
  weather?: WeatherNote | null,
): Texts {
  return (voice) => {
    const tz = voice.formats.timeZone;
    const parts = [startText(voice, o.data, now)];
    if (o.data.where) parts.push(o.data.where);
    const leave = leaveByOf(o.data, tz);
    if (leave !== null)
      parts.push(voice.say('notifications', 'leaveByAt', { time: clock(voice, leave) }));
    const lines = [parts.join(SEP)];
    if (contextual) {
      const list = (ids: string[]) => voice.formats.list(ids);
      const who = going(state, o.data);
      if (who.length) lines.push(voice.say('notifications', 'going', { names: list(who) }));
      const responsible = names(state, o.data.responsiblePersonIds ?? []);
      if (responsible.length)
        lines.push(voice.say('notifications', 'responsible', { names: list(responsible) }));
      const w = weatherLine(voice, weather);
      if (w) lines.push(w);
    }
    return { title: o.title, body: lines.join('\n') };
  };
}

/** Leave-by: "Leave now for <title>", origin, arrival time. */
export function leaveByText(o: Occurrence): Texts {
  const plan = o.data.travelPlan!;
  const arrive = o.start - (plan.arriveEarlyMinutes ?? 0) * 60_000;
  return (voice) => ({
    title: voice.say('notifications', 'leaveNowTitle', { title: o.title }),
    body: voice.say('notifications', 'leaveNowBody', {
      origin: plan.origin,
      time: clock(voice, arrive),
    }),
  });
}

export function coverageText(o: Occurrence, now: Date): Texts {
  return (voice) => {
    const parts = [startText(voice, o.data, now)];
    if (o.data.where) parts.push(o.data.where);
    return {
      title: voice.say('notifications', 'coverageTitle', { title: o.title }),
      body: parts.join(SEP),
    };
  };
}

/** A check: its task, the event's title (or "a deleted event") and start. */
export function checkText(
  task: string,
  o: Occurrence | null,
  eventTitle: string | null,
  now: Date,
): Texts {
  return (voice) => {
    const title = eventTitle ?? voice.say('notifications', 'deletedEvent');
    return { title: task, body: o ? `${title}${SEP}${startText(voice, o.data, now)}` : title };
  };
}

const ROUTINE_TITLES = {
  briefing: 'briefingTitle',
  digest: 'digestTitle',
  reminder: 'reminderTitle',
} as const;

/** The family's date of a listed event (where it falls on the family's clock). */
function familyDate(state: FamilyState, e: EventView): string {
  return onFamilyClock(e.data as unknown as EventData, state.family.timezone).date;
}

function eventLine(state: FamilyState, voice: Voice, e: EventView): string {
  const tz = voice.formats.timeZone;
  const d = e.data as EventData & { travelPlan?: { leaveAt?: string } };
  const at = onFamilyClock(d, tz);
  const when =
    at.allDay || at.time === null
      ? voice.say('notifications', 'allDay')
      : voice.formats.time(at.time);
  const extra: string[] = [];
  if (d.where) extra.push(String(d.where));
  const who = going(state, d);
  if (who.length)
    extra.push(voice.say('notifications', 'goingLower', { names: voice.formats.list(who) }));
  const leave = leaveByOf(d, tz);
  if (leave !== null)
    extra.push(voice.say('notifications', 'leaveByAt', { time: clock(voice, leave) }));
  return `- ${when} ${e.title}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

/** The chores due by tomorrow, overdue first, then today's, then tomorrow's. */
function choresLine(state: FamilyState, voice: Voice, today: string): string {
  const tomorrow = addDays(today, 1);
  const f = voice.formats;
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
  if (!chores.length) return voice.say('notifications', 'choresNone');
  const items = chores.slice(0, 20).map((c) => {
    const due = c.data.due as string;
    const whose = typeof c.data.assignee === 'string' ? names(state, [c.data.assignee]) : [];
    const when =
      due < today
        ? voice.say('notifications', 'overdueSince', { date: f.date(due) })
        : f.relativeDay(due, today);
    const detail = whose.length
      ? voice.say('notifications', 'choreWhoWhen', { name: f.list(whose), when })
      : when;
    return `${c.title} (${detail})`;
  });
  return voice.say('notifications', 'choresDue', { chores: items.join('; ') });
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
): Texts {
  return (voice) => {
    const title = r.title ?? voice.say('notifications', ROUTINE_TITLES[r.intent]);
    if (r.mode === 'plain') return { title, body: r.message ?? '' };
    const f = voice.formats;
    const today = todayIn(f.timeZone, now);
    const tomorrow = addDays(today, 1);
    const lines: string[] = [];
    if (r.message) lines.push(r.message);
    const events = listEvents(state, { from: today, to: tomorrow, limit: 50 }, now).events;
    for (const date of [today, tomorrow]) {
      const day = events.filter((e) => familyDate(state, e) === date);
      lines.push(
        voice.say('notifications', 'dayHeading', {
          day: f.dayLabel(date, today),
          date: f.date(date),
        }),
      );
      if (!day.length) lines.push(`- ${voice.say('notifications', 'nothingPlanned')}`);
      for (const e of day) lines.push(eventLine(state, voice, e));
    }
    lines.push(choresLine(state, voice, today));
    const w = weatherLine(voice, weather);
    if (w) lines.push(w);
    return { title, body: lines.join('\n') };
  };
}

/** "New in <feed>: <titles>" and how many match. */
export function intakeText(intake: { feedName: string; titles: readonly string[] }): Texts {
  return (voice) => ({
    title: voice.say('notifications', 'intakeTitle', {
      feed: intake.feedName,
      titles: voice.formats.list(intake.titles),
    }),
    body:
      intake.titles.length === 1
        ? voice.say('notifications', 'intakeOne', {
            title: intake.titles[0],
            feed: intake.feedName,
          })
        : voice.say('notifications', 'intakeMany', {
            count: intake.titles.length,
            feed: intake.feedName,
          }),
  });
}

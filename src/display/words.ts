/**
 * How the display writes what its content holds: a day's heading, a short date, an event's
 * times, the weather — every word from the page's catalog (page.ts), every date, time and
 * number through `Intl` in the display's locale (src/locale/displayFormat.ts, shared with the
 * daemon).
 */
import {
  clockTime,
  dayAfter,
  dayAndMonth,
  fullDate,
  numberText,
  shortDate,
  weekdayName,
  headingCase,
} from '../locale/displayFormat.js';
import { t, text } from './page.js';
import type { DisplayMessageKey } from '../domain/displays/text.js';
import { S, type ViewDay, type ViewEvent } from './state.js';

/**
 * A date inside a line: its own message when the date is today ("due today", "para hoy"),
 * else the dated one with "Thu 26 Nov" — languages put an article before a date and none
 * before "today", so the two are whole messages, not a word put into one.
 */
export function onDay(
  date: string,
  today: DisplayMessageKey | null,
  dated: DisplayMessageKey,
): string {
  if (today && S.content && date === S.content.today) return t(today);
  return t(dated, { day: shortDate(date, text) });
}

/** A day's heading, large, and its date below: "Today" over "Thursday 26 November". */
export function dayHeading(date: string): { name: string; date: string } {
  const today = S.content ? S.content.today : null;
  if (date === today) return { name: t('today'), date: fullDate(date, text) };
  if (today && date === dayAfter(today)) return { name: t('tomorrow'), date: fullDate(date, text) };
  return { name: headingCase(weekdayName(date, text), text), date: dayAndMonth(date, text) };
}

/** A time of the content (`HH:mm`) on the locale's clock: "5:00 PM", "17:00". */
export function clock(hhmm: string): string {
  return clockTime(hhmm, text);
}

/** "17:00–18:00", "17:00", or "All day". */
export function when(ev: ViewEvent): string {
  if (!ev.time) return t('allDay');
  return ev.endTime
    ? t('timeRange', { start: clock(ev.time), end: clock(ev.endTime) })
    : clock(ev.time);
}

/** A temperature given in Celsius, as a number in the locale's unit. */
function degrees(celsius: number): string {
  const value = text.temperature === 'fahrenheit' ? (celsius * 9) / 5 + 32 : celsius;
  return numberText(Math.round(value), text);
}

/** "light rain · 3–8 °C · 70% rain"; null without a forecast. */
export function weatherText(w: ViewDay['weather']): string | null {
  if (!w) return null;
  const parts: string[] = [];
  if (w.summary) parts.push(w.summary);
  if (w.minC !== null && w.maxC !== null) {
    const range = text.temperature === 'fahrenheit' ? 'weatherRangeF' : 'weatherRangeC';
    parts.push(t(range, { min: degrees(w.minC), max: degrees(w.maxC) }));
  }
  if (w.precipitationProbability !== null)
    parts.push(
      t('weatherRain', { percent: numberText(Math.round(w.precipitationProbability), text) }),
    );
  return parts.join(t('separator'));
}

/** Names one after the other: "Mum, Leo". */
export function names(xs: string[]): string {
  return xs.join(t('listSeparator'));
}

/**
 * How the display writes what its content holds: a day's heading, a short date, an event's
 * times, the weather — every word from the page's catalog (page.ts), every date through
 * `Intl` in the page's locale (src/locale/displayFormat.ts, shared with the daemon).
 */
import {
  dayAfter,
  dayAndMonth,
  fullDate,
  shortDate,
  weekdayName,
} from '../locale/displayFormat.js';
import { locale, t } from './page.js';
import { S, type ViewDay, type ViewEvent } from './state.js';

/** "today", or "Thu 26 Nov": a date inside a line. */
export function shortDay(date: string): string {
  return S.content && date === S.content.today ? t('todayInline') : shortDate(date, locale);
}

/** A day's heading, large, and its date below: "Today" over "Thursday 26 November". */
export function dayHeading(date: string): { name: string; date: string } {
  const today = S.content ? S.content.today : null;
  if (date === today) return { name: t('today'), date: fullDate(date, locale) };
  if (today && date === dayAfter(today))
    return { name: t('tomorrow'), date: fullDate(date, locale) };
  return { name: weekdayName(date, locale), date: dayAndMonth(date, locale) };
}

/** "17:00–18:00", "17:00", or "All day". */
export function when(ev: ViewEvent): string {
  if (!ev.time) return t('allDay');
  return ev.endTime ? t('timeRange', { start: ev.time, end: ev.endTime }) : ev.time;
}

/** "light rain · 3–8 °C · 70% rain"; null without a forecast. */
export function weatherText(w: ViewDay['weather']): string | null {
  if (!w) return null;
  const parts: string[] = [];
  if (w.summary) parts.push(w.summary);
  if (w.minC !== null && w.maxC !== null)
    parts.push(t('weatherRange', { min: Math.round(w.minC), max: Math.round(w.maxC) }));
  if (w.precipitationProbability !== null)
    parts.push(t('weatherRain', { percent: Math.round(w.precipitationProbability) }));
  return parts.join(t('separator'));
}

/** Names one after the other: "Mum, Leo". */
export function names(xs: string[]): string {
  return xs.join(t('listSeparator'));
}

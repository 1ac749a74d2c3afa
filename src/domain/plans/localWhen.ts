/**
 * A shared plan's times in the family's language (docs/i18n.md): the plan page's HTML reads its
 * dates and times from CLDR through the family's voice — `Sa., 13. Juni 2026, 15:30`,
 * `13.–15. Juni 2026` — where the JSON keeps the contract's English text (clock.ts).
 */
import { PSEUDO_LOCALE } from '../i18n/locale.js';
import { accent } from '../i18n/pseudo.js';
import type { Voice } from '../i18n/voice.js';
import type { Span } from './timing.js';

const DAY: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
};
const RANGE: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
};

const utc = (date: string) => new Date(`${date}T12:00:00Z`);

function intl(voice: Voice, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(voice.locale === PSEUDO_LOCALE ? 'en' : voice.locale, options);
}

const out = (voice: Voice, text: string) => (voice.locale === PSEUDO_LOCALE ? accent(text) : text);

/** A day, or a span of days, as the family writes it; "Not scheduled" without one. */
export function localSpan(voice: Voice, span: Span | null): string {
  if (!span) return voice.say('plan', 'notScheduled');
  if (span.start === span.end) return out(voice, intl(voice, DAY).format(utc(span.start)));
  return out(voice, intl(voice, RANGE).formatRange(utc(span.start), utc(span.end)));
}

/** A timed or all-day item: its day (or days) and its times on the locale's clock. */
export function localItemWhen(
  voice: Voice,
  t: { date: string; endDate: string | null; time: string | null; endTime: string | null },
): string {
  const end = t.endDate && t.endDate > t.date ? t.endDate : t.date;
  if (!t.time) return localSpan(voice, { start: t.date, end });
  const day = (date: string) => localSpan(voice, { start: date, end: date });
  const time = (hhmm: string) => voice.formats.time(hhmm);
  const from = voice.say('plan', 'dayTime', { day: day(t.date), time: time(t.time) });
  if (end !== t.date) {
    const to = t.endTime
      ? voice.say('plan', 'dayTime', { day: day(end), time: time(t.endTime) })
      : day(end);
    return voice.say('plan', 'range', { from, to });
  }
  return t.endTime ? voice.say('plan', 'range', { from, to: time(t.endTime) }) : from;
}

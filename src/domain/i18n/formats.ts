/**
 * Formats from CLDR (docs/i18n.md), never typed by hand: dates, weekday and month names, the
 * locale's 12- or 24-hour clock, relative days, lists, numbers, percentages, temperatures in the
 * unit the locale's region reads, and the first day of its week, all through `Intl`. Dates are
 * the family's calendar dates (`YYYY-MM-DD`) and times its wall-clock times (`HH:mm`): they are
 * formatted as they are, on a UTC clock, so no zone shifts them; instants are formatted on the
 * family's zone. The pseudo-locale formats as English, accented.
 */
import { daysBetween, instantToLocal } from '../shared/time.js';
import { PSEUDO_LOCALE } from './locale.js';
import { accent } from './pseudo.js';

/** Regions whose people read temperatures in Fahrenheit (CLDR's unit preferences, weather). */
const FAHRENHEIT = new Set(['US', 'BS', 'BZ', 'KY', 'PR', 'PW', 'LR', 'FM', 'MH']);

export type DateStyle = 'weekday' | 'dayMonth' | 'weekdayDayMonth' | 'long' | 'full' | 'short';

const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  weekday: { weekday: 'short' },
  dayMonth: { day: 'numeric', month: 'short' },
  weekdayDayMonth: { weekday: 'short', day: 'numeric', month: 'short' },
  long: { day: 'numeric', month: 'long', year: 'numeric' },
  full: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  short: { dateStyle: 'short' },
};

function utcDate(date: string, time = '12:00'): Date {
  return new Date(`${date}T${time}:00Z`);
}

/** A locale's formats on a family's zone. */
export class Formats {
  readonly locale: string;
  readonly timeZone: string;
  private readonly intlLocale: string;
  private readonly pseudo: boolean;
  private readonly cache = new Map<string, Intl.DateTimeFormat>();
  private clock12: boolean | undefined;

  constructor(locale: string, timeZone: string) {
    this.locale = locale;
    this.timeZone = timeZone;
    this.pseudo = locale === PSEUDO_LOCALE;
    this.intlLocale = this.pseudo ? 'en' : locale;
  }

  private out(text: string): string {
    return this.pseudo ? accent(text) : text;
  }

  private dtf(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
    let f = this.cache.get(key);
    if (!f) {
      f = new Intl.DateTimeFormat(this.intlLocale, options);
      this.cache.set(key, f);
    }
    return f;
  }

  /** A calendar date: `Sat, Nov 28` (weekdayDayMonth, en-US), `Sa., 28. Nov.` (de). */
  date(date: string, style: DateStyle = 'weekdayDayMonth'): string {
    const f = this.dtf(`d:${style}`, { ...DATE_OPTIONS[style], timeZone: 'UTC' });
    return this.out(f.format(utcDate(date)));
  }

  /** A wall-clock time `HH:mm` on the locale's clock: `5:00 PM` (en-US), `17:00` (de-DE). */
  time(hhmm: string): string {
    // A 24-hour clock writes the hour in two digits (07:30), a 12-hour one does not (7:30 AM).
    const hour = this.hour12() ? 'numeric' : '2-digit';
    const f = this.dtf('t', { hour, minute: '2-digit', timeZone: 'UTC' });
    return this.out(f.format(new Date(`1970-01-01T${hhmm}:00Z`)));
  }

  /** An instant's time of day on the family's zone, on the locale's clock. */
  instantTime(instant: Date | number): string {
    return this.time(instantToLocal(new Date(instant), this.timeZone).time);
  }

  /** An instant's date and time on the family's zone: `Nov 28, 5:00 PM`. */
  instant(instant: Date | number): string {
    const f = this.dtf('i', {
      day: 'numeric',
      month: 'short',
      hour: this.hour12() ? 'numeric' : '2-digit',
      minute: '2-digit',
      timeZone: this.timeZone,
    });
    return this.out(f.format(new Date(instant)));
  }

  /** A weekday's name by its number (0 Sunday … 6 Saturday). */
  weekdayName(day: number, width: 'long' | 'short' | 'narrow' = 'long'): string {
    // 2023-01-01 was a Sunday.
    const date = `2023-01-0${1 + day}`;
    return this.out(
      this.dtf(`w:${width}`, { weekday: width, timeZone: 'UTC' }).format(utcDate(date)),
    );
  }

  /** A month's name (1 January … 12 December). */
  monthName(month: number, width: 'long' | 'short' = 'long'): string {
    const date = `2023-${String(month).padStart(2, '0')}-15`;
    return this.out(
      this.dtf(`m:${width}`, { month: width, timeZone: 'UTC' }).format(utcDate(date)),
    );
  }

  /** A day relative to today: `today`, `tomorrow`, `in 3 days`, `yesterday`. */
  relativeDay(date: string, today: string): string {
    const f = new Intl.RelativeTimeFormat(this.intlLocale, { numeric: 'auto' });
    return this.out(f.format(daysBetween(today, date), 'day'));
  }

  /** Today or tomorrow relative to `today` (capitalised for the start of a line), else the date. */
  dayLabel(date: string, today: string, style: DateStyle = 'weekdayDayMonth'): string {
    const diff = daysBetween(today, date);
    if (diff === 0 || diff === 1) return capitalise(this.relativeDay(date, today), this.intlLocale);
    return this.date(date, style);
  }

  /**
   * A list: `Ana, Bo and Mia` (conjunction), `Ana, Bo or Mia` (disjunction), `rain, 3°C` (unit:
   * parts of one thing, with the locale's comma).
   */
  list(
    items: readonly string[],
    type: 'conjunction' | 'disjunction' | 'unit' = 'conjunction',
  ): string {
    const f = new Intl.ListFormat(this.intlLocale, { style: 'long', type });
    return this.pseudo ? accentJoin(f, items) : f.format(items);
  }

  number(n: number, maximumFractionDigits = 1): string {
    return new Intl.NumberFormat(this.intlLocale, { maximumFractionDigits }).format(n);
  }

  /** A percentage from a number of percent (`40` → `40 %` in de, `40%` in en). */
  percent(percent: number): string {
    return new Intl.NumberFormat(this.intlLocale, {
      style: 'percent',
      maximumFractionDigits: 0,
    }).format(percent / 100);
  }

  /** Fahrenheit where the locale's region reads it, else Celsius. */
  temperatureUnit(): 'celsius' | 'fahrenheit' {
    const region = new Intl.Locale(this.intlLocale).maximize().region ?? '';
    return FAHRENHEIT.has(region) ? 'fahrenheit' : 'celsius';
  }

  /** A temperature given in Celsius, in the locale's unit: `72°F`, `22 °C`. */
  temperature(celsius: number): string {
    const unit = this.temperatureUnit();
    const value = unit === 'fahrenheit' ? (celsius * 9) / 5 + 32 : celsius;
    return this.out(
      new Intl.NumberFormat(this.intlLocale, {
        style: 'unit',
        unit,
        maximumFractionDigits: 0,
      }).format(value),
    );
  }

  /** The locale's clock: true for 12-hour (`5:00 PM`). */
  hour12(): boolean {
    if (this.clock12 !== undefined) return this.clock12;
    const cycle = new Intl.DateTimeFormat(this.intlLocale, { hour: 'numeric' }).resolvedOptions()
      .hourCycle;
    this.clock12 = cycle === 'h11' || cycle === 'h12';
    return this.clock12;
  }

  /** The first day of the locale's week, 0 Sunday … 6 Saturday (CLDR's week data). */
  firstDayOfWeek(): number {
    const tag = new Intl.Locale(this.intlLocale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const first = (tag.getWeekInfo?.() ?? tag.weekInfo)?.firstDay ?? 1;
    return first % 7;
  }
}

/** The first letter in upper case, as the locale writes it. */
export function capitalise(text: string, locale: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase(locale) + text.slice(head.length);
}

function accentJoin(f: Intl.ListFormat, items: readonly string[]): string {
  return f
    .formatToParts(items)
    .map((p) => (p.type === 'literal' ? accent(p.value) : p.value))
    .join('');
}

const formats = new Map<string, Formats>();

/** The formats of a locale on a zone (kept: a family asks for the same ones again and again). */
export function formatsFor(locale: string, timeZone: string): Formats {
  const id = `${locale}\u0000${timeZone}`;
  let f = formats.get(id);
  if (!f) {
    if (formats.size >= 1_000) formats.clear();
    f = new Formats(locale, timeZone);
    formats.set(id, f);
  }
  return f;
}

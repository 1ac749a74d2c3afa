/** The English catalog's `common` section (common: words several sections share): the source its translations follow. */
export const common = {
  /** A day and time: "Today 5:00 PM", "Sat, Nov 28 5:00 PM". */
  dayAt: '{day} {time}',
  /** An all-day event's day: "Tomorrow, all day". */
  dayAllDay: '{day}, all day',
} satisfies Record<string, string>;

/**
 * The English catalog, the source every other language translates (docs/i18n.md). One section
 * per section; a message is ICU MessageFormat. Keys are camelCase and say what the text is for, not
 * what it says. Each other catalog (`de.ts`, `fr.ts`, …) has exactly these sections and keys.
 */
export const EN = {
  // ── common: words several sections share ──────────────────────────────────────────────────
  common: {
    /** A day and time: "Today 5:00 PM", "Sat, Nov 28 5:00 PM". */
    dayAt: '{day} {time}',
    /** An all-day event's day: "Tomorrow, all day". */
    dayAllDay: '{day}, all day',
  },

  // ── notifications: reminders, digests, briefings, alerts (every channel) ────────────────
  // Texts of the service's own notifications (src/domain/notifications/texts.ts); a start is
  // common.dayAt / dayAllDay, parts of a line are joined with " · ".
  notifications: {
    leaveByAt: 'leave by {time}',
    going: 'Going: {names}',
    responsible: 'Responsible: {names}',
    leaveNowTitle: 'Leave now for {title}',
    leaveNowBody: 'From {origin} · arrive by {time}',
    coverageTitle: 'Nobody is responsible for {title}',
    /** A check whose event was deleted meanwhile. */
    deletedEvent: 'a deleted event',
    briefingTitle: 'Morning briefing',
    digestTitle: 'Digest',
    reminderTitle: 'Reminder',
    /** A day of a briefing: "Today (Wed, Jun 10):". */
    dayHeading: '{day} ({date}):',
    nothingPlanned: 'nothing planned',
    allDay: 'all day',
    /** Inside an event's line of a briefing: "(Pool; going: Ana; leave by 4:30 PM)". */
    goingLower: 'going: {names}',
    choresDue: 'Chores due: {chores}',
    choresNone: 'Chores due: none',
    overdueSince: 'overdue since {date}',
    weather: 'Weather in {place}: {forecast}',
    weatherUnavailable: 'Weather in {place}: no forecast right now',
    temperatureRange: '{low} to {high}',
    rainChance: '{percent} chance of rain',
    /** WMO weather codes, grouped (src/notifications/weather.ts). */
    condition:
      '{condition, select, clear {clear sky} mainlyClear {mainly clear} partlyCloudy {partly cloudy} overcast {overcast} fog {fog} drizzle {drizzle} freezingRain {freezing rain} lightRain {light rain} rain {rain} heavyRain {heavy rain} snow {snow} heavySnow {heavy snow} showers {rain showers} snowShowers {snow showers} thunderstorm {thunderstorm} hail {thunderstorm with hail} other {changeable}}',
    intakeTitle: 'New in {feed}: {titles}',
    intakeOne: '{title} is on the {feed} calendar.',
    intakeMany:
      '{count, plural, one {# event on the {feed} calendar matches} other {# events on the {feed} calendar match}} what you asked to hear about.',
    webhookOffTitle: 'Webhook "{name}" was turned off',
    webhookFailing:
      'Every delivery to {host} has failed for 5 days, so it gets no more events. Fix the receiver, then enable the destination again.',
    webhookGone:
      '{host} answered 410 Gone, so it gets no more events. Enable the destination again if that was a mistake.',
    /** A chore's assignee and when it is due: "Ana, today". */
    choreWhoWhen: '{name}, {when}',
  },

  // ── pages: the household pages, their emails, the consent page ──────────────────────────
  pages: {},

  // ── plan: the plan page and its poll ─────────────────────────────────────────────────────
  plan: {},

  // ── display: the wall display (sent to the browser with the page) ───────────────────────
  display: {},

  // ── names: names the daemon makes up (built-in calendars and lists, feeds) ───────────────
  // The built-in collections a new family gets (src/domain/collections/builtins.ts), named in its
  // locale when seeded; a household's own renaming is kept.
  names: {
    calendar: 'Family calendar',
    calendarDescription: 'The household calendar',
    meals: 'Meals',
    mealsDescription: 'Meal plan: what is cooked when and by whom',
    chores: 'Chores',
    choresDescription: 'Household tasks and who does them',
    routines: 'Routines',
    routinesDescription: 'Daily routines, step by step',
    groceries: 'Groceries',
    groceriesDescription: 'The shopping list',
    notes: 'Notes',
    date: 'Date',
    meal: 'Meal',
    cook: 'Cook',
    recipe: 'Recipe',
    assignee: 'Assignee',
    due: 'Due',
    repeats: 'Repeats',
    person: 'Person',
    timeOfDay: 'Time of day',
    steps: 'Steps',
    quantity: 'Quantity',
    aisle: 'Aisle',
  },
} satisfies Record<string, Record<string, string>>;

/** A catalog: each section of the English one, with exactly its keys. */
export type Catalog = {
  readonly [A in keyof typeof EN]: { readonly [K in keyof (typeof EN)[A]]: string };
};
export type Section = keyof Catalog;

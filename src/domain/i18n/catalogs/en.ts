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
  // The browser fills `{name}` marks itself and has no plural rules (Safari 12 lacks
  // Intl.PluralRules): no plural or select here, and a count reads the same for one and many.
  display: {
    /** The page's title and heading. */
    title: '{family} · {name}',
    clockLabel: 'Time',
    statusLive: 'Live',
    statusLiveWaiting: 'Live · not sent yet: {count}',
    statusOffline: 'Offline since {time} · reconnecting',
    statusOfflineWaiting: 'Offline since {time} · reconnecting · not sent yet: {count}',
    statusGone: 'This display link was turned off',
    ok: 'OK',
    undo: 'Undo',
    notFoundTitle: 'Not found',
    notFoundHeading: 'Nothing here',
    notFoundText: 'This display link was turned off, or the address is mistyped.',
    /** Between the parts of a line ("City pool · Going: Mum"). */
    separator: ' · ',
    /** Between the names of a list of people. */
    listSeparator: ', ',
    today: 'Today',
    tomorrow: 'Tomorrow',
    /** Today inside a sentence ("due today"). */
    todayInline: 'today',
    /** A day's `label` in the content (the daemon writes it): "Today · Thursday, 26 November 2026". */
    labelToday: 'Today · {date}',
    labelTomorrow: 'Tomorrow · {date}',
    allDay: 'All day',
    timeRange: '{start}–{end}',
    going: 'Going: {names}',
    whoIsGoing: 'Who is going?',
    whoIsGoingTo: 'Who is going to {title}',
    until: 'until {day}',
    leaveBy: 'Leave by {time}',
    waiting: 'waiting to be sent',
    answerGoing: '✓ {name}',
    answerOut: '✗ {name}',
    answerMaybe: '? {name}',
    weatherPlace: '{place}: {weather}',
    /** Temperatures: the locale's unit (°F where its region reads it), numbers as it writes them. */
    weatherRangeC: '{min}–{max} °C',
    weatherRangeF: '{min}–{max} °F',
    weatherRain: '{percent}% rain',
    nothingPlanned: 'Nothing planned',
    doneMark: '✓ {title}',
    chores: 'Chores',
    noChores: 'No chores due',
    due: 'due {day}',
    overdueSince: 'overdue since {day}',
    addTo: 'Add to {list}',
    add: 'Add',
    emptyList: 'Nothing on the list',
    polls: 'Polls',
    whoIsVoting: 'Who is voting?',
    whoIsVotingOn: 'Who is voting on {question}',
    noVotes: 'no votes yet',
    now: 'Now: {title} until {time}',
    next: 'Next: {time} {title}',
    nextOnDay: 'Next: {day} {time} {title}',
    nothingMore: 'Nothing more planned',
    tickedOff: 'Ticked off: “{title}”',
    backOn: 'Back on: “{title}”',
    addedTo: 'Added to {list}: “{title}”',
    undoOf: 'Undo: {label}',
    isGoingTo: '{name} is going to {title}',
    isNotGoingTo: '{name} is not going to {title}',
    chooseVoter: 'Choose who is voting first, then the option',
    tookBackVote: '{name} took back the vote',
    votedFor: '{name} voted for {option}',
    notDone: 'Not done — {label}: {error}',
    answered: 'the daemon answered {status}',
    nothingToUndo: 'Nothing to undo — {label}: what it would undo did not go through',
  },

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

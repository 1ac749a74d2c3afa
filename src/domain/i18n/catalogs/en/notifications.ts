/** The English catalog's `notifications` section (notifications: reminders, digests, briefings, alerts (every channel)): the source its translations follow. */
export const notifications = {
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
} satisfies Record<string, string>;

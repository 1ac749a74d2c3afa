/** The `notifications` section of the de catalog, translated from `../en/notifications.ts`. */
import type { Catalog } from '../en.js';

export const notifications: Catalog['notifications'] = {
  leaveByAt: 'Abfahrt {time}',
  going: 'Dabei: {names}',
  responsible: 'Zuständig: {names}',
  leaveNowTitle: 'Jetzt losgehen: {title}',
  leaveNowBody: 'Ab {origin} · bis {time} da sein',
  coverageTitle: 'Niemand kümmert sich um {title}',
  deletedEvent: 'ein gelöschter Termin',
  briefingTitle: 'Morgenüberblick',
  digestTitle: 'Zusammenfassung',
  reminderTitle: 'Erinnerung',
  dayHeading: '{day} ({date}):',
  nothingPlanned: 'nichts geplant',
  allDay: 'ganztägig',
  goingLower: 'dabei: {names}',
  choresDue: 'Fällige Aufgaben: {chores}',
  choresNone: 'Fällige Aufgaben: keine',
  overdueSince: 'überfällig seit {date}',
  weather: 'Wetter in {place}: {forecast}',
  weatherUnavailable: 'Wetter in {place}: gerade keine Vorhersage',
  temperatureRange: '{low} bis {high}',
  rainChance: '{percent} Regenwahrscheinlichkeit',
  condition:
    '{condition, select, clear {klar} mainlyClear {überwiegend klar} partlyCloudy {teilweise bewölkt} overcast {bedeckt} fog {Nebel} drizzle {Nieselregen} freezingRain {gefrierender Regen} lightRain {leichter Regen} rain {Regen} heavyRain {starker Regen} snow {Schnee} heavySnow {starker Schneefall} showers {Regenschauer} snowShowers {Schneeschauer} thunderstorm {Gewitter} hail {Gewitter mit Hagel} other {wechselhaft}}',
  intakeTitle: 'Neu in {feed}: {titles}',
  intakeOne: '{title} steht im Kalender {feed}.',
  intakeMany:
    '{count, plural, one {# Termin im Kalender {feed} passt} other {# Termine im Kalender {feed} passen}} zu dem, worüber ihr Bescheid wissen wolltet.',
  webhookOffTitle: 'Webhook „{name}“ wurde ausgeschaltet',
  webhookFailing:
    'Jede Zustellung an {host} schlägt seit 5 Tagen fehl, deshalb bekommt er keine Ereignisse mehr. Behebt den Fehler beim Empfänger und schaltet das Ziel dann wieder ein.',
  webhookGone:
    '{host} hat mit 410 Gone geantwortet, deshalb bekommt er keine Ereignisse mehr. Schaltet das Ziel wieder ein, falls das ein Versehen war.',
  choreWhoWhen: '{name}, {when}',
};

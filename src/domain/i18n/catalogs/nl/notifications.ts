/** The `notifications` section of the nl catalog, translated from `../en/notifications.ts`. */
import type { Catalog } from '../en.js';

export const notifications: Catalog['notifications'] = {
  leaveByAt: 'vertrek om {time}',
  going: 'Wie gaat: {names}',
  responsible: 'Wie regelt het: {names}',
  leaveNowTitle: 'Tijd om te vertrekken naar {title}',
  leaveNowBody: 'Vanaf {origin} · uiterlijk {time} aankomen',
  coverageTitle: 'Niemand regelt {title}',
  deletedEvent: 'een verwijderde afspraak',
  briefingTitle: 'Ochtendoverzicht',
  digestTitle: 'Overzicht',
  reminderTitle: 'Herinnering',
  dayHeading: '{day} ({date}):',
  nothingPlanned: 'niets gepland',
  allDay: 'hele dag',
  goingLower: 'wie gaat: {names}',
  choresDue: 'Klusjes te doen: {chores}',
  choresNone: 'Klusjes te doen: geen',
  overdueSince: 'te laat sinds {date}',
  weather: 'Weer in {place}: {forecast}',
  weatherUnavailable: 'Weer in {place}: nu geen verwachting',
  temperatureRange: '{low} tot {high}',
  rainChance: '{percent} kans op regen',
  condition:
    '{condition, select, clear {onbewolkt} mainlyClear {overwegend helder} partlyCloudy {half bewolkt} overcast {bewolkt} fog {mist} drizzle {motregen} freezingRain {ijzel} lightRain {lichte regen} rain {regen} heavyRain {zware regen} snow {sneeuw} heavySnow {zware sneeuwval} showers {regenbuien} snowShowers {sneeuwbuien} thunderstorm {onweer} hail {onweer met hagel} other {wisselvallig}}',
  intakeTitle: 'Nieuw in {feed}: {titles}',
  intakeOne: '{title} staat in de agenda {feed}.',
  intakeMany:
    '{count, plural, one {# afspraak in de agenda {feed} past} other {# afspraken in de agenda {feed} passen}} bij waar je over wilde horen.',
  webhookOffTitle: 'Webhook ‘{name}’ is uitgezet',
  webhookFailing:
    'Elke bezorging aan {host} mislukt al 5 dagen, dus die krijgt geen gebeurtenissen meer. Los het probleem bij de ontvanger op en zet de bestemming daarna weer aan.',
  webhookGone:
    '{host} antwoordde 410 Gone, dus die krijgt geen gebeurtenissen meer. Zet de bestemming weer aan als dat een vergissing was.',
  choreWhoWhen: '{name}, {when}',
};

/** The `notifications` section of the fr catalog, translated from `../en/notifications.ts`. */
import type { Catalog } from '../en.js';

export const notifications: Catalog['notifications'] = {
  leaveByAt: 'partir à {time}',
  going: 'Qui y va : {names}',
  responsible: 'Qui s’en charge : {names}',
  leaveNowTitle: 'C’est l’heure de partir pour {title}',
  leaveNowBody: 'Depuis {origin} · arriver avant {time}',
  coverageTitle: 'Personne ne s’occupe de {title}',
  deletedEvent: 'un événement supprimé',
  briefingTitle: 'Le point du matin',
  digestTitle: 'Résumé',
  reminderTitle: 'Rappel',
  dayHeading: '{day} ({date}) :',
  nothingPlanned: 'rien de prévu',
  allDay: 'toute la journée',
  goingLower: 'qui y va : {names}',
  choresDue: 'Tâches à faire : {chores}',
  choresNone: 'Tâches à faire : aucune',
  overdueSince: 'en retard depuis {date}',
  weather: 'Météo à {place} : {forecast}',
  weatherUnavailable: 'Météo à {place} : pas de prévisions pour le moment',
  temperatureRange: 'de {low} à {high}',
  rainChance: '{percent} de risque de pluie',
  condition:
    '{condition, select, clear {ciel dégagé} mainlyClear {plutôt dégagé} partlyCloudy {partiellement nuageux} overcast {couvert} fog {brouillard} drizzle {bruine} freezingRain {pluie verglaçante} lightRain {pluie faible} rain {pluie} heavyRain {forte pluie} snow {neige} heavySnow {fortes chutes de neige} showers {averses} snowShowers {averses de neige} thunderstorm {orage} hail {orage avec grêle} other {variable}}',
  intakeTitle: 'Nouveau dans {feed} : {titles}',
  intakeOne: '{title} est dans le calendrier {feed}.',
  intakeMany:
    '{count, plural, one {# événement du calendrier {feed} correspond} other {# événements du calendrier {feed} correspondent}} à ce que vous vouliez suivre.',
  webhookOffTitle: 'Le webhook « {name} » a été désactivé',
  webhookFailing:
    'Toutes les livraisons vers {host} échouent depuis 5 jours : il ne reçoit plus d’événements. Réparez le destinataire, puis réactivez la destination.',
  webhookGone:
    '{host} a répondu 410 Gone : il ne reçoit plus d’événements. Réactivez la destination si c’était une erreur.',
  choreWhoWhen: '{name}, {when}',
};

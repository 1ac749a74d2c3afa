/** The `notifications` section of the es catalog, translated from `../en/notifications.ts`. */
import type { Catalog } from '../en.js';

export const notifications: Catalog['notifications'] = {
  leaveByAt: 'salir a las {time}',
  going: 'Van: {names}',
  responsible: 'Se encarga: {names}',
  leaveNowTitle: 'Hora de salir para {title}',
  leaveNowBody: 'Desde {origin} · llegar antes de las {time}',
  coverageTitle: 'Nadie se encarga de {title}',
  deletedEvent: 'un evento eliminado',
  briefingTitle: 'Resumen de la mañana',
  digestTitle: 'Resumen',
  reminderTitle: 'Recordatorio',
  dayHeading: '{day} ({date}):',
  nothingPlanned: 'nada previsto',
  allDay: 'todo el día',
  goingLower: 'van: {names}',
  choresDue: 'Tareas pendientes: {chores}',
  choresNone: 'Tareas pendientes: ninguna',
  overdueSince: 'atrasada desde {date}',
  weather: 'El tiempo en {place}: {forecast}',
  weatherUnavailable: 'El tiempo en {place}: ahora mismo no hay previsión',
  temperatureRange: 'de {low} a {high}',
  rainChance: '{percent} de probabilidad de lluvia',
  condition:
    '{condition, select, clear {cielo despejado} mainlyClear {mayormente despejado} partlyCloudy {parcialmente nublado} overcast {cubierto} fog {niebla} drizzle {llovizna} freezingRain {lluvia helada} lightRain {lluvia débil} rain {lluvia} heavyRain {lluvia fuerte} snow {nieve} heavySnow {nevada fuerte} showers {chubascos} snowShowers {chubascos de nieve} thunderstorm {tormenta} hail {tormenta con granizo} other {variable}}',
  intakeTitle: 'Nuevo en {feed}: {titles}',
  intakeOne: '{title} está en el calendario {feed}.',
  intakeMany:
    '{count, plural, one {# evento del calendario {feed} coincide} other {# eventos del calendario {feed} coinciden}} con lo que pediste seguir.',
  webhookOffTitle: 'Se ha desactivado el webhook «{name}»',
  webhookFailing:
    'Todas las entregas a {host} llevan 5 días fallando, así que ya no recibe eventos. Arregla el receptor y vuelve a activar el destino.',
  webhookGone:
    '{host} respondió 410 Gone, así que ya no recibe eventos. Vuelve a activar el destino si fue un error.',
  choreWhoWhen: '{name}, {when}',
};

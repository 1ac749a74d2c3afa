/** The `notifications` section of the pt-BR catalog, translated from `../en/notifications.ts`. */
import type { Catalog } from '../en.js';

export const notifications: Catalog['notifications'] = {
  leaveByAt: 'sair até {time}',
  going: 'Vão: {names}',
  responsible: 'Quem cuida: {names}',
  leaveNowTitle: 'Hora de sair para {title}',
  leaveNowBody: 'De {origin} · chegar até {time}',
  coverageTitle: 'Ninguém está cuidando de {title}',
  deletedEvent: 'um evento excluído',
  briefingTitle: 'Resumo da manhã',
  digestTitle: 'Resumo',
  reminderTitle: 'Lembrete',
  dayHeading: '{day} ({date}):',
  nothingPlanned: 'nada planejado',
  allDay: 'o dia todo',
  goingLower: 'vão: {names}',
  choresDue: 'Tarefas para fazer: {chores}',
  choresNone: 'Tarefas para fazer: nenhuma',
  overdueSince: 'atrasada desde {date}',
  weather: 'Tempo em {place}: {forecast}',
  weatherUnavailable: 'Tempo em {place}: sem previsão no momento',
  temperatureRange: '{low} a {high}',
  rainChance: '{percent} de chance de chuva',
  condition:
    '{condition, select, clear {céu limpo} mainlyClear {predominantemente limpo} partlyCloudy {parcialmente nublado} overcast {nublado} fog {neblina} drizzle {garoa} freezingRain {chuva congelante} lightRain {chuva fraca} rain {chuva} heavyRain {chuva forte} snow {neve} heavySnow {neve forte} showers {pancadas de chuva} snowShowers {pancadas de neve} thunderstorm {trovoada} hail {trovoada com granizo} other {instável}}',
  intakeTitle: 'Novo em {feed}: {titles}',
  intakeOne: '{title} está na agenda {feed}.',
  intakeMany:
    '{count, plural, one {# evento da agenda {feed} corresponde} other {# eventos da agenda {feed} correspondem}} ao que você pediu para acompanhar.',
  webhookOffTitle: 'O webhook “{name}” foi desligado',
  webhookFailing:
    'Todas as entregas para {host} falham há 5 dias, então ele não recebe mais eventos. Corrija o receptor e depois ative o destino de novo.',
  webhookGone:
    '{host} respondeu 410 Gone, então ele não recebe mais eventos. Ative o destino de novo se foi um engano.',
  choreWhoWhen: '{name}, {when}',
};

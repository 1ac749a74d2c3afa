/** The Brazilian Portuguese catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';

export const PT_BR: Catalog = {
  // ── common ──────────────────────────────────────────────────────────────────────────────
  common: {
    dayAt: '{day}, {time}',
    dayAllDay: '{day}, dia inteiro',
  },

  // ── notifications ───────────────────────────────────────────────────────────────────────
  notifications: {
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
  },

  // ── pages ───────────────────────────────────────────────────────────────────────────────
  pages: {},

  // ── plan ────────────────────────────────────────────────────────────────────────────────
  plan: {},

  // ── display ─────────────────────────────────────────────────────────────────────────────
  display: {},

  // ── names ───────────────────────────────────────────────────────────────────────────────
  names: {
    calendar: 'Agenda da família',
    calendarDescription: 'A agenda da casa',
    meals: 'Refeições',
    mealsDescription: 'Cardápio: o que se cozinha, quando e quem cozinha',
    chores: 'Tarefas',
    choresDescription: 'As tarefas da casa e quem faz cada uma',
    routines: 'Rotinas',
    routinesDescription: 'Rotinas do dia a dia, passo a passo',
    groceries: 'Compras',
    groceriesDescription: 'A lista de compras',
    notes: 'Observações',
    date: 'Data',
    meal: 'Refeição',
    cook: 'Quem cozinha',
    recipe: 'Receita',
    assignee: 'Quem faz',
    due: 'Prazo',
    repeats: 'Repete',
    person: 'Pessoa',
    timeOfDay: 'Período do dia',
    steps: 'Passos',
    quantity: 'Quantidade',
    aisle: 'Corredor',
  },
};

/** The Brazilian Portuguese catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';

export const PT_BR: Catalog = {
  // ── common ──────────────────────────────────────────────────────────────────────────────
  common: {
    dayAt: '{day}, {time}',
    dayAllDay: '{day}, dia inteiro',
  },

  // ── notifications ───────────────────────────────────────────────────────────────────────
  notifications: {},

  // ── pages ───────────────────────────────────────────────────────────────────────────────
  pages: {},

  // ── plan ────────────────────────────────────────────────────────────────────────────────
  plan: {},

  // ── display ─────────────────────────────────────────────────────────────────────────────
  display: {
    title: '{family} · {name}',
    clockLabel: 'Hora',
    statusLive: 'Ao vivo',
    statusLiveWaiting: 'Ao vivo · não enviados: {count}',
    statusOffline: 'Sem conexão desde {time} · reconectando',
    statusOfflineWaiting: 'Sem conexão desde {time} · reconectando · não enviados: {count}',
    statusGone: 'Este link da tela foi desativado',
    ok: 'OK',
    undo: 'Desfazer',
    notFoundTitle: 'Não encontrado',
    notFoundHeading: 'Nada por aqui',
    notFoundText: 'Este link da tela foi desativado, ou o endereço está errado.',
    separator: ' · ',
    listSeparator: ', ',
    today: 'Hoje',
    tomorrow: 'Amanhã',
    todayInline: 'hoje',
    labelToday: 'Hoje · {date}',
    labelTomorrow: 'Amanhã · {date}',
    allDay: 'O dia todo',
    timeRange: '{start}–{end}',
    going: 'Vão: {names}',
    whoIsGoing: 'Quem vai?',
    whoIsGoingTo: 'Quem vai a {title}',
    until: 'até {day}',
    leaveBy: 'Sair às {time}',
    waiting: 'aguardando envio',
    answerGoing: '✓ {name}',
    answerOut: '✗ {name}',
    answerMaybe: '? {name}',
    weatherPlace: '{place}: {weather}',
    weatherRangeC: '{min}–{max} °C',
    weatherRangeF: '{min}–{max} °F',
    weatherRain: '{percent}% de chuva',
    nothingPlanned: 'Nada planejado',
    doneMark: '✓ {title}',
    chores: 'Tarefas de casa',
    noChores: 'Nenhuma tarefa pendente',
    due: 'para {day}',
    overdueSince: 'atrasada desde {day}',
    addTo: 'Adicionar a {list}',
    add: 'Adicionar',
    emptyList: 'Nada na lista',
    polls: 'Votações',
    whoIsVoting: 'Quem vai votar?',
    whoIsVotingOn: 'Quem vai votar em {question}',
    noVotes: 'nenhum voto ainda',
    now: 'Agora: {title} até {time}',
    next: 'Depois: {time} {title}',
    nextOnDay: 'Depois: {day} {time} {title}',
    nothingMore: 'Nada mais planejado',
    tickedOff: 'Feito: “{title}”',
    backOn: 'De volta: “{title}”',
    addedTo: 'Adicionado a {list}: “{title}”',
    undoOf: 'Desfazer: {label}',
    isGoingTo: '{name} vai a {title}',
    isNotGoingTo: '{name} não vai a {title}',
    chooseVoter: 'Escolha primeiro quem vota, depois a opção',
    tookBackVote: '{name} retirou o voto',
    votedFor: '{name} votou em {option}',
    notDone: 'Não foi feito — {label}: {error}',
    answered: 'o servidor respondeu {status}',
    nothingToUndo: 'Nada para desfazer — {label}: o que seria desfeito não foi concluído',
  },

  // ── names ───────────────────────────────────────────────────────────────────────────────
  names: {},
};

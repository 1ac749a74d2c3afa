/** The Spanish catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';

export const ES: Catalog = {
  // ── common ──────────────────────────────────────────────────────────────────────────────
  common: {
    dayAt: '{day}, {time}',
    dayAllDay: '{day}, todo el día',
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
    statusLive: 'En directo',
    statusLiveWaiting: 'En directo · sin enviar: {count}',
    statusOffline: 'Sin conexión desde las {time} · reconectando',
    statusOfflineWaiting: 'Sin conexión desde las {time} · reconectando · sin enviar: {count}',
    statusGone: 'Este enlace de pantalla se ha desactivado',
    ok: 'Aceptar',
    undo: 'Deshacer',
    notFoundTitle: 'No encontrado',
    notFoundHeading: 'Aquí no hay nada',
    notFoundText: 'Este enlace de pantalla se ha desactivado o la dirección está mal escrita.',
    separator: ' · ',
    listSeparator: ', ',
    today: 'Hoy',
    tomorrow: 'Mañana',
    todayInline: 'hoy',
    labelToday: 'Hoy · {date}',
    labelTomorrow: 'Mañana · {date}',
    allDay: 'Todo el día',
    timeRange: '{start}–{end}',
    going: 'Van: {names}',
    whoIsGoing: '¿Quién va?',
    whoIsGoingTo: '¿Quién va a {title}?',
    until: 'hasta el {day}',
    leaveBy: 'Salir a las {time}',
    waiting: 'pendiente de envío',
    answerGoing: '✓ {name}',
    answerOut: '✗ {name}',
    answerMaybe: '? {name}',
    weatherPlace: '{place}: {weather}',
    weatherRangeC: '{min}–{max} °C',
    weatherRangeF: '{min}–{max} °F',
    weatherRain: '{percent} % de lluvia',
    nothingPlanned: 'Nada previsto',
    doneMark: '✓ {title}',
    chores: 'Tareas de casa',
    noChores: 'No hay tareas pendientes',
    due: 'para el {day}',
    overdueSince: 'atrasada desde el {day}',
    addTo: 'Añadir a {list}',
    add: 'Añadir',
    emptyList: 'No hay nada en la lista',
    polls: 'Votaciones',
    whoIsVoting: '¿Quién vota?',
    whoIsVotingOn: '¿Quién vota en {question}?',
    noVotes: 'aún sin votos',
    now: 'Ahora: {title} hasta las {time}',
    next: 'Después: {time} {title}',
    nextOnDay: 'Después: {day} {time} {title}',
    nothingMore: 'No hay nada más previsto',
    tickedOff: 'Hecho: «{title}»',
    backOn: 'Pendiente otra vez: «{title}»',
    addedTo: 'Añadido a {list}: «{title}»',
    undoOf: 'Deshacer: {label}',
    isGoingTo: '{name} va a {title}',
    isNotGoingTo: '{name} no va a {title}',
    chooseVoter: 'Elige primero quién vota y luego la opción',
    tookBackVote: '{name} retiró su voto',
    votedFor: '{name} votó por {option}',
    notDone: 'No se hizo — {label}: {error}',
    answered: 'el servidor respondió {status}',
    nothingToUndo: 'Nada que deshacer — {label}: lo que se iba a deshacer no llegó a hacerse',
  },

  // ── names ───────────────────────────────────────────────────────────────────────────────
  names: {},
};

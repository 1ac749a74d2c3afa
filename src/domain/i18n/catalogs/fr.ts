/** The French catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';

export const FR: Catalog = {
  // ── common ──────────────────────────────────────────────────────────────────────────────
  common: {
    dayAt: '{day} à {time}',
    dayAllDay: '{day}, toute la journée',
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
    clockLabel: 'Heure',
    statusLive: 'En direct',
    statusLiveWaiting: 'En direct · pas encore envoyé\u00a0: {count}',
    statusOffline: 'Hors ligne depuis {time} · reconnexion',
    statusOfflineWaiting:
      'Hors ligne depuis {time} · reconnexion · pas encore envoyé\u00a0: {count}',
    statusGone: 'Ce lien d’affichage a été désactivé',
    ok: 'OK',
    undo: 'Annuler',
    notFoundTitle: 'Introuvable',
    notFoundHeading: 'Rien ici',
    notFoundText: 'Ce lien d’affichage a été désactivé, ou l’adresse est mal saisie.',
    separator: ' · ',
    listSeparator: ', ',
    today: 'Aujourd’hui',
    tomorrow: 'Demain',
    todayInline: 'aujourd’hui',
    labelToday: 'Aujourd’hui · {date}',
    labelTomorrow: 'Demain · {date}',
    allDay: 'Toute la journée',
    timeRange: '{start}–{end}',
    going: 'Y vont\u00a0: {names}',
    whoIsGoing: 'Qui y va\u00a0?',
    whoIsGoingTo: 'Qui va à {title}',
    until: 'jusqu’au {day}',
    leaveBy: 'Partir à {time}',
    waiting: 'en attente d’envoi',
    answerGoing: '✓ {name}',
    answerOut: '✗ {name}',
    answerMaybe: '? {name}',
    weatherPlace: '{place}\u00a0: {weather}',
    weatherRangeC: '{min}–{max} °C',
    weatherRangeF: '{min}–{max} °F',
    weatherRain: '{percent}\u00a0% de pluie',
    nothingPlanned: 'Rien de prévu',
    doneMark: '✓ {title}',
    chores: 'Tâches ménagères',
    noChores: 'Aucune tâche à faire',
    due: 'pour {day}',
    overdueSince: 'en retard depuis {day}',
    addTo: 'Ajouter à {list}',
    add: 'Ajouter',
    emptyList: 'Rien sur la liste',
    polls: 'Sondages',
    whoIsVoting: 'Qui vote\u00a0?',
    whoIsVotingOn: 'Qui vote sur {question}',
    noVotes: 'pas encore de vote',
    now: 'En cours\u00a0: {title} jusqu’à {time}',
    next: 'Ensuite\u00a0: {time} {title}',
    nextOnDay: 'Ensuite\u00a0: {day} {time} {title}',
    nothingMore: 'Plus rien de prévu',
    tickedOff: 'Coché\u00a0: «\u00a0{title}\u00a0»',
    backOn: 'Décoché\u00a0: «\u00a0{title}\u00a0»',
    addedTo: 'Ajouté à {list}\u00a0: «\u00a0{title}\u00a0»',
    undoOf: 'Annulation\u00a0: {label}',
    isGoingTo: '{name} va à {title}',
    isNotGoingTo: '{name} ne va pas à {title}',
    chooseVoter: 'Choisissez d’abord qui vote, puis la réponse',
    tookBackVote: '{name} a retiré son vote',
    votedFor: '{name} a voté pour {option}',
    notDone: 'Pas fait — {label}\u00a0: {error}',
    answered: 'le serveur a répondu {status}',
    nothingToUndo: 'Rien à annuler — {label}\u00a0: l’action à annuler n’est pas passée',
  },

  // ── names ───────────────────────────────────────────────────────────────────────────────
  names: {},
};

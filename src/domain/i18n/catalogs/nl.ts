/** The Dutch catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';

export const NL: Catalog = {
  // ── common ──────────────────────────────────────────────────────────────────────────────
  common: {
    dayAt: '{day} {time}',
    dayAllDay: '{day}, hele dag',
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
    clockLabel: 'Tijd',
    statusLive: 'Live',
    statusLiveWaiting: 'Live · nog niet verstuurd: {count}',
    statusOffline: 'Offline sinds {time} · opnieuw verbinden',
    statusOfflineWaiting: 'Offline sinds {time} · opnieuw verbinden · nog niet verstuurd: {count}',
    statusGone: 'Deze schermlink is uitgezet',
    ok: 'OK',
    undo: 'Ongedaan maken',
    notFoundTitle: 'Niet gevonden',
    notFoundHeading: 'Hier is niets',
    notFoundText: 'Deze schermlink is uitgezet, of het adres is verkeerd getypt.',
    separator: ' · ',
    listSeparator: ', ',
    today: 'Vandaag',
    tomorrow: 'Morgen',
    todayInline: 'vandaag',
    labelToday: 'Vandaag · {date}',
    labelTomorrow: 'Morgen · {date}',
    allDay: 'Hele dag',
    timeRange: '{start}–{end}',
    going: 'Gaan: {names}',
    whoIsGoing: 'Wie gaat er mee?',
    whoIsGoingTo: 'Wie gaat er mee naar {title}',
    until: 'tot {day}',
    leaveBy: 'Vertrekken om {time}',
    waiting: 'wordt nog verstuurd',
    answerGoing: '✓ {name}',
    answerOut: '✗ {name}',
    answerMaybe: '? {name}',
    weatherPlace: '{place}: {weather}',
    weatherRangeC: '{min}–{max} °C',
    weatherRangeF: '{min}–{max} °F',
    weatherRain: '{percent}% kans op regen',
    nothingPlanned: 'Niets gepland',
    doneMark: '✓ {title}',
    chores: 'Klusjes',
    noChores: 'Geen klusjes te doen',
    due: 'voor {day}',
    overdueSince: 'te laat sinds {day}',
    addTo: 'Toevoegen aan {list}',
    add: 'Toevoegen',
    emptyList: 'Niets op de lijst',
    polls: 'Stemmingen',
    whoIsVoting: 'Wie stemt er?',
    whoIsVotingOn: 'Wie stemt over {question}',
    noVotes: 'nog geen stemmen',
    now: 'Nu: {title} tot {time}',
    next: 'Hierna: {time} {title}',
    nextOnDay: 'Hierna: {day} {time} {title}',
    nothingMore: 'Verder niets gepland',
    tickedOff: 'Afgevinkt: ‘{title}’',
    backOn: 'Weer open: ‘{title}’',
    addedTo: 'Toegevoegd aan {list}: ‘{title}’',
    undoOf: 'Ongedaan: {label}',
    isGoingTo: '{name} gaat mee naar {title}',
    isNotGoingTo: '{name} gaat niet mee naar {title}',
    chooseVoter: 'Kies eerst wie er stemt, dan de keuze',
    tookBackVote: '{name} heeft de stem ingetrokken',
    votedFor: '{name} heeft gestemd op {option}',
    notDone: 'Niet gelukt — {label}: {error}',
    answered: 'de server antwoordde {status}',
    nothingToUndo:
      'Niets ongedaan te maken — {label}: wat ongedaan zou worden, is niet doorgekomen',
  },

  // ── names ───────────────────────────────────────────────────────────────────────────────
  names: {},
};

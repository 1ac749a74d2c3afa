/** The German catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';

export const DE: Catalog = {
  // ── common ──────────────────────────────────────────────────────────────────────────────
  common: {
    dayAt: '{day} {time}',
    dayAllDay: '{day}, ganztägig',
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
    clockLabel: 'Uhrzeit',
    statusLive: 'Live',
    statusLiveWaiting: 'Live · noch nicht gesendet: {count}',
    statusOffline: 'Offline seit {time} · verbinde neu',
    statusOfflineWaiting: 'Offline seit {time} · verbinde neu · noch nicht gesendet: {count}',
    statusGone: 'Dieser Anzeige-Link wurde abgeschaltet',
    ok: 'OK',
    undo: 'Rückgängig',
    notFoundTitle: 'Nicht gefunden',
    notFoundHeading: 'Hier ist nichts',
    notFoundText:
      'Dieser Anzeige-Link wurde abgeschaltet, oder die Adresse ist falsch geschrieben.',
    separator: ' · ',
    listSeparator: ', ',
    today: 'Heute',
    tomorrow: 'Morgen',
    todayInline: 'heute',
    labelToday: 'Heute · {date}',
    labelTomorrow: 'Morgen · {date}',
    allDay: 'Ganztägig',
    timeRange: '{start}–{end}',
    going: 'Dabei: {names}',
    whoIsGoing: 'Wer kommt mit?',
    whoIsGoingTo: 'Wer kommt mit zu {title}',
    until: 'bis {day}',
    leaveBy: 'Losgehen um {time}',
    waiting: 'wird noch gesendet',
    answerGoing: '✓ {name}',
    answerOut: '✗ {name}',
    answerMaybe: '? {name}',
    weatherPlace: '{place}: {weather}',
    weatherRangeC: '{min}–{max} °C',
    weatherRangeF: '{min}–{max} °F',
    weatherRain: '{percent} % Regen',
    nothingPlanned: 'Nichts geplant',
    doneMark: '✓ {title}',
    chores: 'Haushaltsaufgaben',
    noChores: 'Keine Haushaltsaufgaben fällig',
    due: 'fällig {day}',
    overdueSince: 'überfällig seit {day}',
    addTo: 'Hinzufügen zu: {list}',
    add: 'Hinzufügen',
    emptyList: 'Nichts auf der Liste',
    polls: 'Abstimmungen',
    whoIsVoting: 'Wer stimmt ab?',
    whoIsVotingOn: 'Wer stimmt ab über {question}',
    noVotes: 'noch keine Stimmen',
    now: 'Jetzt: {title} bis {time}',
    next: 'Als Nächstes: {time} {title}',
    nextOnDay: 'Als Nächstes: {day} {time} {title}',
    nothingMore: 'Nichts weiter geplant',
    tickedOff: 'Abgehakt: „{title}“',
    backOn: 'Wieder offen: „{title}“',
    addedTo: 'Hinzugefügt zu {list}: „{title}“',
    undoOf: 'Rückgängig: {label}',
    isGoingTo: '{name} kommt mit zu {title}',
    isNotGoingTo: '{name} kommt nicht mit zu {title}',
    chooseVoter: 'Erst wählen, wer abstimmt, dann die Antwort',
    tookBackVote: '{name} hat die Stimme zurückgenommen',
    votedFor: '{name} hat für {option} gestimmt',
    notDone: 'Nicht erledigt — {label}: {error}',
    answered: 'der Server antwortete {status}',
    nothingToUndo:
      'Nichts rückgängig zu machen — {label}: das Rückgängigzumachende ging nicht durch',
  },

  // ── names ───────────────────────────────────────────────────────────────────────────────
  names: {},
};

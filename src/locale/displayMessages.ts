/**
 * Every word the family display shows, in one catalog: the page the daemon writes
 * (src/public/displayPage.ts) and the script the browser runs (src/display/) read them from
 * here, and the page delivers them to the script with its locale (`DisplayText`), so a language
 * is one catalog away. English for now. `{name}` marks a value filled in by `fill`.
 *
 * Pure and shared: compiled by the daemon's project and the browser's (ES2017, no Node types),
 * so it uses nothing either lacks.
 */
export const DISPLAY_MESSAGES_EN = {
  /** The page's title and heading. */
  title: '{family} · {name}',
  clockLabel: 'Time',
  statusLive: 'Live',
  statusLiveWaiting: 'Live · {count} waiting',
  statusOffline: 'Offline since {time} · reconnecting',
  statusOfflineWaiting: 'Offline since {time} · reconnecting · {count} waiting',
  statusGone: 'This display link was turned off',
  ok: 'OK',
  undo: 'Undo',
  notFoundTitle: 'Not found',
  notFoundHeading: 'Nothing here',
  notFoundText: 'This display link was turned off, or the address is mistyped.',
  /** Between the parts of a line ("City pool · Going: Mum"). */
  separator: ' · ',
  /** Between the names of a list of people. */
  listSeparator: ', ',
  today: 'Today',
  tomorrow: 'Tomorrow',
  /** Today inside a sentence ("due today"). */
  todayInline: 'today',
  allDay: 'All day',
  timeRange: '{start}–{end}',
  going: 'Going: {names}',
  whoIsGoing: 'Who is going?',
  whoIsGoingTo: 'Who is going to {title}',
  until: 'until {day}',
  leaveBy: 'Leave by {time}',
  waiting: 'waiting to be sent',
  answerGoing: '✓ {name}',
  answerOut: '✗ {name}',
  answerMaybe: '? {name}',
  weatherPlace: '{place}: {weather}',
  weatherRange: '{min}–{max} °C',
  weatherRain: '{percent}% rain',
  nothingPlanned: 'Nothing planned',
  doneMark: '✓ {title}',
  tickMark: '✓',
  chores: 'Chores',
  noChores: 'No chores due',
  due: 'due {day}',
  overdueSince: 'overdue since {day}',
  addTo: 'Add to {list}',
  add: 'Add',
  emptyList: 'Nothing on the list',
  polls: 'Polls',
  whoIsVoting: 'Who is voting?',
  whoIsVotingOn: 'Who is voting on {question}',
  noVotes: 'no votes yet',
  now: 'Now: {title} until {time}',
  next: 'Next: {time} {title}',
  nextOnDay: 'Next: {day} {time} {title}',
  nothingMore: 'Nothing more planned',
  tickedOff: 'Ticked off: “{title}”',
  backOn: 'Back on: “{title}”',
  addedTo: 'Added to {list}: “{title}”',
  undoOf: 'Undo: {label}',
  isGoingTo: '{name} is going to {title}',
  isNotGoingTo: '{name} is not going to {title}',
  chooseVoter: 'Choose who is voting first, then the option',
  tookBackVote: '{name} took back the vote',
  votedFor: '{name} voted for {option}',
  notDone: 'Not done — {label}: {error}',
  answered: 'the daemon answered {status}',
  nothingToUndo: 'Nothing to undo — {label}: what it would undo did not go through',
};

/** The key of each word the display shows: the one list every catalog must fill. */
export type DisplayMessageKey = keyof typeof DISPLAY_MESSAGES_EN;
/** A catalog: a text for every key. */
export type DisplayMessages = Record<DisplayMessageKey, string>;

/** What the page delivers to its script besides the content: the catalog and its locale. */
export interface DisplayText {
  /** BCP 47, for `Intl.DateTimeFormat` (day and month names, the order of a date). */
  locale: string;
  messages: DisplayMessages;
}

/** A message with its `{name}` marks filled in (a mark without a value stays as written). */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (mark, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : mark,
  );
}

/**
 * Feed intake (docs/notifications.md, kind `intake_update`): a refresh that adds or changes feed
 * events whose title or description contains one of the feed's hint words is news for the household
 * ("New in <feed name>: <titles>"). No hint, no news.
 *
 * This area only finds what matched; the notifications area turns it into a notification in the
 * same decision through its `onFeedIntake` in src/domain/areas.ts (until it has one, the match is
 * still recorded on the `external_calendar.updated` change-log record as `intake`).
 */
import { areas } from '../areas.js';
import { normalizeText } from '../collections/search.js';
import type { AgendaChange, CommandContext, FamilyState, LogEvent, RecordChange } from '../shared/state.js';
import type { EventRecord } from '../calendar/types.js';
import type { CalendarFeed } from './types.js';

export interface IntakeUpdate {
  sourceId: string;
  feedName: string;
  /** The matching events' titles, in feed order, each once. */
  titles: string[];
  eventIds: string[];
  /** The plain text of the notification: "New in <feed name>: <titles>". */
  title: string;
}

/** The hint's words, folded (case and accents ignored); separated by blanks or commas. */
export function hintWords(hint: string | null): string[] {
  if (!hint) return [];
  return Array.from(new Set(normalizeText(hint).split(/[\s,;]+/).filter(Boolean)));
}

/** Whether one of the words begins a word of the text (`swim` finds "Swimming", not "preswim"). */
export function matchesHint(text: string, words: readonly string[]): boolean {
  if (!words.length) return false;
  const tokens = normalizeText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.some((w) => tokens.some((t) => t.startsWith(w)));
}

/**
 * What a refresh brought that the household asked to hear about: the added and changed events
 * whose title or description matches the feed's hint, or null.
 */
export function intakeUpdate(feed: Pick<CalendarFeed, 'id' | 'name' | 'hint'>, addedOrChanged: readonly EventRecord[]): IntakeUpdate | null {
  const words = hintWords(feed.hint);
  if (!words.length) return null;
  const hits = addedOrChanged.filter((ev) => matchesHint(`${ev.title}\n${ev.data.description ?? ''}`, words));
  if (!hits.length) return null;
  const titles = Array.from(new Set(hits.map((ev) => ev.title)));
  return {
    sourceId: feed.id, feedName: feed.name, titles, eventIds: hits.map((ev) => ev.id),
    title: `New in ${feed.name}: ${titles.join(', ')}`,
  };
}

/** What a registered area adds to the refresh's decision. */
export interface IntakeReaction { changes: RecordChange[]; events: LogEvent[]; agenda?: AgendaChange[] }

/** An area's part in a feed's intake (its `onFeedIntake` in src/domain/areas.ts). */
export type IntakeHook = (state: FamilyState, intake: IntakeUpdate, ctx: CommandContext) => IntakeReaction;

export function reactToFeedIntake(state: FamilyState, intake: IntakeUpdate, ctx: CommandContext): IntakeReaction {
  const out: IntakeReaction = { changes: [], events: [] };
  for (const area of areas()) {
    if (!area.onFeedIntake) continue;
    const r = area.onFeedIntake(state, intake, ctx);
    out.changes.push(...r.changes);
    out.events.push(...r.events);
    if (r.agenda) out.agenda = [...(out.agenda ?? []), ...r.agenda];
  }
  return out;
}

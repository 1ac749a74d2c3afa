/**
 * Feed intake (docs/notifications.md, kind `intake_update`): a refresh that adds or changes feed
 * events whose title or description contains one of the feed's hint words is news for the household
 * ("New in <feed name>: <titles>"). No hint, no news.
 *
 * This area only finds what matched; the notifications area turns it into a notification in the
 * same decision through its `onFeedIntake` in src/domain/areas.ts, reached as
 * `ctx.react.feedIntake` (until it has one, the match is still recorded on the
 * `external_calendar.updated` change-log record as `intake`).
 */
import { normalizeText } from '../collections/search.js';
import type { EventRecord } from '../calendar/types.js';
import type { CalendarFeed, IntakeUpdate } from './types.js';

/** The hint's words, folded (case and accents ignored); separated by blanks or commas. */
export function hintWords(hint: string | null): string[] {
  if (!hint) return [];
  return Array.from(
    new Set(
      normalizeText(hint)
        .split(/[\s,;]+/)
        .filter(Boolean),
    ),
  );
}

/** Whether one of the words begins a word of the text (`swim` finds "Swimming", not "preswim"). */
export function matchesHint(text: string, words: readonly string[]): boolean {
  if (!words.length) return false;
  const tokens = normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words.some((w) => tokens.some((t) => t.startsWith(w)));
}

/**
 * What a refresh brought that the household asked to hear about: the added and changed events
 * whose title or description matches the feed's hint, or null.
 */
export function intakeUpdate(
  feed: Pick<CalendarFeed, 'id' | 'name' | 'hint'>,
  addedOrChanged: readonly EventRecord[],
): IntakeUpdate | null {
  const words = hintWords(feed.hint);
  if (!words.length) return null;
  const hits = addedOrChanged.filter((ev) =>
    matchesHint(`${ev.title}\n${ev.data.description ?? ''}`, words),
  );
  if (!hits.length) return null;
  const titles = Array.from(new Set(hits.map((ev) => ev.title)));
  return {
    sourceId: feed.id,
    feedName: feed.name,
    titles,
    eventIds: hits.map((ev) => ev.id),
    title: `New in ${feed.name}: ${titles.join(', ')}`,
  };
}

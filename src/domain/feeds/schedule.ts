/**
 * When a feed refreshes next (docs/feeds.md): every `calendarFeeds.refreshMinutes`, or the feed's
 * own REFRESH-INTERVAL / X-PUBLISHED-TTL when that is longer (never shorter than the config,
 * never more than a day), plus up to a tenth of the interval of jitter so that feeds linked
 * together do not all refresh in the same second. The jitter is a hash of the feed and the
 * time, not randomness: deciders stay pure.
 */
import type { AgendaChange, AgendaJob } from '../shared/state.js';
import { FEED_REFRESH, MAX_FEED_TTL_MINUTES, type CalendarFeed } from './types.js';

export function refreshJobId(sourceId: string): string {
  return `feed:${sourceId}`;
}

/** A fraction in [0, 1) that depends only on its input. */
function spread(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

/** Minutes between refreshes of this feed. */
export function refreshInterval(
  feed: Pick<CalendarFeed, 'ttlMinutes'>,
  baseMinutes: number,
): number {
  return Math.max(baseMinutes, Math.min(feed.ttlMinutes ?? 0, MAX_FEED_TTL_MINUTES));
}

function job(sourceId: string, dueAt: number): AgendaJob {
  return { id: refreshJobId(sourceId), kind: FEED_REFRESH, dueAt, data: { sourceId } };
}

/** The next scheduled refresh after one at `now`. */
export function scheduleNext(
  feed: Pick<CalendarFeed, 'id' | 'ttlMinutes'>,
  now: Date,
  baseMinutes: number,
): AgendaChange {
  const minutes = refreshInterval(feed, baseMinutes);
  const jitter = Math.floor(spread(`${feed.id}|${now.getTime()}`) * minutes * 6_000);
  return { put: job(feed.id, now.getTime() + minutes * 60_000 + jitter) };
}

/** A refresh due now (asked for through the API). */
export function scheduleNow(sourceId: string, now: Date): AgendaChange {
  return { put: job(sourceId, now.getTime()) };
}

/**
 * After a refresh the scheduler found too late (the daemon was down): not a burst of late
 * refreshes at start, but each one within the next five minutes.
 */
export function scheduleSoon(sourceId: string, now: Date): AgendaChange {
  return {
    put: job(
      sourceId,
      now.getTime() + Math.floor(spread(`${sourceId}|${now.getTime()}`) * 300_000),
    ),
  };
}

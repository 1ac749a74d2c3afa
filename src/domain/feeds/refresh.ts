/**
 * The outcomes of a feed refresh, as commands (docs/feeds.md). The scheduler's handler fetched and
 * parsed first; each command here records what came of it and puts the next refresh on the
 * agenda in the same decision. A feed removed meanwhile makes them no-ops.
 *
 * - new content: merged over the stored events (merge.ts); when something changed, one
 *   `external_calendar.updated` record carries the counts and what matched the hint (intake);
 * - nothing new (304, or the same body hash): only `lastSyncedAt` moves;
 * - a failure: the last good events stay, `lastError` says why.
 * A log record is written when the household-visible state of the feed changes (events, or an
 * error that appears, changes or clears), not for every quiet hourly sync.
 */
import type { Command, Decision, LogEvent } from '../shared/state.js';
import { intakeUpdate } from './intake.js';
import { mergeFeedItems } from './merge.js';
import { scheduleNext, scheduleSoon } from './schedule.js';
import { FEEDS, type CalendarFeed, type FeedSnapshot } from './types.js';
import { feedView, getFeed } from './views.js';
import { noChange } from '../shared/decision.js';

export interface RefreshResult {
  outcome: 'changed' | 'unchanged' | 'failed' | 'missed' | 'gone';
  added?: number;
  changed?: number;
  removed?: number;
}

const gone: Decision<RefreshResult> = noChange({ outcome: 'gone' });

/** Records a fetched and parsed feed: its events merged, validators kept, next refresh put. */
export function applyRefresh(
  sourceId: string,
  snap: FeedSnapshot,
  refreshMinutes: number,
): Command<RefreshResult> {
  return (state, ctx) => {
    const before = getFeed(state, sourceId);
    if (!before) return gone;
    const m = mergeFeedItems(state, before, snap.items, ctx, snap.unchanged);
    const at = ctx.now.toISOString();
    const feed: CalendarFeed = {
      ...before,
      eventCount: m.count,
      calendarName: snap.calendarName,
      lastSyncedAt: at,
      lastError: null,
      lastErrorAt: null,
      ttlMinutes: snap.ttlMinutes,
      zone: snap.zone,
      updatedAt: at,
      // A snapshot that did not match the records it was compared with: read it all next time.
      ...(m.stale
        ? { etag: null, lastModified: null, bodyHash: null }
        : { etag: snap.etag, lastModified: snap.lastModified, bodyHash: snap.bodyHash }),
    };
    const next = scheduleNext(feed, ctx.now, refreshMinutes);
    const counts = { added: m.added.length, changed: m.changed.length, removed: m.removed.length };
    const events: LogEvent[] = [];
    const agenda = [next, ...m.agenda];
    const changes = [{ table: FEEDS, id: sourceId, value: feed }, ...m.changes];
    if (counts.added || counts.changed || counts.removed || before.lastError) {
      // Read again in a new family zone, every event's digest differs: only new ones are news.
      const intake = intakeUpdate(
        feed,
        before.zone === snap.zone ? [...m.added, ...m.changed] : m.added,
      );
      const view = feedView(state, feed, 'put' in next ? next.put.dueAt : null);
      events.push({
        type: 'external_calendar.updated',
        object: {
          ...view,
          refresh: counts,
          ...(intake ? { intake: { titles: intake.titles, eventIds: intake.eventIds } } : {}),
        },
        previous: feedView(state, before),
      });
      events.push(...m.events);
      if (intake) {
        const r = ctx.react.feedIntake(state, intake, ctx);
        changes.push(...r.changes);
        events.push(...r.events);
        agenda.push(...(r.agenda ?? []));
      }
    }
    return { result: { outcome: 'changed', ...counts }, changes, events, agenda };
  };
}

/** The feed answered 304, or the same body as last time: nothing to merge. */
export function applyUnchanged(
  sourceId: string,
  validators: { etag: string | null; lastModified: string | null },
  refreshMinutes: number,
): Command<RefreshResult> {
  return (state, ctx) => {
    const before = getFeed(state, sourceId);
    if (!before) return gone;
    const at = ctx.now.toISOString();
    const feed: CalendarFeed = {
      ...before,
      lastSyncedAt: at,
      lastError: null,
      lastErrorAt: null,
      updatedAt: at,
      etag: validators.etag ?? before.etag,
      lastModified: validators.lastModified ?? before.lastModified,
    };
    const next = scheduleNext(feed, ctx.now, refreshMinutes);
    const events: LogEvent[] = before.lastError
      ? [
          {
            type: 'external_calendar.updated',
            object: feedView(state, feed, 'put' in next ? next.put.dueAt : null),
            previous: feedView(state, before),
          },
        ]
      : [];
    return {
      result: { outcome: 'unchanged' },
      changes: [{ table: FEEDS, id: sourceId, value: feed }],
      events,
      agenda: [next],
    };
  };
}

/** The refresh failed: the events stay as they were; the reason is kept and shown. */
export function applyFailure(
  sourceId: string,
  error: string,
  refreshMinutes: number,
): Command<RefreshResult> {
  return (state, ctx) => {
    const before = getFeed(state, sourceId);
    if (!before) return gone;
    const at = ctx.now.toISOString();
    const feed: CalendarFeed = { ...before, lastError: error, lastErrorAt: at, updatedAt: at };
    const next = scheduleNext(feed, ctx.now, refreshMinutes);
    const events: LogEvent[] =
      before.lastError !== error
        ? [
            {
              type: 'external_calendar.updated',
              object: feedView(state, feed, 'put' in next ? next.put.dueAt : null),
              previous: feedView(state, before),
            },
          ]
        : [];
    return {
      result: { outcome: 'failed' },
      changes: [{ table: FEEDS, id: sourceId, value: feed }],
      events,
      agenda: [next],
    };
  };
}

/** The scheduler found the refresh too late (the daemon was down): skipped, and put again soon. */
export function applyMissed(sourceId: string): Command<RefreshResult> {
  return (state, ctx) => {
    if (!getFeed(state, sourceId)) return gone;
    return noChange({ outcome: 'missed' }, [scheduleSoon(sourceId, ctx.now)]);
  };
}

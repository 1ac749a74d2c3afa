/**
 * The scheduler's handler for the feeds area's job, `feed.refresh` (docs/feeds.md): fetch and
 * parse the feed outside the family's actor (feed I/O lives here, beside the area's other I/O
 * in src/integrations/icsFeed.ts), then fire one command carrying the outcome, which also puts
 * the next refresh on the agenda.
 *
 * 1. A job found too late (the daemon was down) is not acted on: it is put again within a few
 *    minutes, so a restart does not fetch every feed at once.
 * 2. The feed's validators and body hash go along, so an unchanged feed costs a 304 or a hash.
 *    When the family's zone changed since the last read, they are left out and it is read again.
 * 3. The stored events' fingerprints go along too: the reader returns only new and changed events.
 * 4. A failure keeps the last good events and records the reason as the feed's lastError.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { SCHEDULER_CALLER } from '../domain/shared/agenda.js';
import {
  applyFailure,
  applyMissed,
  applyRefresh,
  applyUnchanged,
  type RefreshResult,
} from '../domain/feeds/refresh.js';
import { feedFingerprints, getFeed } from '../domain/feeds/views.js';
import type { Command } from '../domain/shared/state.js';
import type { Egress } from '../integrations/egress.js';
import { FeedError, sharedFeedReader } from '../integrations/icsFeed.js';
import { fireCommand, type JobHandler } from '../scheduler/scheduler.js';
import { noChange } from '../domain/shared/decision.js';

export interface FeedRefreshDeps {
  config: Config;
  egress: Egress;
  now: () => Date;
  logger: Logger;
}

export function feedRefreshHandler(deps: FeedRefreshDeps): JobHandler<'feed.refresh'> {
  const reader = sharedFeedReader({ egress: deps.egress, config: deps.config, now: deps.now });
  const minutes = deps.config.calendarFeeds.refreshMinutes;
  return async (job, { actor, missed }) => {
    const sourceId: unknown = job.data?.sourceId;
    const nothing: Command<RefreshResult> = () => noChange({ outcome: 'gone' });
    if (typeof sourceId !== 'string') {
      await actor.execute(fireCommand(job, nothing), SCHEDULER_CALLER);
      return;
    }
    if (missed) {
      await actor.execute(fireCommand(job, applyMissed(sourceId)), SCHEDULER_CALLER);
      return;
    }
    const found = await actor.read((state) => {
      const feed = getFeed(state, sourceId);
      if (!feed) return null;
      // What is stored, so the reader sends back only what changed.
      return {
        feed,
        fingerprints: feedFingerprints(state, feed),
        zone: state.family.timezone,
        slug: state.family.slug,
      };
    });
    if (!found) {
      await actor.execute(fireCommand(job, nothing), SCHEDULER_CALLER);
      return;
    }
    const { feed, fingerprints, zone, slug } = found;
    const sameZone = feed.zone === zone;
    let command: Command<RefreshResult>;
    try {
      const r = await reader.read({
        url: feed.url,
        credentials: feed.credentials,
        zone,
        background: true,
        known: { sourceId, fingerprints },
        ...(sameZone
          ? { etag: feed.etag, lastModified: feed.lastModified, bodyHash: feed.bodyHash }
          : {}),
      });
      command =
        r.kind === 'unchanged'
          ? applyUnchanged(sourceId, { etag: r.etag, lastModified: r.lastModified }, minutes)
          : applyRefresh(sourceId, r.snapshot, minutes);
    } catch (e) {
      if (!(e instanceof FeedError)) throw e;
      // The daemon is stopping: the job stays due and runs after the next start.
      if (e.kind === 'stopped') return;
      deps.logger.info(
        { family: slug, sourceId, reason: e.message },
        'a calendar feed refresh failed',
      );
      command = applyFailure(sourceId, e.message, minutes);
    }
    await actor.execute(fireCommand(job, command), SCHEDULER_CALLER);
  };
}

/**
 * External calendars (admin scope; docs/feeds.md): link an ICS feed, probe one, list, change the
 * hint, remove, and ask for a refresh.
 *
 * Linking and probing fetch and parse the feed before anything is decided (no I/O inside a
 * command): a feed that cannot be read answers 400 with the reason (link) or `{ok: false,
 * error}` (probe), and nothing is saved.
 */
import { Invalid } from '../../domain/shared/errors.js';
import { DoorError } from '../../door/errors.js';
import {
  assertNameFree,
  decideDeleteFeed,
  decideLinkFeed,
  decideRequestRefresh,
  decideUpdateFeedHint,
} from '../../domain/feeds/feeds.js';
import { readFeedAddress, type FeedAddress } from '../../domain/feeds/url.js';
import { feedView, listFeeds } from '../../domain/feeds/views.js';
import type { FeedSnapshot } from '../../domain/feeds/types.js';
import { FeedError, sharedFeedReader } from '../../integrations/icsFeed.js';
import { route, defineRoutes, type RestServices } from '../route.js';
import {
  FEED_DELETED_RESPONSE,
  FEED_LINKED_RESPONSE,
  FEED_LIST_RESPONSE,
  FEED_PROBE_RESPONSE,
  FEED_REFRESH_RESPONSE,
  FEED_RESPONSE,
  LinkFeedBody,
  ProbeFeedBody,
  UpdateFeedBody,
} from './feeds.schema.js';

const tags = ['External calendars'];
const base = '/calendar/external';

/**
 * Fetches and parses; a feed that cannot be read is a FeedError with the reason. A reader
 * stopped under it (the daemon is stopping) is the daemon's problem, not the feed's: 503.
 */
async function snapshotOf(
  services: RestServices,
  address: FeedAddress,
  zone: string,
): Promise<FeedSnapshot> {
  const reader = sharedFeedReader({
    egress: services.egress,
    config: services.config,
    now: services.now,
  });
  try {
    const r = await reader.read({ url: address.url, credentials: address.credentials, zone });
    if (r.kind !== 'snapshot') throw new FeedError('fetch', 'the feed answered without content'); // no validators were sent
    return r.snapshot;
  } catch (e) {
    if (e instanceof FeedError && e.kind === 'stopped')
      throw new DoorError('unavailable', 'The daemon is stopping; try again shortly');
    throw e;
  }
}

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    scope: 'admin',
    summary: 'List linked external ICS feeds',
    description:
      'Each feed with its calendar, event count, last sync and last error. The URL shows only scheme and host.',
    response: FEED_LIST_RESPONSE,
    handler: ({ family }) =>
      family.read((state) => ({
        ok: true,
        feeds: listFeeds(state).map((f) => feedView(state, f)),
      })),
  }),
  route({
    method: 'post',
    path: base,
    tags,
    scope: 'admin',
    status: 201,
    body: LinkFeedBody,
    summary: 'Link an external ICS feed',
    description:
      'Fetches and parses the feed first (at most `calendarFeeds.maxBytes` after decompression, `calendarFeeds.timeoutMs`, 20,000 events, up to 5 redirects); a feed that cannot be read answers 400 with the reason at `url` and nothing is saved. Creates a read-only calendar collection (`category: calendar`, `sourceId`) holding the events; they refresh every `calendarFeeds.refreshMinutes`. Logs collection.created and external_calendar.created.',
    response: FEED_LINKED_RESPONSE,
    handler: async ({ body, family, services }) => {
      const address = readFeedAddress(body.url);
      // A name already taken is known before the fetch: answer 409 without fetching.
      const name = body.name;
      if (name !== undefined) await family.read((state) => assertNameFree(state, name));
      let snapshot: FeedSnapshot;
      try {
        snapshot = await snapshotOf(services, address, family.info.timezone);
      } catch (e) {
        if (e instanceof FeedError) throw Invalid.at(['url'], e.message);
        throw e;
      }
      return family.execute(
        (state, ctx) =>
          decideLinkFeed(
            state,
            {
              ...(body.name !== undefined ? { name: body.name } : {}),
              ...(body.color ? { color: body.color } : {}),
              hint: body.hint ?? null,
              address,
              snapshot,
              refreshMinutes: services.config.calendarFeeds.refreshMinutes,
            },
            ctx,
          ),
        (r) => ({
          ok: true,
          eventCount: r.feed.eventCount,
          sourceId: r.feed.id,
          calendarKey: r.feed.calendarKey,
          feed: r.view,
        }),
      );
    },
  }),
  route({
    method: 'post',
    path: `${base}/probe`,
    tags,
    scope: 'admin',
    body: ProbeFeedBody,
    summary: 'Check whether an ICS URL can be read',
    description:
      'Fetches and parses like linking, saves nothing. A feed that cannot be read answers 200 `{ok: false, error}`; a URL that is not an http, https or webcal URL answers 400.',
    response: FEED_PROBE_RESPONSE,
    handler: async ({ body, family, services }) => {
      const address = readFeedAddress(body.url);
      try {
        const s = await snapshotOf(services, address, family.info.timezone);
        return { ok: true, eventCount: s.items.length, calendarName: s.calendarName };
      } catch (e) {
        if (e instanceof FeedError) return { ok: false, error: e.message };
        throw e;
      }
    },
  }),
  route({
    method: 'patch',
    path: `${base}/:sourceId`,
    tags,
    scope: 'admin',
    body: UpdateFeedBody,
    summary: "Change a feed's hint",
    description:
      'Only `hint` can be changed (other fields answer 400). Logs external_calendar.updated when it changed.',
    response: FEED_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideUpdateFeedHint(state, params.sourceId, body.hint, ctx),
        (view) => ({ ok: true, feed: view }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:sourceId`,
    tags,
    scope: 'admin',
    summary: 'Remove a feed and its synced calendar',
    description:
      'Removes the feed, its calendar and its events; plans drop their links to them. Logs collection.deleted and external_calendar.deleted.',
    response: FEED_DELETED_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideDeleteFeed(state, params.sourceId, ctx),
        (r) => ({
          ok: true,
          sourceId: r.view.sourceId,
          deletedEvents: r.deletedEvents,
          feed: r.view,
        }),
      ),
  }),
  route({
    method: 'post',
    path: `${base}/:sourceId/refresh`,
    tags,
    scope: 'admin',
    summary: 'Request a refresh of a feed',
    description:
      "Queues a refresh due now and answers at once; the feed's `lastSyncedAt` and `lastError` show how it went. Logs external_calendar.refresh_requested.",
    response: FEED_REFRESH_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideRequestRefresh(state, params.sourceId, ctx),
        (view) => ({ ok: true, sourceId: view.sourceId, queued: true, feed: view }),
      ),
  }),
]);

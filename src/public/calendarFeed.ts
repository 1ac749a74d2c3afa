/**
 * The public ICS feed of a calendar share: `GET /share/calendar/<token>.ics`, no API key
 * (docs/feeds.md). The token's hash finds the family through the family registry; an unknown,
 * malformed or revoked token answers 404, whichever it is (nothing leaks).
 */
import { NotFound } from '../domain/shared/errors.js';
import { renderShare, shareByTokenHash } from '../domain/calendar/shares.js';
import { calendarShareToken } from '../family/shareTokens.js';
import { route, defineRoutes, withStatus } from './route.js';
import { readShared } from './shared.js';

export default defineRoutes([
  route({
    method: 'get',
    path: '/share/calendar/:file',
    family: false,
    scope: 'public',
    tags: ['Calendar shares'],
    summary: 'A calendar share as an RFC 5545 feed',
    description:
      "The shared events as text/calendar with RRULE, EXDATE and RECURRENCE-ID overrides, times in the family's zone with a VTIMEZONE, named by the share (X-WR-CALNAME). Answers 404 for an unknown or revoked token.",
    produces: 'text/calendar',
    response: { type: 'string' },
    handler: async ({ koa, params, services }) => {
      const gone = () => new NotFound('No calendar share at this address');
      // The token, with `.ics` or without.
      const hash = calendarShareToken.hashOf((params.file ?? '').replace(/\.ics$/, ''));
      if (!hash) throw gone();
      const body = await readShared(koa, services, hash, (state) => {
        const share = shareByTokenHash(state, hash);
        return share ? renderShare(state, share, services.now()) : null;
      });
      if (body === null) throw gone();
      return withStatus(200, body, { 'cache-control': 'no-cache', 'x-robots-tag': 'noindex' });
    },
  }),
]);

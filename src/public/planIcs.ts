/**
 * The shared plan's schedule as a calendar file: `GET /p/<token>.ics`, no API key, linked from
 * the page as "Add to my calendar". The same token and the same rules as the page: it carries
 * what the page shows and nothing more (src/domain/plans/ics.ts says what that is).
 */ import { NotFound } from '../domain/shared/errors.js';
import { renderPlanIcs } from '../domain/plans/ics.js';
import { route, defineRoutes, withStatus } from './route.js';
import { HEADERS } from './planPage.js';
import { readSharedPlan } from './shared.js';

/** An ASCII file name from the plan's title, for the download. */
function fileName(title: string): string {
  const ascii = title
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${ascii || 'plan'}.ics`;
}

export default defineRoutes([
  route({
    // Before /p/:token, which would otherwise take "<token>.ics" as its token.
    method: 'get',
    path: '/p/:token.ics',
    family: false,
    scope: 'public',
    tags: ['Plans'],
    summary: "A shared plan's schedule as a calendar file",
    description:
      "No API key: the page's token is the credential. The plan's linked events as text/calendar, as the page shows them: times in the family's zone (with a VTIMEZONE), the event's title only when its details are shared (else the plan's title), the location only when shared too, no notes. UIDs are stable, so importing again updates the same events. Unknown or disabled → 404.",
    produces: 'text/calendar',
    response: { type: 'string', description: 'An RFC 5545 calendar' },
    handler: async ({ koa, params, services }) => {
      const gone = () => new NotFound('No shared plan at this address');
      const found = await readSharedPlan(koa, services, params.token ?? '', (state, plan) => ({
        text: renderPlanIcs(state, plan, services.now()),
        name: fileName(plan.title),
      }));
      if (!found) throw gone();
      const { 'content-security-policy': _csp, vary: _vary, ...headers } = HEADERS;
      return withStatus(200, found.text, {
        ...headers,
        'content-disposition': `attachment; filename="${found.name}"`,
      });
    },
  }),
]);

/**
 * Checks: a task to be reminded of ahead of a calendar event (docs/notifications.md).
 */
import { route, defineRoutes } from '../route.js';
import { decideCreateCheck } from '../../domain/notifications/checks.js';
import { CHECK_RESPONSE, CreateCheckBody } from './checks.schema.js';

export default defineRoutes([
  route({
    method: 'post',
    path: '/checks',
    tags: ['Notifications'],
    status: 201,
    body: CreateCheckBody,
    summary: 'Schedule a check ahead of a calendar event',
    description:
      "Runs once, `leadHours` before the event's next start (at once when that is already past), sending `task` as a notification whose triggerId is the check's. It follows the event when the event moves and is gone when the event is deleted. An event with no start still to come answers 409. Logs calendar.check.created.",
    errors: [409],
    response: CHECK_RESPONSE,
    handler: ({ body, family }) =>
      family.execute(
        (state, ctx) => decideCreateCheck(state, body, ctx),
        (r) => ({
          ok: true,
          eventId: r.check.eventId,
          triggerId: r.check.id,
          leadHours: r.check.leadHours,
          runAt: r.runAt,
          occurrenceDate: r.occurrenceDate,
          task: r.check.task,
        }),
      ),
  }),
]);

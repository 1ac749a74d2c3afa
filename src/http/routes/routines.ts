/**
 * Notification routines: a cron pattern in a time zone that sends a briefing, a reminder or a
 * digest (docs/notifications.md). Admin scope.
 */
import { route, defineRoutes } from '../route.js';
import {
  decideCreateRoutine,
  decideDeleteRoutine,
  decideUpdateRoutine,
  listRoutines,
  routineView,
} from '../../domain/notifications/routines.js';
import {
  CreateRoutineBody,
  ROUTINE_DELETE_RESPONSE,
  ROUTINE_RESPONSE,
  ROUTINES_RESPONSE,
  UpdateRoutineBody,
} from './routines.schema.js';

const tags = ['Notifications'];
const base = '/notification-routines';

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    scope: 'admin',
    summary: 'List notification routines',
    description: 'Oldest first, each with `nextRunAt` (null when disabled) and `lastRunAt`.',
    response: ROUTINES_RESPONSE,
    handler: ({ family }) =>
      family.read((state) => ({
        ok: true,
        routines: listRoutines(state).map((r) => routineView(state, r)),
      })),
  }),
  route({
    method: 'post',
    path: base,
    tags,
    scope: 'admin',
    status: 201,
    body: CreateRoutineBody,
    summary: 'Create a notification routine',
    description:
      "Defaults: cron `0 7 * * *`, intent briefing, mode plain, channels [in_app], enabled, the family's time zone. An invalid cron or time zone answers 400 naming the field. It fires at each cron time in its zone: a time a DST change skips fires once at the next valid minute, a fixed time in a repeated hour once. `plain` sends `title`/`message`; `contextual` writes a briefing from live data (today's and tomorrow's events with attendance and leave-by, chores due, the weather at the family's location). Logs notification_routine.created.",
    response: ROUTINE_RESPONSE,
    handler: ({ body, family }) =>
      family.execute(
        (state, ctx) => decideCreateRoutine(state, body, ctx),
        (r, s) => ({ ok: true, routine: routineView(s, r) }),
      ),
  }),
  route({
    method: 'patch',
    path: `${base}/:triggerId`,
    tags,
    scope: 'admin',
    body: UpdateRoutineBody,
    summary: 'Change a notification routine',
    description:
      'Send only the fields to change; `title` and `message` may be null. A new cron, time zone or isEnabled moves the next run in the same write. Logs notification_routine.updated.',
    response: ROUTINE_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideUpdateRoutine(state, params.triggerId, body, ctx),
        (r, s) => ({ ok: true, routine: routineView(s, r) }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:triggerId`,
    tags,
    scope: 'admin',
    summary: 'Delete a notification routine',
    description: 'Its next run goes with it. Logs notification_routine.deleted.',
    response: ROUTINE_DELETE_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideDeleteRoutine(state, params.triggerId, ctx),
        (r) => ({ ok: true, routineId: r.id }),
      ),
  }),
]);

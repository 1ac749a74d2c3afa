/**
 * Calendar events: list (expanding series inside a from/to window), create, update (a series
 * or one occurrence), delete (a series or one occurrence).
 */
import { route, defineRoutes } from '../route.js';
import { decideCreateEvent, eventView, occurrenceView } from '../../domain/calendar/events.js';
import { listEvents } from '../../domain/calendar/listing.js';
import {
  decideDeleteEventScoped,
  decideUpdateEvent,
  type EventChange,
} from '../../domain/calendar/occurrences.js';
import type { FamilyState } from '../../domain/shared/state.js';
import {
  CreateEventBody,
  DeleteEventQuery,
  EVENT_CREATED_RESPONSE,
  EVENT_LIST_RESPONSE,
  EVENT_RESPONSE,
  ListEventsQuery,
  UpdateEventBody,
} from './calendar.schema.js';

const tags = ['Calendar events'];
const base = '/calendar/events';

function changeView(state: FamilyState, c: EventChange) {
  return c.occurrenceDate
    ? occurrenceView(state, c.event, c.occurrenceDate)
    : eventView(state, c.event);
}

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    query: ListEventsQuery,
    summary: 'List calendar events',
    description:
      "With both `from` and `to` (inclusive dates), repeating series are expanded into the occurrences that overlap the window; each carries the series `id` and its `occurrenceDate`. Sorted by date, all-day first, then time. `limit` applies after expansion; `nextCursor` continues the list. With one bound or none, events (series unexpanded) whose span meets the bounds are listed in date order. Without `status`, archived events are left out. `excludeEnded=true` leaves out events (occurrences) already over in the family's time zone.",
    response: EVENT_LIST_RESPONSE,
    handler: ({ query, family, services }) =>
      family.read((state) => {
        const page = listEvents(state, query, services.now());
        return {
          ok: true,
          events: page.events,
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        };
      }),
  }),
  route({
    method: 'post',
    path: base,
    tags,
    status: 201,
    body: CreateEventBody,
    summary: 'Create an event (one-off, multi-day or repeating)',
    description:
      'Stored as an entry of a calendar collection (`calendarKey`, default `calendar`). Person ids must be people of the family. Logs calendar.event.created.',
    response: EVENT_CREATED_RESPONSE,
    handler: ({ body, family }) =>
      family.execute(
        (state, ctx) => decideCreateEvent(state, body, ctx),
        (ev, s) => ({ ok: true, entryId: ev.id, title: ev.title, event: eventView(s, ev) }),
      ),
  }),
  route({
    method: 'patch',
    path: `${base}/:eventId`,
    tags,
    body: UpdateEventBody,
    summary: 'Update an event, or one occurrence of a series',
    description:
      '`editScope=occurrence` with `occurrenceDate` changes one occurrence (kept as an exception on the series; the response shows that occurrence); a date that is not an occurrence answers 404. Default scope: series. Events of external feeds keep their feed-owned fields (409).',
    response: EVENT_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideUpdateEvent(state, params.eventId, body, ctx),
        (done, s) => ({ ok: true, event: changeView(s, done) }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:eventId`,
    tags,
    query: DeleteEventQuery,
    summary: 'Delete an event, or one occurrence of a series',
    description:
      'Deletes the whole series (default), or with `editScope=occurrence&occurrenceDate=…` that one date. Deleting an event unlinks it from plans.',
    response: EVENT_RESPONSE,
    handler: ({ params, query, family }) =>
      family.execute(
        (state, ctx) => decideDeleteEventScoped(state, params.eventId, query, ctx),
        (done, s) => ({ ok: true, event: changeView(s, done) }),
      ),
  }),
]);

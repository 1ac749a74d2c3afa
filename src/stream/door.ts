/**
 * The live change stream's door (docs/api.md, "Live change stream"): the stream itself and the
 * tickets a browser opens it with. Its routes sit under REST's family paths and answer errors
 * in the same JSON form; a browser's ticket is a credential kind of the door core's.
 */
import { Invalid } from '../domain/shared/errors.js';
import { DoorError } from '../door/errors.js';
import { familyOfRoute, type Door } from '../door/door.js';
import { renderJson } from '../door/jsonForm.js';
import {
  defineRoutes,
  FAMILY_PREFIX,
  routeFor,
  withStatus,
  type CoreServices,
} from '../door/route.js';
import { S } from '../door/schema.js';
import { Refused, type StreamHub } from './hub.js';
import { TICKET_PATTERN, type StreamTickets } from './tickets.js';

/** What the stream's handlers use besides the core's. */
export interface StreamServices extends CoreServices {
  stream: { hub: StreamHub; tickets: StreamTickets };
}

const route = routeFor<StreamServices>();

const tags = ['Changes'];

const routes = defineRoutes([
  route({
    method: 'get',
    path: '/changes/stream',
    tags,
    scope: 'read',
    ticketed: true,
    summary: 'The change log, live (server-sent events)',
    description:
      'Answers `text/event-stream`: every change-log record, once it is durable and in order, as ' +
      '`id: <seq>`, `event: <type>`, `data: <the record as GET …/changes shows it>`. ' +
      'A `Last-Event-ID` header resumes right after that record (it wins over `after`); without either the stream ' +
      "starts at the log's end. Missed records come first, then live ones. A comment line (`: keep-alive`) " +
      'comes every `stream.heartbeatSeconds`. A reader whose connection stops taking data while the family moves ' +
      'more than `stream.maxBacklog` records past it gets `event: dropped` (data `{after, head}`) and is closed: ' +
      'resume with `GET …/changes?after=` and reconnect. At most `stream.perKey` streams per key are open at once ' +
      '(429 past it). A browser (EventSource cannot send headers) passes `ticket` from ' +
      '`POST …/changes/stream-tickets` instead of the key.',
    query: S.object({
      after: S.optional(
        S.integer(0, undefined, {
          description: 'Start after this seq (when no Last-Event-ID header is sent)',
        }),
      ),
      ticket: S.optional(
        S.string({
          max: 100,
          description:
            'A ticket from POST …/changes/stream-tickets, in place of x-api-key (one connection, one minute)',
        }),
      ),
    }),
    produces: 'text/event-stream',
    response: { type: 'string', description: 'Server-sent events, one per change-log record' },
    errors: [503],
    handler: ({ koa, query, family, caller, services }) => {
      const header = koa.get('last-event-id').trim();
      let after: number | null = query.after ?? null;
      if (header !== '') {
        if (!/^\d{1,15}$/.test(header))
          throw Invalid.at(
            ['headers', 'Last-Event-ID'],
            'must be the seq of a change-log record (a whole number)',
          );
        after = Number(header);
      }
      try {
        services.stream.hub.open(koa.req, koa.res, {
          familyId: family.info.id,
          keyId: caller.keyId,
          after,
        });
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        if (err.reason === 'per_key')
          throw new DoorError('rate_limited', err.message, { headers: { 'Retry-After': '5' } });
        if (err.reason === 'closing')
          throw new DoorError('unavailable', err.message, { headers: { 'Retry-After': '5' } });
        throw Invalid.at(
          header !== '' ? ['headers', 'Last-Event-ID'] : ['query', 'after'],
          err.message,
        );
      }
      // The hub writes the answer itself from here on.
      koa.respond = false;
      return withStatus(200, undefined);
    },
  }),
  {
    method: 'post',
    path: '/changes/stream-tickets',
    tags,
    scope: 'read',
    status: 201,
    summary: 'A one-minute ticket to open the change stream from a browser',
    description:
      'EventSource cannot send x-api-key: pass the ticket as `?ticket=` on `GET …/changes/stream` instead. ' +
      'A ticket opens one stream, within one minute; it acts as the key that asked for it. Only its hash is kept.',
    response: {
      type: 'object',
      required: ['ok', 'ticket', 'expiresAt'],
      properties: {
        ok: { const: true },
        ticket: { type: 'string', pattern: TICKET_PATTERN },
        expiresAt: { type: 'string', format: 'date-time' },
        url: {
          type: 'string',
          description: "The stream's address with the ticket, relative to the server",
        },
      },
      examples: [
        {
          ok: true,
          ticket: 'stk_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH',
          expiresAt: '2026-11-22T08:31:00.000Z',
          url: '/api/v1/families/home/changes/stream?ticket=stk_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH',
        },
      ],
    },
    handler: ({ family, caller, services }) => {
      const { ticket, expiresAt } = services.stream.tickets.issue(caller.keyId, family.info.id);
      return {
        ok: true,
        ticket,
        expiresAt: new Date(expiresAt).toISOString(),
        url: `/api/v1/families/${family.info.slug}/changes/stream?ticket=${ticket}`,
      };
    },
  },
]);

/** The live stream's door: its two routes, answered in REST's JSON form. */
export function streamDoor(): Door<StreamServices> {
  return {
    name: 'stream',
    prefixes: [`${FAMILY_PREFIX}/changes/stream`, `${FAMILY_PREFIX}/changes/stream-tickets`],
    familyOf: familyOfRoute,
    render: renderJson,
    routes,
  };
}

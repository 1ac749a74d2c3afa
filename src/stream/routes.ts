/**
 * The live change stream's doors (docs/api.md, "Live change stream"): the stream itself and the
 * tickets a browser opens it with.
 */
import { Invalid } from '../domain/shared/errors.js';
import { HttpError } from '../http/errors.js';
import { defineRoutes, withStatus } from '../http/route.js';
import { S } from '../http/schema.js';
import { Refused } from './hub.js';
import { TICKET_PATTERN } from './tickets.js';

const tags = ['Changes'];

export default defineRoutes([
  {
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
    handler: ({ koa, query, family, key, services }) => {
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
          keyId: key.id,
          after,
        });
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        if (err.reason === 'per_key')
          throw new HttpError(429, 'rate_limited', err.message, undefined, { 'Retry-After': '5' });
        if (err.reason === 'closing')
          throw new HttpError(503, 'unavailable', err.message, undefined, { 'Retry-After': '5' });
        throw Invalid.at(
          header !== '' ? ['headers', 'Last-Event-ID'] : ['query', 'after'],
          err.message,
        );
      }
      // The hub writes the answer itself from here on.
      koa.respond = false;
      return withStatus(200, undefined);
    },
  },
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
    handler: ({ family, key, services }) => {
      const { ticket, expiresAt } = services.stream.tickets.issue(key.id, family.info.id);
      return {
        ok: true,
        ticket,
        expiresAt: new Date(expiresAt).toISOString(),
        url: `/api/v1/families/${family.info.slug}/changes/stream?ticket=${ticket}`,
      };
    },
  },
]);

/**
 * Request id and the one log line per request: method, route template, status, duration,
 * family and key id, the client's address (behind a trusted proxy, the one it reports) and user
 * agent — never a key, a token or a body. A request no route matched (an unknown path, a 405)
 * logs its path instead of a template: without the query string, and with the tokens of token
 * pages and anything shaped like a key or token cut out (and the logger scrubs every line of
 * credential shapes again as it writes it). A failed request's error is
 * logged by name, message, code and stack only: pino's error serializer would copy every
 * property, and errors from parsers and HTTP clients carry the body they choked on (`body`,
 * `rawBody`).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DoorMiddleware } from './state.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const USER_AGENT_MAX = 200;
const PATH_MAX = 200;
/**
 * Pages whose next path segment is a token: the token is the page's credential (shared plans,
 * calendar share feeds, family displays, device pairing links).
 */
const TOKEN_PAGES = ['/p/', '/share/calendar/', '/display/', '/pair/'];
/**
 * A segment holding something shaped like a credential: an API key, an OAuth code, token or
 * client secret, a share, plan or display token, a stream ticket, a webhook secret (the same
 * prefixes the logger scrubs from every line, src/logger.ts).
 */
const SECRET_SEGMENT = /(?:hk|hoc|hoa|hor|hcs|shr|pln|dsp|stk|whsec)_[0-9A-Za-z]/i;

/** A path fit for the log: share tokens and key-like segments replaced, at most 200 characters. */
export function loggablePath(path: string): string {
  const segments = path.split('/');
  let prefix = '';
  const out = segments
    .map((segment, i) => {
      const redact =
        (i > 0 && TOKEN_PAGES.includes(`${prefix}/`.toLowerCase()) && segment !== '') ||
        SECRET_SEGMENT.test(segment);
      prefix = i === 0 ? segment : `${prefix}/${segment}`;
      return redact ? ':redacted' : segment;
    })
    .join('/');
  return out.length > PATH_MAX ? `${out.slice(0, PATH_MAX)}…` : out;
}

export function requestLog(logger: Logger): DoorMiddleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const id = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('x-request-id', id);
    try {
      await next();
    } finally {
      if (ctx.state.error || logger.isLevelEnabled('info')) writeLine();
    }

    function writeLine(): void {
      const durationMs = Number(process.hrtime.bigint() - start) / 1e6;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute;
      const line: Record<string, unknown> = {
        requestId: id,
        method: ctx.method,
        route: typeof route === 'string' ? route : null,
        ...(typeof route === 'string' ? {} : { path: loggablePath(ctx.path) }),
        status: ctx.status,
        durationMs: Math.round(durationMs * 100) / 100,
        family: (ctx.state.family ?? ctx.state.caller?.family)?.slug ?? null,
        keyId: ctx.state.caller?.keyId ?? null,
        ip: ctx.ip,
        userAgent: ctx.get('user-agent').slice(0, USER_AGENT_MAX) || null,
      };
      if (ctx.state.error) {
        // Not under `err`: pino's error serializer would copy every property of what it is given.
        logger.error({ ...line, error: loggableError(ctx.state.error) }, 'request failed');
      } else {
        logger.info(line, 'request');
      }
    }
  };
}

const MESSAGE_MAX = 500;
const STACK_MAX = 4000;

/** The parts of an error worth a log line, and nothing that could hold request data. */
export function loggableError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err, message: 'a non-Error value was thrown' };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: err.message.slice(0, MESSAGE_MAX),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(err.stack ? { stack: err.stack.slice(0, STACK_MAX) } : {}),
  };
}

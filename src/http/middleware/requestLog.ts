/**
 * Request id and the one log line per request: method, route template, status, duration,
 * family and key id — never a key, a token or a body. A failed request's error is logged by
 * name, message, code and stack only: pino's error serializer would copy every property, and
 * errors from parsers and HTTP clients carry the body they choked on (`body`, `rawBody`).
 */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(logger: Logger): Koa.Middleware {
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
      const line: Record<string, unknown> = {
        requestId: id,
        method: ctx.method,
        route: (ctx as any)._matchedRoute ?? null,
        status: ctx.status,
        durationMs: Math.round(durationMs * 100) / 100,
        family: ctx.state.family?.slug ?? null,
        keyId: ctx.state.key?.id ?? null,
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

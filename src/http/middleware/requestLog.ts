/**
 * Request id and the one log line per request: method, route template, status, duration,
 * family and key id — never a key, a token or a body.
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
        logger.error({ ...line, err: ctx.state.error }, 'request failed');
      } else {
        logger.info(line, 'request');
      }
    }
  };
}

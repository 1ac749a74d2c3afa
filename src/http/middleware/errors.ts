/**
 * The one place errors become HTTP answers: DomainErrors keep their status and message (and at
 * most MAX_ISSUES issues, with `issueCount` when more were found); anything else is logged with
 * the request id and answered as a generic 500 so no internals reach a client.
 */
import type Koa from 'koa';
import { DomainError, type ErrorCode } from '../../domain/shared/errors.js';

export function errorBody(message: string, code: ErrorCode, issues?: unknown[], issueCount?: number): Record<string, unknown> {
  return {
    ok: false, error: message, code,
    ...(issues && issues.length ? { issues } : {}),
    ...(issueCount !== undefined ? { issueCount } : {}),
  };
}

export function errorMiddleware(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof DomainError ? err : null;
      if (known) {
        ctx.status = known.status;
        ctx.body = errorBody(known.message, known.code, known.issues, known.issueCount);
        if (known.headers) ctx.set(known.headers);
        return;
      }
      ctx.state.error = err;
      ctx.status = 500;
      ctx.body = errorBody('Something went wrong on our side; the request id names it in the log', 'internal');
    }
  };
}

/**
 * The one place errors become HTTP answers: what `answerOf` (../errors.ts) says for the domain's,
 * the HTTP layer's and the outside services' errors (at most MAX_ISSUES issues, with
 * `issueCount` when more were found), the store's refused writes as 507/503; anything else is
 * logged with the request id and answered as a generic 500 so no internals reach a client.
 */
import type Koa from 'koa';
import { answerOf, type ErrorAnswer, type ErrorCode } from '../errors.js';
import { StoreWriteError } from '../../store/store.js';

export function errorBody(
  message: string,
  code: ErrorCode,
  issues?: unknown[],
  issueCount?: number,
): Record<string, unknown> {
  return {
    ok: false,
    error: message,
    code,
    ...(issues && issues.length ? { issues } : {}),
    ...(issueCount !== undefined ? { issueCount } : {}),
  };
}

/**
 * A write the disk refused: 507 when it is full (reads go on being served; writes work again
 * once there is room), 503 for any other I/O failure. The details are in the log, once.
 */
function fromStore(err: StoreWriteError): ErrorAnswer {
  return err.kind === 'full'
    ? {
        status: 507,
        code: 'insufficient_storage',
        message:
          'The change was not saved: the disk holding the household data is full. Reads still work; writes work again once there is room.',
        headers: { 'Retry-After': '60' },
      }
    : {
        status: 503,
        code: 'unavailable',
        message: 'The change was not saved: the store could not write it. Try again shortly.',
        headers: { 'Retry-After': '5' },
      };
}

export function errorMiddleware(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof StoreWriteError ? fromStore(err) : answerOf(err);
      if (known) {
        ctx.status = known.status;
        ctx.body = errorBody(known.message, known.code, known.issues, known.issueCount);
        if (known.headers) ctx.set(known.headers);
        return;
      }
      ctx.state.error = err;
      ctx.status = 500;
      ctx.body = errorBody(
        'Something went wrong on our side; the request id names it in the log',
        'internal',
      );
    }
  };
}

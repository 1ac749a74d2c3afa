/**
 * The one place errors become HTTP answers: DomainErrors and the body parser's expected
 * failures keep their status and message; anything else is logged with the request id and
 * answered as a generic 500 so no internals reach a client.
 */
import type Koa from 'koa';
import { DomainError, type ErrorCode } from '../../domain/shared/errors.js';
import { StoreWriteError } from '../../store/store.js';

export function errorBody(message: string, code: ErrorCode, issues?: unknown[]): Record<string, unknown> {
  return { ok: false, error: message, code, ...(issues && issues.length ? { issues } : {}) };
}

/** Errors thrown by koa-bodyparser / raw-body carry `status` and `type`. */
function fromParser(err: any): DomainError | null {
  if (!err || typeof err !== 'object' || typeof err.status !== 'number') return null;
  if (err.status === 413 || err.type === 'entity.too.large') {
    return new DomainError(413, 'payload_too_large', `The request body is larger than the limit of ${err.limit ?? 'the configured'} bytes`);
  }
  if (err.status === 415) return new DomainError(415, 'unsupported_media_type', 'Request bodies must be JSON (content-type: application/json)');
  if (err.status === 400 && (err.type === 'entity.parse.failed' || /JSON|Unexpected|invalid/i.test(String(err.message)))) {
    return new DomainError(400, 'invalid_request', 'The request body is not valid JSON', [{ path: [], message: 'is not valid JSON' }]);
  }
  if (err.status === 400 && (err.type === 'request.aborted' || err.type === 'request.size.invalid' || err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')) {
    return new DomainError(400, 'invalid_request', `The request body could not be read (${err.type})`);
  }
  return null;
}

/**
 * A write the disk refused: 507 when it is full (reads go on being served; writes work again
 * once there is room), 503 for any other I/O failure. The details are in the log, once.
 */
function fromStore(err: StoreWriteError): DomainError {
  return err.kind === 'full'
    ? new DomainError(507, 'insufficient_storage', 'The change was not saved: the disk holding the household data is full. Reads still work; writes work again once there is room.', undefined, { 'Retry-After': '60' })
    : new DomainError(503, 'unavailable', 'The change was not saved: the store could not write it. Try again shortly.', undefined, { 'Retry-After': '5' });
}

export function errorMiddleware(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof DomainError ? err : err instanceof StoreWriteError ? fromStore(err) : fromParser(err);
      if (known) {
        ctx.status = known.status;
        ctx.body = errorBody(known.message, known.code, known.issues);
        if (known.headers) ctx.set(known.headers);
        return;
      }
      ctx.state.error = err;
      ctx.status = 500;
      ctx.body = errorBody('Something went wrong on our side; the request id names it in the log', 'internal');
    }
  };
}

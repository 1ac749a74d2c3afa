/**
 * The house's JSON form of an error answer, `{ok: false, error, code, issues?, issueCount?}`
 * (docs/api.md): how REST, the live stream and the public pages write the error table's answers.
 */
import type Koa from 'koa';
import { answerFor, answerOf, type ErrorAnswer, type ErrorCode } from './errors.js';

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

/** Writes an answer of the error table as JSON. */
export function renderJson(answer: ErrorAnswer, ctx: Koa.Context): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.body = errorBody(answer.message, answer.code, answer.issues, answer.issueCount);
}

/**
 * A boundary of its own that writes every error as JSON: for a small Koa app outside the
 * daemon's (tools and tests); the daemon's app has the doors' boundary (app.ts).
 */
export function jsonErrors(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = answerOf(err);
      if (!known) ctx.state.error = err;
      renderJson(known ?? answerFor('internal'), ctx);
    }
  };
}

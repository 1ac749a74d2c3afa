/**
 * What the pages read of a request: the form of a POST (urlencoded, bounded), the cookies, and
 * the CSRF tokens. A signed-in form's token is derived from the session cookie (which a page
 * of another site can neither read nor send: HttpOnly, SameSite=Strict); the forms shown
 * before sign-in (setup, sign-in) use a double-submit cookie of their own.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { pageError } from './errors.js';

export const SESSION_COOKIE = 'ho_session';
export const FORM_COOKIE = 'ho_form';
const FORM_LIMIT = 64 * 1024;

export type Form = Record<string, string[]>;

export async function readForm(ctx: Koa.Context): Promise<Form> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw pageError(415, 'errorFormType');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) throw pageError(413, 'errorFormSize');
    chunks.push(chunk);
  }
  const form = Object.create(null) as Form;
  for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
    (form[k] ??= []).push(v);
  return form;
}

/** A field's one value, trimmed ('' when missing). */
export const field = (form: Form, name: string): string => (form[name]?.[0] ?? '').trim();

export function cookie(ctx: Koa.Context, name: string): string | undefined {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Sets a cookie the way every cookie of the pages is set (HttpOnly, SameSite=Strict). */
export function setCookie(
  ctx: Koa.Context,
  name: string,
  value: string,
  maxAgeS: number,
  secure: boolean,
) {
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${maxAgeS}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

export function sessionCsrf(cookieValue: string): string {
  return createHash('sha256').update(`csrf\n${cookieValue}`).digest('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The form's token matches the one expected (refused, and nothing done, when not). */
export function checkCsrf(form: Form, expected: string | undefined): void {
  const sent = field(form, 'csrf');
  if (!expected || !sent || !same(sent, expected)) throw pageError(403, 'errorCsrf');
}

/** The double-submit token of the forms before sign-in: the cookie's, made when missing. */
export function anonymousToken(ctx: Koa.Context, secure: boolean): string {
  const existing = cookie(ctx, FORM_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{20,64}$/.test(existing)) return existing;
  const made = randomBytes(24).toString('base64url');
  setCookie(ctx, FORM_COOKIE, made, 3600 * 12, secure);
  return made;
}

/**
 * The pages act through the REST API, never beside it: each form becomes the REST request a
 * client would send, to this daemon's own address, with the session as an inner call (the
 * session's text with this process's proof: REST takes a session only so, never as a key). So
 * the same route decides it — scopes, validation, the family's actor, the change log, webhooks —
 * and a refusal reads the same on both doors.
 *
 * Every path is built from encoded segments and checked as resolved: a segment that is `.` or
 * `..` (encoded or not), or a URL that resolves anywhere but where it was built, is refused
 * (404) before anything is sent, so a form's id can never reach another route.
 */
import { INNER_CALL_HEADER } from '../door/credentials.js';
import { PageError, pageError } from './errors.js';
import type { PageRequest } from './context.js';
import { sessionOf } from './context.js';

export interface RestError {
  ok: false;
  error: string;
}

/** The REST answer's body for a family path (e.g. `/people`); a refusal throws its message. */
export async function rest<T = Record<string, unknown>>(
  r: PageRequest,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const s = sessionOf(r);
  const url = checkedUrl(
    `${r.deps.baseUrl()}/api/v1/families/${encodeURIComponent(s.family.slug)}`,
    path,
  );
  const res = await fetch(url, {
    method,
    headers: {
      'x-api-key': s.cookie,
      [INNER_CALL_HEADER]: r.deps.services.credentials.inner.proof(s.cookie),
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    throw new PageError(502, `The API answered ${res.status} without JSON.`);
  }
  if (!res.ok) {
    const message = (parsed as Partial<RestError>).error ?? `The API answered ${res.status}.`;
    // The API's sentence is for developers (English); the page says first that it was refused.
    throw new PageError(res.status, message, undefined, {
      key: 'errorApi',
      values: { reason: message },
    });
  }
  return parsed as T;
}

/** The family path's URL, refused (404) when a segment would move it anywhere else. */
export function checkedUrl(familyBase: string, path: string): string {
  const [pathname] = path.split('?');
  const dots = pathname
    .split('/')
    .some((seg) => /^(\.|%2e){1,2}$/i.test(seg) || /%2f|%5c|\\/i.test(seg));
  const built = familyBase + path;
  if (dots || new URL(built).href !== built) throw pageError(404, 'errorNowhere');
  return built;
}

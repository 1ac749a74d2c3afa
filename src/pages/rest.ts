/**
 * The pages act through the REST API, never beside it: each form becomes the REST request a
 * client would send, to this daemon's own address, with the session's key. So the same route
 * decides it — scopes, validation, the family's actor, the change log, webhooks — and a
 * refusal reads the same on both doors.
 */
import { PageError } from './errors.js';
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
  const res = await fetch(
    `${r.deps.baseUrl()}/api/v1/families/${encodeURIComponent(s.family.slug)}${path}`,
    {
      method,
      headers: {
        'x-api-key': s.cookie,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
  );
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    throw new PageError(502, `The API answered ${res.status} without JSON.`);
  }
  if (!res.ok) {
    const message = (parsed as Partial<RestError>).error ?? `The API answered ${res.status}.`;
    throw new PageError(res.status, message);
  }
  return parsed as T;
}

/**
 * A tool call is a REST request: the daemon's own listening address is fetched with the
 * caller's key, so the call passes the very chain a REST client's does (key, family, scope,
 * rate limit per key, body caps, validation, actor, change log) and its answer is the REST
 * answer, byte for byte. Nothing here decides anything about the household.
 */
import { PATH_ARGUMENT, PATH_ARGUMENT_RULE, type ToolShape } from './inputSchema.js';
import type { Method } from '../door/route.js';

export interface RestAnswer {
  status: number;
  body: unknown;
  /** The answer's Retry-After, when it has one. */
  retryAfter?: string | null;
}

export interface RestTarget {
  /** The daemon's own address (loopback when it listens on all interfaces). */
  baseUrl: string;
  familySlug: string;
  /** The key the MCP request presented, sent on as is. */
  apiKey: string;
  requestId?: string | undefined;
  /** Sent as well: an OAuth grant's proof that the call comes from /mcp (src/oauth). */
  headers?: Record<string, string>;
}

export function invalidAnswer(path: string[], message: string): RestAnswer {
  return {
    status: 400,
    body: {
      ok: false,
      error: `${path.join('.')} ${message}`,
      code: 'invalid_request',
      issues: [{ path, message }],
    },
  };
}

/**
 * Whether `url`, as the HTTP client will resolve it, still names the tool's own route with
 * the arguments given: the same path template with each parameter's value in its place. A
 * second line of defence behind PATH_ARGUMENT, so no value can make a tool call another route.
 */
export function resolvesToRoute(
  url: string,
  template: string,
  values: Record<string, string>,
): boolean {
  let resolved: URL;
  try {
    resolved = new URL(url);
  } catch {
    return false;
  }
  const names: string[] = [];
  const pattern = template
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  const m = new RegExp(`^${pattern}$`).exec(resolved.pathname);
  if (!m) return false;
  try {
    return names.every((name, i) => decodeURIComponent(m[i + 1]) === values[name]);
  } catch {
    return false;
  }
}

/** Builds the REST request from the tool's arguments and sends it. */
export async function callRoute(
  target: RestTarget,
  method: Method,
  pathTemplate: string,
  shape: ToolShape,
  args: Record<string, unknown>,
): Promise<RestAnswer> {
  let path = pathTemplate;
  const values: Record<string, string> = { familySlug: target.familySlug };
  for (const name of shape.pathParams) {
    const value = args[name];
    if (typeof value !== 'string' || value === '')
      return invalidAnswer([name], 'is required (a non-empty string)');
    if (!PATH_ARGUMENT.test(value)) return invalidAnswer([name], PATH_ARGUMENT_RULE);
    values[name] = value;
    path = path.replace(`:${name}`, encodeURIComponent(value));
  }
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const place = shape.places.get(name);
    if (place === 'path' || value === undefined) continue;
    // Unknown names go where the route reads its input, so REST refuses them by name.
    const to = place ?? (method === 'get' || method === 'delete' ? 'query' : 'body');
    if (to === 'body') body[name] = value;
    else if (Array.isArray(value)) for (const v of value) query.append(name, scalar(v));
    else query.append(name, scalar(value));
  }
  const qs = query.toString();
  const url = `${target.baseUrl}/api/v1/families/${encodeURIComponent(target.familySlug)}${path}${qs ? `?${qs}` : ''}`;
  if (!resolvesToRoute(url, `/api/v1/families/:familySlug${pathTemplate}`, values))
    return invalidAnswer(
      [shape.pathParams[0] ?? 'path'],
      `does not lead to this tool's route (${method.toUpperCase()} ${pathTemplate})`,
    );
  const headers: Record<string, string> = {
    ...target.headers,
    'x-api-key': target.apiKey,
    accept: 'application/json',
  };
  if (target.requestId) headers['x-request-id'] = target.requestId;
  const hasBody = method !== 'get' && (method !== 'delete' || Object.keys(body).length > 0);
  if (hasBody) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: method.toUpperCase(),
    headers,
    ...(hasBody ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { ok: false, error: text.slice(0, 500), code: 'upstream_failed' };
    }
  }
  return { status: res.status, body: parsed, retryAfter: res.headers.get('retry-after') };
}

/** GET on a family path with a query (the resources). */
export async function getRoute(
  target: RestTarget,
  path: string,
  query: Record<string, string> = {},
): Promise<RestAnswer> {
  const qs = new URLSearchParams(query).toString();
  const headers: Record<string, string> = {
    ...target.headers,
    'x-api-key': target.apiKey,
    accept: 'application/json',
  };
  if (target.requestId) headers['x-request-id'] = target.requestId;
  const res = await fetch(
    `${target.baseUrl}/api/v1/families/${encodeURIComponent(target.familySlug)}${path}${qs ? `?${qs}` : ''}`,
    { headers },
  );
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

function scalar(v: unknown): string {
  return typeof v === 'string'
    ? v
    : typeof v === 'object' && v !== null
      ? JSON.stringify(v)
      : String(v);
}

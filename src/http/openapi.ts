/**
 * The published OpenAPI 3.1 document, built from the route declarations: request schemas come
 * from the structs that validate requests, response schemas from each route's `response`.
 */
import { fullPath, requiredScope, type RouteDef } from './route.js';
import { toJsonSchema, type JsonSchema } from './schema.js';

export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['ok', 'error', 'code'],
  properties: {
    ok: { const: false },
    error: { type: 'string', description: 'A sentence for people' },
    code: {
      type: 'string',
      enum: ['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'payload_too_large',
        'unsupported_media_type', 'method_not_allowed', 'rate_limited', 'idempotency_mismatch', 'upstream_failed',
        'upstream_timeout', 'not_configured', 'not_implemented', 'internal'],
    },
    issues: {
      type: 'array',
      items: {
        type: 'object', required: ['path', 'message'],
        properties: { path: { type: 'array', items: { type: ['string', 'integer'] } }, message: { type: 'string' } },
      },
    },
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'The request did not match the contract (issues name the fields)',
  401: 'The API key is missing or invalid',
  403: 'The API key cannot perform this operation',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'The change conflicts with the current state',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Idempotency-Key reused with a different request',
  429: 'Rate limited (see Retry-After)',
  501: 'Not implemented yet',
  502: 'An upstream service failed',
  503: 'Not configured',
  504: 'An upstream service timed out',
};

/** One example body per error status, as the daemon writes them. */
const ERROR_EXAMPLES: Record<number, unknown> = {
  400: { ok: false, error: 'title must be 1 to 500 characters long', code: 'invalid_request',
    issues: [{ path: ['title'], message: 'must be 1 to 500 characters long' }] },
  401: { ok: false, error: 'The x-api-key header is missing', code: 'unauthorized' },
  403: { ok: false, error: 'This API key lacks the "write" scope', code: 'forbidden' },
  404: { ok: false, error: 'entryId is not an entry of chores: ent_01jd8m7k2q9x4v5w6y7z8a9b0c', code: 'not_found',
    issues: [{ path: ['entryId'], message: 'is not an entry of chores: ent_01jd8m7k2q9x4v5w6y7z8a9b0c' }] },
  405: { ok: false, error: 'PUT is not allowed on this path; it takes GET, POST', code: 'method_not_allowed' },
  409: { ok: false, error: 'A collection named "Chores" already exists (key chores)', code: 'conflict',
    issues: [{ path: ['name'], message: 'is already taken' }] },
  413: { ok: false, error: 'The request body is larger than the limit of 1048576 bytes', code: 'payload_too_large' },
  415: { ok: false, error: 'Request bodies must be JSON (content-type: application/json)', code: 'unsupported_media_type' },
  422: { ok: false, error: 'This Idempotency-Key was used with a different request', code: 'idempotency_mismatch' },
  429: { ok: false, error: 'Too many requests for this API key; try again in 12 s', code: 'rate_limited' },
  502: { ok: false, error: 'The forecast service answered 500', code: 'upstream_failed' },
  503: { ok: false, error: 'Web search is not configured: set webSearch.searxngUrl to a SearXNG instance with the json format enabled', code: 'not_configured' },
  504: { ok: false, error: 'The forecast service did not answer within 10 s', code: 'upstream_timeout' },
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationId(def: RouteDef): string {
  const words = fullPath(def).replace('/api/v1/families/:familySlug', '').split('/').filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by-${w.slice(1)}` : w));
  return [def.method, ...words].join('-').replace(/[^A-Za-z0-9]+(.)/g, (_m, c: string) => c.toUpperCase());
}

export function buildOpenApi(routes: RouteDef[], info: { version: string; serverUrl: string }): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const path = openApiPath(fullPath(def));
    const scope = requiredScope(def);
    const parameters: unknown[] = [];
    for (const m of fullPath(def).matchAll(/:([A-Za-z0-9_]+)/g)) {
      parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    }
    if (def.query) {
      const qs = toJsonSchema(def.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {})) {
        parameters.push({ name, in: 'query', required: (qs.required ?? []).includes(name), schema });
      }
    }
    if (def.method !== 'get') {
      parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
    }
    const status = def.status ?? 200;
    const responses: Record<string, unknown> = {
      [status]: {
        description: status >= 400 ? (ERROR_TEXT[status] ?? 'Error') : 'Success',
        content: { [def.produces ?? 'application/json']: {
          schema: def.produces ? { type: 'string' } : def.response,
          ...(def.example !== undefined ? { example: def.example } : status >= 400 && ERROR_EXAMPLES[status] ? { example: ERROR_EXAMPLES[status] } : {}),
        } },
      },
    };
    for (const extra of def.alsoResponses ?? []) {
      const slot = (responses[extra.status] ??= { description: extra.description, content: {} }) as { content: Record<string, unknown> };
      slot.content[extra.contentType ?? 'application/json'] = { schema: extra.schema };
    }
    const errors = new Set<number>([400, 404, ...(def.errors ?? [])]);
    if (scope !== 'public') { errors.add(401); errors.add(403); errors.add(429); }
    if (def.method !== 'get') { errors.add(409); errors.add(422); if (def.body) { errors.add(413); errors.add(415); } }
    for (const code of [...errors].sort()) {
      if (responses[code]) continue;
      const example = ERROR_EXAMPLES[code];
      responses[code] = {
        description: ERROR_TEXT[code] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, ...(example ? { example } : {}) } },
      };
    }
    const op: Record<string, unknown> = {
      operationId: operationId(def),
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      ...(scope === 'public' ? { security: [] } : { 'x-scope': scope }),
      parameters,
      ...(def.body ? { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(def.body) } } } } : {}),
      responses,
    };
    (paths[path] ??= {})[def.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Household Organizer API',
      version: info.version,
      description: 'A family-scoped JSON REST API for household data. Every family path needs an `x-api-key` header with a key of that family; `x-scope` names the scope an operation needs (read < write < admin).',
    },
    servers: [{ url: info.serverUrl }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}

/**
 * The published OpenAPI 3.1 document, built from the route declarations: request schemas come
 * from the structs that validate requests, response schemas from each route's `response`.
 *
 * Shapes named with `named()` (schema.ts) are published once under `components/schemas` and
 * referred to with `$ref`; so are the error answers every endpoint shares (401, 413, 415, 422,
 * 429, …), the headers and the path parameters. What differs per endpoint stays inline: its
 * 400 example is what the daemon answers to a fixed wrong request to that endpoint, its 404
 * examples what it answers for each path parameter that names nothing (openapi tests replay
 * both, word for word).
 */
import { errorBody } from './middleware/errors.js';
import { fullPath, requiredScope, type RouteDef } from './route.js';
import { schemaName, toJsonSchema, type JsonSchema } from './schema.js';
import { validateInput } from './validate.js';
import { Invalid } from '../domain/shared/errors.js';
import { SLUG } from '../family/keys.js';

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
      description: 'Each problem with the path of the field it concerns (`["query", "limit"]` for a query parameter)',
      items: {
        type: 'object', required: ['path', 'message'],
        properties: { path: { type: 'array', items: { type: ['string', 'integer'] } }, message: { type: 'string' } },
      },
    },
  },
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** Every tag an operation may carry, in the order the reference shows them. */
const TAGS: [string, string][] = [
  ['System', 'Health, this document and its reference page. No key needed.'],
  ['Family', 'Which family and which API key a client is using: the first call to check a setup.'],
  ['Changes', 'The family change log: every change in order, for clients that follow it.'],
  ['Collections', 'Trackers (collections of entries) with their typed fields; `calendar`, `meals` and `chores` are built in.'],
  ['Entries', 'The entries of a collection: one at a time or in batches of up to 100.'],
  ['People', 'The household\'s members, referred to by events, entries and keys.'],
  ['Calendar events', 'Events of the family\'s calendar collections, one-off or repeating, with occurrence edits.'],
  ['Calendar shares', 'Read-only ICS feeds of chosen calendars, events or people, for calendar apps (admin scope).'],
  ['Plans', 'Plans that gather events, notes and polls, and their public share page.'],
  ['External calendars', 'ICS feeds synced into a calendar (not implemented in this version).'],
  ['Notifications', 'Notifications, checks, preferences and routines (not implemented in this version).'],
  ['Webhooks', 'Webhook destinations for home automation (not implemented in this version).'],
  ['Context', 'Context search for assistants (not implemented in this version).'],
  ['Lookups', 'Weather and web lookups (not implemented in this version).'],
];

/** Path parameters: what each names, and the example value the 404 examples use. */
const PATH_PARAMS: Record<string, { description: string; example: string; pattern?: string }> = {
  familySlug: { description: 'The family\'s slug; an API key works only on its own family', example: 'home', pattern: SLUG.source },
  collectionKey: { description: 'A collection\'s key (wire name: tracker)', example: 'packing-list' },
  entryId: { description: 'An entry of the collection', example: 'ent_01kaq5m2v8x3c4d5e6f7' },
  personId: { description: 'A person of the family', example: 'person_01kaq5m2v8x3c4d5e6f7' },
  eventId: { description: 'A calendar event (an entry of a calendar collection)', example: 'ent_01kaq5m2v8x3c4d5e6f7' },
  shareId: { description: 'A calendar share', example: 'share_01kaq5m2v8x3c4d5e6f7' },
  planId: { description: 'A plan', example: 'plan_01kaq5m2v8x3c4d5e6f7' },
  noteId: { description: 'A note of the plan', example: 'note_01kaq5m2v8x3c4d5e6f7' },
  pollId: { description: 'A poll of the plan', example: 'poll_01kaq5m2v8x3c4d5e6f7' },
  optionId: { description: 'An option of the poll', example: 'option_01kaq5m2v8x3c4d5e6f7' },
  sourceId: { description: 'An external feed', example: 'src_01kaq5m2v8x3c4d5e6f7' },
  triggerId: { description: 'A notification routine', example: 'trg_01kaq5m2v8x3c4d5e6f7' },
  destinationId: { description: 'A webhook destination', example: 'whd_01kaq5m2v8x3c4d5e6f7' },
  token: { description: 'The plan\'s share token: the credential of the page', example: 'pln_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH' },
  file: { description: 'The share token with `.ics` (the token alone is accepted too)', example: 'shr_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH.ics' },
  asset: { description: 'A file of the reference page', example: 'swagger-ui.css' },
};

/**
 * What the daemon answers when the path parameter names nothing (the parameters before it
 * naming something); the wording is the domain's, held to it by the openapi tests.
 */
const NOT_FOUND: Record<string, (v: Record<string, string>, parent?: string) => { summary: string; value: unknown }> = {
  collectionKey: (v) => ({ summary: 'No such collection', value: errorBody(`No collection ${v.collectionKey} in this family`, 'not_found') }),
  entryId: (v) => ({
    summary: 'No such entry in the collection',
    value: errorBody(`entryId is not an entry of ${v.collectionKey}: ${v.entryId}`, 'not_found',
      [{ path: ['entryId'], message: `is not an entry of ${v.collectionKey}: ${v.entryId}` }]),
  }),
  personId: (v) => ({ summary: 'No such person', value: errorBody(`No person ${v.personId} in this family`, 'not_found') }),
  eventId: (v, parent) => (parent === 'planId'
    ? { summary: 'The event is not linked to the plan', value: errorBody(`Event ${v.eventId} is not linked to plan ${v.planId}`, 'not_found') }
    : { summary: 'No such calendar event', value: errorBody(`No calendar event ${v.eventId} in this family`, 'not_found') }),
  shareId: (v) => ({ summary: 'No such share', value: errorBody(`No calendar share ${v.shareId} in this family`, 'not_found') }),
  planId: (v) => ({ summary: 'No such plan', value: errorBody(`No plan ${v.planId} in this family`, 'not_found') }),
  noteId: (v) => ({ summary: 'No such note in the plan', value: errorBody(`No note ${v.noteId} in plan ${v.planId}`, 'not_found') }),
  pollId: (v) => ({ summary: 'No such poll in the plan', value: errorBody(`No poll ${v.pollId} in plan ${v.planId}`, 'not_found') }),
  optionId: (v) => ({ summary: 'No such option in the poll', value: errorBody(`No option ${v.optionId} in poll ${v.pollId}`, 'not_found') }),
  token: () => ({ summary: 'Unknown, malformed or unshared token', value: errorBody('No shared plan at this address', 'not_found') }),
  file: () => ({ summary: 'Unknown, malformed or revoked token', value: errorBody('No calendar share at this address', 'not_found') }),
  asset: () => ({ summary: 'Not a file of the page', value: errorBody('No such file of the API reference', 'not_found') }),
};

/**
 * The fixed wrong requests whose answers are each endpoint's 400 example (tests send the same):
 * `emptyBody` sends `{}`, `unknownField` sends `{"unknownField": true}`, `unknownQuery` adds
 * `?unknownParam=1`, `malformedJson` sends `{` as JSON.
 */
export const BAD_REQUESTS = {
  emptyBody: 'The body `{}`',
  unknownField: 'A body with a field the endpoint does not take: `{"unknownField": true}`',
  unknownQuery: 'A query parameter the endpoint does not take: `?unknownParam=1`',
  malformedJson: 'A body that is not JSON: `{`',
} as const;
type BadRequest = keyof typeof BAD_REQUESTS;

function invalidAnswer(value: unknown, struct: NonNullable<RouteDef['body']>, prefix: (string | number)[] = []): unknown | null {
  try {
    validateInput(value, struct, prefix);
    return null;
  } catch (err) {
    if (err instanceof Invalid) return errorBody(err.message, err.code, err.issues);
    throw err;
  }
}

/** The endpoint's 400 answer to one of BAD_REQUESTS, or null where it cannot answer 400. */
function badRequestExample(def: RouteDef): { kind: BadRequest; value: unknown } | null {
  const anyBody = def.body && Object.keys(toJsonSchema(def.body)).length === 0;
  if (def.method !== 'get') {
    if (def.body && !anyBody) {
      const empty = invalidAnswer({}, def.body);
      if (empty) return { kind: 'emptyBody', value: empty };
      const unknown = invalidAnswer({ unknownField: true }, def.body);
      if (unknown) return { kind: 'unknownField', value: unknown };
    } else if (!def.body) {
      // app.ts refuses any field on an endpoint that takes no body.
      return { kind: 'unknownField', value: errorBody('unknownField is not a known field: this endpoint takes no body', 'invalid_request', [{ path: ['unknownField'], message: 'is not a known field' }]) };
    }
    return { kind: 'malformedJson', value: errorBody('The request body is not valid JSON', 'invalid_request', [{ path: [], message: 'is not valid JSON' }]) };
  }
  if (def.query) {
    const unknown = invalidAnswer({ unknownParam: '1' }, def.query, ['query']);
    return unknown ? { kind: 'unknownQuery', value: unknown } : null;
  }
  if (requiredScope(def) === 'public') return null; // public pages ignore query strings
  // app.ts refuses query parameters on family routes that declare none.
  return { kind: 'unknownQuery', value: errorBody('query.unknownParam is not a known query parameter', 'invalid_request', [{ path: ['query', 'unknownParam'], message: 'is not a known query parameter' }]) };
}

/** Headers the rate limiter sets on every answer to a keyed request it let through. */
const LIMITER_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** Answers every endpoint of a kind shares, published once under components/responses. */
const SHARED_RESPONSES: Record<string, { description: string; example?: unknown; examples?: Record<string, { summary: string; value: unknown }>; headers?: string[] }> = {
  Unauthorized: {
    description: 'The x-api-key header is missing, or the key is unknown, malformed or revoked',
    examples: {
      missing: { summary: 'No key', value: errorBody('The x-api-key header is missing', 'unauthorized') },
      invalid: { summary: 'Unknown, malformed or revoked key', value: errorBody('The API key is not valid (unknown, malformed or revoked)', 'unauthorized') },
    },
  },
  Forbidden: {
    description: 'The API key belongs to another family (whether or not this one exists)',
    example: errorBody('This API key does not belong to that family', 'forbidden'),
  },
  ForbiddenWrite: {
    description: 'The API key belongs to another family, or lacks the write scope',
    examples: {
      otherFamily: { summary: 'A key of another family', value: errorBody('This API key does not belong to that family', 'forbidden') },
      scope: { summary: 'A read-only key', value: errorBody('This API key lacks the "write" scope', 'forbidden') },
    },
  },
  ForbiddenAdmin: {
    description: 'The API key belongs to another family, or lacks the admin scope',
    examples: {
      otherFamily: { summary: 'A key of another family', value: errorBody('This API key does not belong to that family', 'forbidden') },
      scope: { summary: 'A key without admin', value: errorBody('This API key lacks the "admin" scope', 'forbidden') },
    },
  },
  Conflict: {
    description: 'The change conflicts with the current state (the error says how), or a request with the same Idempotency-Key is still running',
    example: errorBody('A request with this Idempotency-Key is still being processed', 'conflict'),
  },
  PayloadTooLarge: {
    description: 'The body is larger than server.bodyLimitBytes (1 MiB by default)',
    example: errorBody('The request body is larger than the limit of 1048576 bytes', 'payload_too_large'),
  },
  UnsupportedMediaType: {
    description: 'The body is not JSON',
    example: errorBody('Request bodies must be JSON (content-type: application/json)', 'unsupported_media_type'),
  },
  IdempotencyMismatch: {
    description: 'The Idempotency-Key was used with a different request in the last 24 h',
    example: errorBody('This Idempotency-Key was used with a different request', 'idempotency_mismatch'),
  },
  RateLimited: {
    description: 'Too many requests for this API key in the last minute; Retry-After says when to try again',
    example: errorBody('Too many requests for this API key; try again in 12 s', 'rate_limited'),
    headers: ['Retry-After', ...LIMITER_HEADERS],
  },
  MethodNotAllowed: {
    description: 'A known path with a method it does not take; Allow lists those it takes. No operation answers this: any method a path does not list does.',
    example: errorBody('PUT is not allowed on this path; it takes HEAD, GET, POST', 'method_not_allowed'),
    headers: ['Allow'],
  },
};

const HEADERS: Record<string, JsonSchema> = {
  'x-request-id': {
    description: 'The request\'s id, as sent in x-request-id when it is 1 to 128 of `A-Za-z0-9._:-`, else made up; it names the request\'s line in the log',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when this is the kept answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', const: 'true' },
  },
  'Retry-After': { description: 'Seconds until the API key may send again', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Limit': { description: 'Requests a minute this API key may send (rateLimit.perMinute)', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in the current minute (on every answer to a keyed request past the key check)', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the current minute\'s window ends', schema: { type: 'integer', minimum: 1 } },
  Allow: { description: 'The methods the path takes, comma-separated', schema: { type: 'string' }, example: 'HEAD, GET, POST' },
};
const HEADER_COMPONENT: Record<string, string> = {
  'x-request-id': 'RequestId', 'Idempotent-Replayed': 'IdempotentReplayed', 'Retry-After': 'RetryAfter', Allow: 'Allow',
  'RateLimit-Limit': 'RateLimitLimit', 'RateLimit-Remaining': 'RateLimitRemaining', 'RateLimit-Reset': 'RateLimitReset',
};
const headerRef = (h: string) => ({ $ref: `#/components/headers/${HEADER_COMPONENT[h]}` });

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationId(def: RouteDef): string {
  const words = fullPath(def).replace('/api/v1/families/:familySlug', '').split('/').filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by-${w.slice(1)}` : w));
  if (def.family !== false && words.length === 0) words.push('family');
  return [def.method, ...words].join('-').replace(/[^A-Za-z0-9]+(.)/g, (_m, c: string) => c.toUpperCase());
}

/** Collects named schemas while copying a schema tree, replacing each by a `$ref`. */
class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  private readonly owners = new Map<string, object>([['Error', ERROR_SCHEMA]]);

  /** The schema to publish in place of `schema`: a `$ref` when it is named. */
  use(schema: JsonSchema): JsonSchema {
    return this.copy(schema) as JsonSchema;
  }

  private copy(node: unknown, root = false): unknown {
    if (Array.isArray(node)) return node.map((n) => this.copy(n));
    if (!node || typeof node !== 'object') return node;
    const name = node === ERROR_SCHEMA ? 'Error' : schemaName(node);
    if (name && !root) {
      this.define(name, node as JsonSchema);
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      // Values, not schemas: examples and constants are copied as they are.
      out[k] = k === 'examples' || k === 'example' || k === 'const' || k === 'enum' || k === 'default' ? v : this.copy(v);
    }
    return out;
  }

  private define(name: string, schema: JsonSchema): void {
    const owner = this.owners.get(name);
    if (owner === schema) return;
    if (owner) throw new Error(`two different schemas are named ${name}`);
    this.owners.set(name, schema);
    this.schemas[name] = this.copy(schema, true) as JsonSchema;
  }
}

export function buildOpenApi(routes: RouteDef[], info: { version: string; serverUrl: string }): JsonSchema {
  const components = new SchemaComponents();
  const usedResponses = new Set<string>(['MethodNotAllowed']);
  const usedParams = new Set<string>();
  const knownTags = new Set(TAGS.map(([name]) => name));
  const paths: Record<string, Record<string, unknown>> = {};

  for (const def of routes) {
    const path = openApiPath(fullPath(def));
    const scope = requiredScope(def);
    const pending = def.status === 501;
    for (const tag of def.tags) if (!knownTags.has(tag)) throw new Error(`tag "${tag}" of ${def.method} ${path} is not in openapi.ts TAGS`);

    // Parameters: path (shared components), query (from the struct), headers.
    const pathParams = [...fullPath(def).matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    const parameters: unknown[] = pathParams.map((name) => {
      if (!PATH_PARAMS[name]) throw new Error(`path parameter ${name} of ${path} is not in openapi.ts PATH_PARAMS`);
      usedParams.add(name);
      return { $ref: `#/components/parameters/${name}` };
    });
    if (def.query) {
      const qs = toJsonSchema(def.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {})) {
        const { description, ...rest } = components.use(schema);
        parameters.push({ name, in: 'query', required: (qs.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest });
      }
    }
    parameters.push({ $ref: '#/components/parameters/RequestId' });
    const idempotent = scope !== 'public' && def.method !== 'get';
    if (idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

    // The success answer (with its other media types or statuses).
    const status = def.status ?? 200;
    // Keyed answers past the rate limiter carry its headers (documented on successes and on
    // 429, where a client looks for them); writes may be replays.
    const limited = scope === 'public' ? [] : LIMITER_HEADERS;
    const headersOf = (names: string[]) => Object.fromEntries(['x-request-id', ...names].map((h) => [h, headerRef(h)]));
    const successHeaders = headersOf([...limited, ...(idempotent ? ['Idempotent-Replayed'] : [])]);
    const responses: Record<string, any> = {
      [status]: {
        description: status >= 400 ? 'Not implemented in this version' : 'Success',
        headers: status >= 400 ? headersOf([]) : successHeaders,
        content: { [def.produces ?? 'application/json']: {
          schema: def.produces ? { type: 'string' } : components.use(def.response),
          ...(def.example !== undefined ? { example: def.example } : {}),
        } },
      },
    };

    // Errors of this endpoint, with examples of its own.
    const bad = badRequestExample(def);
    if (bad && !pending) {
      responses[400] = errorResponse('The request did not match the contract (issues name the fields)', headersOf([]), { [bad.kind]: { summary: BAD_REQUESTS[bad.kind], value: bad.value } });
    }
    const values = Object.fromEntries(pathParams.map((n) => [n, PATH_PARAMS[n]!.example]));
    const notFound: Record<string, { summary: string; value: unknown }> = {};
    if (!pending) {
      pathParams.forEach((name, i) => { const make = NOT_FOUND[name]; if (make) notFound[name] = make(values, pathParams[i - 1]); });
    }
    if (Object.keys(notFound).length || def.errors?.includes(404)) {
      responses[404] = errorResponse('A path parameter names nothing', headersOf([]), notFound);
    }
    const shared: [number, string][] = [];
    if (scope !== 'public') {
      shared.push([401, 'Unauthorized'], [403, scope === 'admin' ? 'ForbiddenAdmin' : scope === 'write' ? 'ForbiddenWrite' : 'Forbidden'], [429, 'RateLimited']);
    }
    if (idempotent) shared.push([409, 'Conflict'], [422, 'IdempotencyMismatch']);
    if (def.method !== 'get') shared.push([413, 'PayloadTooLarge'], [415, 'UnsupportedMediaType']);
    for (const [code, name] of shared) {
      if (responses[code]) continue;
      usedResponses.add(name);
      responses[code] = { $ref: `#/components/responses/${name}` };
    }
    for (const code of def.errors ?? []) responses[code] ??= errorResponse('Error', headersOf([]), {});
    for (const extra of def.alsoResponses ?? []) {
      const slot = (responses[extra.status] ??= { description: extra.description, headers: extra.status < 300 ? successHeaders : headersOf([]), content: {} });
      if (slot.$ref) throw new Error(`${def.method} ${path}: ${extra.status} is a shared answer`);
      slot.content[extra.contentType ?? 'application/json'] = { schema: components.use(extra.schema) };
    }

    const op: Record<string, unknown> = {
      operationId: operationId(def),
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      ...(scope === 'public' ? { security: [] } : { 'x-scope': scope }),
      parameters,
      ...(def.body ? { requestBody: { required: true, content: { 'application/json': { schema: components.use(toJsonSchema(def.body)) } } } } : {}),
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
    };
    (paths[path] ??= {})[def.method] = op;
  }

  const parameters: Record<string, unknown> = {
    RequestId: { name: 'x-request-id', in: 'header', required: false, description: 'Your id for the request (1 to 128 of `A-Za-z0-9._:-`); echoed in the answer and written in the log', schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' } },
    IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, description: 'Makes a retry safe for 24 h: a repeat with the same body gets the first answer again (with Idempotent-Replayed: true)', schema: { type: 'string', minLength: 1, maxLength: 255 } },
  };
  for (const name of [...usedParams].sort()) {
    const p = PATH_PARAMS[name]!;
    parameters[name] = { name, in: 'path', required: true, description: p.description, schema: { type: 'string', ...(p.pattern ? { pattern: p.pattern } : {}) }, example: p.example };
  }
  const responses: Record<string, unknown> = {};
  for (const name of Object.keys(SHARED_RESPONSES).filter((n) => usedResponses.has(n))) {
    const r = SHARED_RESPONSES[name]!;
    responses[name] = {
      description: r.description,
      headers: Object.fromEntries(['x-request-id', ...(r.headers ?? [])].map((h) => [h, headerRef(h)])),
      content: { 'application/json': { schema: ERROR_REF, ...(r.example !== undefined ? { example: r.example } : {}), ...(r.examples ? { examples: r.examples } : {}) } },
    };
  }
  const headers = Object.fromEntries(Object.entries(HEADERS).map(([h, schema]) => [HEADER_COMPONENT[h]!, schema]));
  const usedTags = new Set(routes.flatMap((r) => r.tags));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Household Organizer API',
      version: info.version,
      license: { name: 'MIT', identifier: 'MIT' },
      description: [
        'A family-scoped JSON REST API for household data. Every family path needs an `x-api-key` header with a key of that family; `x-scope` names the scope an operation needs (read < write < admin). `GET /api/v1/families/{familySlug}` tells a client which family and key it is using.',
        'Errors are `{ok: false, error, code, issues?}`. A known path with a method it does not take answers 405 with an `Allow` header (components/responses/MethodNotAllowed); anything unexpected answers 500 `internal`, with the request id in `x-request-id`.',
        'This reference is served at `/api/docs`.',
      ].join('\n\n'),
    },
    servers: [{ url: info.serverUrl.replace(/\/+$/, ''), description: 'server.publicUrl of this daemon' }],
    security: [{ apiKey: [] }],
    tags: TAGS.filter(([name]) => usedTags.has(name)).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: '`hk_<keyId>_<secret>`, from the first start or `household-organizer key create`' } },
      schemas: components.schemas,
      parameters,
      headers,
      responses,
    },
  };
}

function errorResponse(description: string, headers: Record<string, unknown>, examples: Record<string, { summary: string; value: unknown }>): Record<string, unknown> {
  const list = Object.entries(examples);
  return {
    description,
    headers,
    content: {
      'application/json': {
        schema: ERROR_REF,
        ...(list.length ? { examples: Object.fromEntries(list.map(([k, e]) => [k, { summary: e.summary, value: e.value }])) } : {}),
      },
    },
  };
}

/**
 * The published OpenAPI 3.1 document, built from the route declarations: request schemas come
 * from the structs that validate requests, response schemas from each route's `response`.
 *
 * Shapes named with `named()` (schema.ts) are published once under `components/schemas` and
 * referred to with `$ref`; so are the error answers every endpoint shares (401, 413, 415, 422,
 * 429, …), the headers and the path parameters. What differs per endpoint stays inline: its
 * 400 example is what the daemon answers to a fixed wrong request to that endpoint
 * (openapiBadRequests.ts), its 404 examples what it answers for each path parameter that names
 * nothing (openapiAnswers.ts). The named schemas are collected in openapiSchemas.ts, the tags
 * listed in openapiTags.ts.
 */
import { publicBase } from '../config.js';
import { fullPath, requiredScope, type RouteDef } from './route.js';
import { toJsonSchema, type JsonSchema } from './schema.js';
import { BODY_CAPS } from './middleware/body.js';
import {
  headerRef,
  HEADER_COMPONENT,
  HEADERS,
  LIMITER_HEADERS,
  NOT_FOUND,
  PATH_PARAMS,
  SHARED_RESPONSES,
} from './openapiAnswers.js';
import { BAD_REQUESTS, badRequestExample } from './openapiBadRequests.js';
import { SchemaComponents } from './openapiSchemas.js';
import { TAGS } from './openapiTags.js';

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** The rules every request body follows, stated once in the document's description. */
const BODY_NOTE =
  'JSON in UTF-8; `application/*+json` types (such as `application/merge-patch+json`) are read as JSON too. ' +
  'Content-Encoding gzip, deflate or br is accepted; the size limit applies before and after decoding. ' +
  `Objects may nest ${BODY_CAPS.depth} levels deep and hold ${BODY_CAPS.keys.toLocaleString('en')} keys, arrays ${BODY_CAPS.items.toLocaleString('en')} items; ` +
  'the keys `__proto__`, `constructor`, `prototype` and the other names of built-in object methods are refused anywhere, as are strings with unpaired surrogates.';

/** Answers of endpoints that ask an outside service (weather, web search, page text). */
const OUTSIDE_ERRORS: Record<number, { description: string; example: unknown }> = {
  502: {
    description: 'The outside service failed or answered something unusable',
    example: { ok: false, error: 'The forecast service answered 500', code: 'upstream_failed' },
  },
  503: {
    description: 'The outside service is not configured',
    example: {
      ok: false,
      error:
        'Web search is not configured: set webSearch.searxngUrl to a SearXNG instance with the json format enabled',
      code: 'not_configured',
    },
  },
  504: {
    description: 'The outside service did not answer in time',
    example: {
      ok: false,
      error: 'The forecast service did not answer within 10 s',
      code: 'upstream_timeout',
    },
  },
};

/** The header parameters every document carries. */
const HEADER_PARAMS = {
  RequestId: {
    name: 'x-request-id',
    in: 'header',
    required: false,
    description:
      'Your id for the request (1 to 128 of `A-Za-z0-9._:-`); echoed in the answer and written in the log',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe for 24 h: a repeat with the same body gets the first answer again (with Idempotent-Replayed: true)',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
};

/** The Idempotency-Key of a route that requires one (a display's actions). */
const IDEMPOTENCY_KEY_REQUIRED = {
  ...HEADER_PARAMS.IdempotencyKey,
  required: true,
  description:
    'Made once per action (at the tap) and sent with every retry of it: a repeat with the same body gets the first answer again (with Idempotent-Replayed: true), so the action is applied once',
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationId(def: RouteDef): string {
  const words = fullPath(def)
    .replace('/api/v1/families/:familySlug', '')
    .split('/')
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by-${w.slice(1)}` : w));
  if (def.family !== false && words.length === 0) words.push('family');
  return [def.method, ...words]
    .join('-')
    .replace(/[^A-Za-z0-9]+(.)/g, (_m, c: string) => c.toUpperCase());
}

export function buildOpenApi(
  routes: RouteDef[],
  info: { version: string; serverUrl: string },
): JsonSchema {
  const components = new SchemaComponents();
  const usedResponses = new Set<string>(['MethodNotAllowed']);
  const usedParams = new Set<string>();
  const knownTags = new Set(TAGS.map(([name]) => name));
  const paths: Record<string, Record<string, unknown>> = {};
  let usedRequiredKey = false;

  for (const def of routes) {
    const path = openApiPath(fullPath(def));
    const scope = requiredScope(def);
    for (const tag of def.tags)
      if (!knownTags.has(tag))
        throw new Error(`tag "${tag}" of ${def.method} ${path} is not in openapiTags.ts TAGS`);

    // Parameters: path (shared components), query (from the struct), headers.
    const pathParams = [...fullPath(def).matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const parameters: unknown[] = pathParams.map((name) => {
      if (!PATH_PARAMS[name])
        throw new Error(
          `path parameter ${name} of ${path} is not in openapiAnswers.ts PATH_PARAMS`,
        );
      usedParams.add(name);
      return { $ref: `#/components/parameters/${name}` };
    });
    if (def.query) {
      const qs = toJsonSchema(def.query) as {
        properties?: Record<string, JsonSchema>;
        required?: string[];
      };
      for (const [name, schema] of Object.entries(qs.properties ?? {})) {
        const { description, ...rest } = components.use(schema);
        parameters.push({
          name,
          in: 'query',
          required: (qs.required ?? []).includes(name),
          ...(description ? { description } : {}),
          schema: rest,
        });
      }
    }
    parameters.push({ $ref: '#/components/parameters/RequestId' });
    const keyRequired = def.idempotencyKey === 'required';
    const idempotent = (scope !== 'public' && def.method !== 'get') || keyRequired;
    if (keyRequired) usedRequiredKey = true;
    if (idempotent)
      parameters.push({
        $ref: `#/components/parameters/IdempotencyKey${keyRequired ? 'Required' : ''}`,
      });

    // The success answer (with its other media types or statuses).
    const status = def.status ?? 200;
    // Keyed answers past the rate limiter carry its headers (documented on successes and on
    // 429, where a client looks for them); writes may be replays.
    const limited = scope === 'public' ? [] : LIMITER_HEADERS;
    const headersOf = (names: string[]) =>
      Object.fromEntries(['x-request-id', ...names].map((h) => [h, headerRef(h)]));
    const successHeaders = headersOf([...limited, ...(idempotent ? ['Idempotent-Replayed'] : [])]);
    const responses: Record<string, OpenApiResponse> = {
      [status]: {
        description: 'Success',
        headers: successHeaders,
        content: {
          [def.produces ?? 'application/json']: {
            schema: def.produces ? { type: 'string' } : components.use(def.response),
            ...(def.example !== undefined ? { example: def.example } : {}),
          },
        },
      },
    };

    // Errors of this endpoint, with examples of its own.
    const bad = badRequestExample(def);
    if (bad) {
      responses[400] = errorResponse(
        'The request did not match the contract (issues name the fields)',
        headersOf([]),
        { [bad.kind]: { summary: BAD_REQUESTS[bad.kind], value: bad.value } },
      );
    }
    const values = Object.fromEntries(pathParams.map((n) => [n, PATH_PARAMS[n].example]));
    const notFound: Record<string, { summary: string; value: unknown }> = {};
    pathParams.forEach((name, i) => {
      const make = NOT_FOUND[name];
      if (make) notFound[name] = make(values, pathParams[i - 1]);
    });
    if (Object.keys(notFound).length || def.errors?.includes(404)) {
      responses[404] = errorResponse('A path parameter names nothing', headersOf([]), notFound);
    }
    const shared: [number, string][] = [];
    if (scope !== 'public') {
      shared.push(
        [401, 'Unauthorized'],
        [
          403,
          scope === 'admin' ? 'ForbiddenAdmin' : scope === 'write' ? 'ForbiddenWrite' : 'Forbidden',
        ],
        [429, 'RateLimited'],
      );
    } else {
      shared.push([429, 'RateLimitedPublic']);
    }
    if (idempotent) shared.push([409, 'Conflict'], [422, 'IdempotencyMismatch']);
    if (def.method !== 'get') shared.push([413, 'PayloadTooLarge'], [415, 'UnsupportedMediaType']);
    for (const [code, name] of shared) {
      if (responses[code]) continue;
      usedResponses.add(name);
      responses[code] = { $ref: `#/components/responses/${name}` };
    }
    for (const code of def.errors ?? []) {
      const known = OUTSIDE_ERRORS[code];
      responses[code] ??= errorResponse(
        known?.description ?? 'Error',
        headersOf([]),
        known ? { example: { summary: known.description, value: known.example } } : {},
      );
    }
    for (const extra of def.alsoResponses ?? []) {
      const slot = (responses[extra.status] ??= {
        description: extra.description,
        headers: extra.status < 300 ? successHeaders : headersOf([]),
        content: {},
      });
      if (slot.$ref) throw new Error(`${def.method} ${path}: ${extra.status} is a shared answer`);
      (slot.content ??= {})[extra.contentType ?? 'application/json'] = {
        schema: components.use(extra.schema),
      };
    }

    const op: Record<string, unknown> = {
      operationId: operationId(def),
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      ...(scope === 'public' ? { security: [] } : { 'x-scope': scope }),
      parameters,
      ...(def.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: components.use(toJsonSchema(def.body)) } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
      ),
    };
    (paths[path] ??= {})[def.method] = op;
  }

  const parameters: Record<string, unknown> = {
    ...HEADER_PARAMS,
    ...(usedRequiredKey ? { IdempotencyKeyRequired: IDEMPOTENCY_KEY_REQUIRED } : {}),
  };
  for (const name of [...usedParams].sort()) {
    const p = PATH_PARAMS[name];
    parameters[name] = {
      name,
      in: 'path',
      required: true,
      description: p.description,
      schema: { type: 'string', ...(p.pattern ? { pattern: p.pattern } : {}) },
      example: p.example,
    };
  }
  const responses: Record<string, unknown> = {};
  for (const name of Object.keys(SHARED_RESPONSES).filter((n) => usedResponses.has(n))) {
    const r = SHARED_RESPONSES[name];
    responses[name] = {
      description: r.description,
      headers: Object.fromEntries(
        ['x-request-id', ...(r.headers ?? [])].map((h) => [h, headerRef(h)]),
      ),
      content: {
        'application/json': {
          schema: ERROR_REF,
          ...(r.example !== undefined ? { example: r.example } : {}),
          ...(r.examples ? { examples: r.examples } : {}),
        },
      },
    };
  }
  const headers = Object.fromEntries(
    Object.entries(HEADERS).map(([h, schema]) => [HEADER_COMPONENT[h], schema]),
  );
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
        `Request bodies: ${BODY_NOTE}`,
        'This reference is served at `/api/docs`.',
      ].join('\n\n'),
    },
    // Relative ("/") unless publicUrl is set: the served copy names the address asked at.
    servers: [{ url: publicBase(info.serverUrl) || '/', description: 'This daemon' }],
    security: [{ apiKey: [] }],
    tags: TAGS.filter(([name]) => usedTags.has(name)).map(([name, description]) => ({
      name,
      description,
    })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description:
            '`hk_<keyId>_<secret>`, from the first start or `household-organizer key create`',
        },
      },
      schemas: components.schemas,
      parameters,
      headers,
      responses,
    },
  };
}

/** An operation's answer for one status: its own, or a `$ref` to a shared one. */
interface OpenApiResponse {
  $ref?: string;
  content?: Record<string, unknown>;
  [field: string]: unknown;
}

function errorResponse(
  description: string,
  headers: Record<string, unknown>,
  examples: Record<string, { summary: string; value: unknown }>,
): OpenApiResponse {
  const list = Object.entries(examples);
  return {
    description,
    headers,
    content: {
      'application/json': {
        schema: ERROR_REF,
        ...(list.length
          ? {
              examples: Object.fromEntries(
                list.map(([k, e]) => [k, { summary: e.summary, value: e.value }]),
              ),
            }
          : {}),
      },
    },
  };
}

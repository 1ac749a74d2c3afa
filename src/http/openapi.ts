/**
 * The published OpenAPI 3.1 document, built from the route declarations: request schemas come
 * from the structs that validate requests, response schemas from each route's `response`.
 *
 * Shapes named with `named()` (schema.ts) are published once under `components/schemas` and
 * referred to with `$ref`; so are the error answers every endpoint shares (401, 413, 415, 422,
 * 429, …), the headers and the path parameters. What differs per endpoint stays inline: its
 * 400 example is what the daemon answers to a fixed wrong request to that endpoint
 * (openapiBadRequests.ts), its 404 examples what it answers for each path parameter that names
 * nothing (openapiAnswers.ts, with the answers endpoints share and the header parameters). The
 * named schemas are collected in openapiSchemas.ts, the tags listed in openapiTags.ts.
 */
import { publicBase } from '../config.js';
import { fullPath, requiredScope, type AnyRoute } from '../door/route.js';
import { toJsonSchema, type JsonSchema } from '../door/schema.js';
import { BODY_CAPS } from '../door/jsonShape.js';
import {
  headerRef,
  HEADER_COMPONENT,
  HEADER_PARAMS,
  HEADERS,
  IDEMPOTENCY_KEY_REQUIRED,
  LIMITER_HEADERS,
  NOT_FOUND,
  OUTSIDE_ERRORS,
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

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationId(def: AnyRoute): string {
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

/** What the operations use, so the document's components hold exactly that. */
interface Used {
  components: SchemaComponents;
  responses: Set<string>;
  params: Set<string>;
  requiredKey: boolean;
}

/** An operation's headers: the request id, and the ones `names` adds. */
function headersOf(names: string[]): Record<string, unknown> {
  return Object.fromEntries(['x-request-id', ...names].map((h) => [h, headerRef(h)]));
}

/** Whether a route takes an Idempotency-Key (a write with a key, or a public route that asks one). */
function idempotentRoute(def: AnyRoute): boolean {
  return (
    (requiredScope(def) !== 'public' && def.method !== 'get') || def.idempotencyKey === 'required'
  );
}

/** A route's parameters: path (shared components), query (from the struct), headers. */
function parametersOf(def: AnyRoute, path: string, used: Used): unknown[] {
  const pathParams = [...fullPath(def).matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const parameters: unknown[] = pathParams.map((name) => {
    if (!PATH_PARAMS[name])
      throw new Error(`path parameter ${name} of ${path} is not in openapiAnswers.ts PATH_PARAMS`);
    used.params.add(name);
    return { $ref: `#/components/parameters/${name}` };
  });
  if (def.query) {
    const qs = toJsonSchema(def.query) as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(qs.properties ?? {})) {
      const { description, ...rest } = used.components.use(schema);
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
  if (keyRequired) used.requiredKey = true;
  if (idempotentRoute(def))
    parameters.push({
      $ref: `#/components/parameters/IdempotencyKey${keyRequired ? 'Required' : ''}`,
    });
  return parameters;
}

/** The success answer's headers: the limiter's on keyed routes, replays on idempotent ones. */
function successHeadersOf(def: AnyRoute): Record<string, unknown> {
  // Keyed answers past the rate limiter carry its headers (documented on successes and on
  // 429, where a client looks for them); writes may be replays.
  const limited = requiredScope(def) === 'public' ? [] : LIMITER_HEADERS;
  return headersOf([...limited, ...(idempotentRoute(def) ? ['Idempotent-Replayed'] : [])]);
}

/** The errors of this endpoint with examples of its own: a bad request, a path naming nothing. */
function ownErrors(def: AnyRoute, responses: Record<string, OpenApiResponse>): void {
  const bad = badRequestExample(def);
  if (bad) {
    responses[400] = errorResponse(
      'The request did not match the contract (issues name the fields)',
      headersOf([]),
      { [bad.kind]: { summary: BAD_REQUESTS[bad.kind], value: bad.value } },
    );
  }
  const pathParams = [...fullPath(def).matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const values = Object.fromEntries(pathParams.map((n) => [n, PATH_PARAMS[n].example]));
  const notFound: Record<string, { summary: string; value: unknown }> = {};
  pathParams.forEach((name, i) => {
    const make = NOT_FOUND[name];
    if (make) notFound[name] = make(values, pathParams[i - 1]);
  });
  if (Object.keys(notFound).length || def.errors?.includes(404)) {
    responses[404] = errorResponse('A path parameter names nothing', headersOf([]), notFound);
  }
}

/** The answers every route of its kind shares, as references to the document's components. */
function sharedErrors(def: AnyRoute, responses: Record<string, OpenApiResponse>, used: Used): void {
  const scope = requiredScope(def);
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
  if (idempotentRoute(def)) shared.push([409, 'Conflict'], [422, 'IdempotencyMismatch']);
  if (def.method !== 'get') shared.push([413, 'PayloadTooLarge'], [415, 'UnsupportedMediaType']);
  for (const [code, name] of shared) {
    if (responses[code]) continue;
    used.responses.add(name);
    responses[code] = { $ref: `#/components/responses/${name}` };
  }
}

/** Every answer of a route: success (with its other forms), its own errors, the shared ones. */
function responsesOf(def: AnyRoute, path: string, used: Used): Record<string, OpenApiResponse> {
  const successHeaders = successHeadersOf(def);
  const responses: Record<string, OpenApiResponse> = {
    [def.status ?? 200]: {
      description: 'Success',
      headers: successHeaders,
      content: {
        [def.produces ?? 'application/json']: {
          schema: def.produces ? { type: 'string' } : used.components.use(def.response),
          ...(def.example !== undefined ? { example: def.example } : {}),
        },
      },
    },
  };
  ownErrors(def, responses);
  sharedErrors(def, responses, used);
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
      schema: used.components.use(extra.schema),
    };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** One route as an OpenAPI operation (parts made in the order they name their schemas). */
function operationOf(def: AnyRoute, path: string, used: Used): Record<string, unknown> {
  const scope = requiredScope(def);
  const parameters = parametersOf(def, path, used);
  const responses = responsesOf(def, path, used);
  const body = def.body ? used.components.use(toJsonSchema(def.body)) : undefined;
  return {
    operationId: operationId(def),
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: def.tags,
    ...(scope === 'public' ? { security: [] } : { 'x-scope': scope }),
    parameters,
    ...(body
      ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } }
      : {}),
    responses,
  };
}

/** The document's components: the parameters, headers and shared answers the operations use. */
function componentsOf(used: Used): Record<string, unknown> {
  const parameters: Record<string, unknown> = {
    ...HEADER_PARAMS,
    ...(used.requiredKey ? { IdempotencyKeyRequired: IDEMPOTENCY_KEY_REQUIRED } : {}),
  };
  for (const name of [...used.params].sort()) {
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
  for (const name of Object.keys(SHARED_RESPONSES).filter((n) => used.responses.has(n))) {
    const r = SHARED_RESPONSES[name];
    responses[name] = {
      description: r.description,
      headers: headersOf(r.headers ?? []),
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
  return {
    securitySchemes: {
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description:
          '`hk_<keyId>_<secret>`, from the first start or `household-organizer key create`',
      },
    },
    schemas: used.components.schemas,
    parameters,
    headers,
    responses,
  };
}

export function buildOpenApi(
  routes: readonly AnyRoute[],
  info: { version: string; serverUrl: string },
): JsonSchema {
  const used: Used = {
    components: new SchemaComponents(),
    responses: new Set<string>(['MethodNotAllowed']),
    params: new Set<string>(),
    requiredKey: false,
  };
  const knownTags = new Set(TAGS.map(([name]) => name));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const path = openApiPath(fullPath(def));
    for (const tag of def.tags)
      if (!knownTags.has(tag))
        throw new Error(`tag "${tag}" of ${def.method} ${path} is not in openapiTags.ts TAGS`);
    (paths[path] ??= {})[def.method] = operationOf(def, path, used);
  }
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
    // Built after every operation: they name what they use.
    components: componentsOf(used),
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

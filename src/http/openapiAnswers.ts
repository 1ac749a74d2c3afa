/**
 * What the daemon answers, as the OpenAPI document shows it: the error shape, the path
 * parameters with their example values, each endpoint's 404 examples (built from the same
 * wording the daemon uses; the openapi tests replay them), the answers every endpoint of a kind
 * shares (those asking an outside service too), the headers and the header parameters. The 400
 * examples are in openapiBadRequests.ts; openapi.ts assembles the document.
 */
import { errorBody } from '../door/jsonForm.js';
import type { JsonSchema } from '../door/schema.js';
import { SLUG } from '../family/admin.js';

export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['ok', 'error', 'code'],
  properties: {
    ok: { const: false },
    error: { type: 'string', description: 'A sentence for people' },
    code: {
      type: 'string',
      enum: [
        'invalid_request',
        'unauthorized',
        'forbidden',
        'not_found',
        'conflict',
        'payload_too_large',
        'unsupported_media_type',
        'method_not_allowed',
        'rate_limited',
        'idempotency_mismatch',
        'upstream_failed',
        'upstream_timeout',
        'not_configured',
        'not_implemented',
        'insufficient_storage',
        'unavailable',
        'internal',
      ],
    },
    issues: {
      type: 'array',
      maxItems: 20,
      description:
        'Each problem with the path of the field it concerns (`["query", "limit"]` for a query parameter); at most 20 (see issueCount)',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          message: { type: 'string' },
        },
      },
    },
    issueCount: {
      type: 'integer',
      minimum: 21,
      description:
        'Present when more problems were found than `issues` lists: how many (counting stops at 1,000)',
    },
  },
};

/** Path parameters: what each names, and the example value the 404 examples use. */
export const PATH_PARAMS: Record<
  string,
  { description: string; example: string; pattern?: string }
> = {
  familySlug: {
    description: "The family's slug; an API key works only on its own family",
    example: 'home',
    pattern: SLUG.source,
  },
  collectionKey: {
    description: "A collection's key (wire name: tracker)",
    example: 'packing-list',
  },
  entryId: { description: 'An entry of the collection', example: 'ent_01kaq5m2v8x3c4d5e6f7' },
  personId: { description: 'A person of the family', example: 'person_01kaq5m2v8x3c4d5e6f7' },
  eventId: {
    description: 'A calendar event (an entry of a calendar collection)',
    example: 'ent_01kaq5m2v8x3c4d5e6f7',
  },
  shareId: { description: 'A calendar share', example: 'share_01kaq5m2v8x3c4d5e6f7' },
  planId: { description: 'A plan', example: 'plan_01kaq5m2v8x3c4d5e6f7' },
  noteId: { description: 'A note of the plan', example: 'note_01kaq5m2v8x3c4d5e6f7' },
  pollId: { description: 'A poll of the plan', example: 'poll_01kaq5m2v8x3c4d5e6f7' },
  optionId: { description: 'An option of the poll', example: 'option_01kaq5m2v8x3c4d5e6f7' },
  sourceId: { description: 'An external feed', example: 'src_01kaq5m2v8x3c4d5e6f7' },
  triggerId: { description: 'A notification routine', example: 'trg_01kaq5m2v8x3c4d5e6f7' },
  destinationId: { description: 'A webhook destination', example: 'whd_01kaq5m2v8x3c4d5e6f7' },
  token: {
    description: "The plan's share token: the credential of the page",
    example: 'pln_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH',
  },
  file: {
    description: 'The share token with `.ics` (the token alone is accepted too)',
    example: 'shr_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH.ics',
  },
  asset: { description: 'A file of the reference page', example: 'swagger-ui.css' },
  assetVersion: {
    description: "A hash of the family display's script, which the page names",
    example: 'Hq3mZ0bS1x9Ld2Kc',
  },
  assetFolder: { description: "A folder of the display's script", example: 'display' },
  assetFile: { description: "A module of the display's script", example: 'main.js' },
  grantId: { description: "An assistant's OAuth grant", example: 'grant_01kaq5m2v8x3c4d5e6f7' },
  deviceId: { description: "A device: its API key's id", example: 'A1b2C3d4E5f6' },
  displayId: { description: 'A family display link', example: 'display_01kaq5m2v8x3c4d5e6f7' },
  displayToken: {
    description: "The display's token: the credential of the page",
    example: 'dsp_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH',
  },
};

/**
 * What the daemon answers when the path parameter names nothing (the parameters before it
 * naming something); the wording is the domain's, held to it by the openapi tests.
 */
export const NOT_FOUND: Record<
  string,
  (v: Record<string, string>, parent?: string) => { summary: string; value: unknown }
> = {
  collectionKey: (v) => ({
    summary: 'No such collection',
    value: errorBody(`No collection ${v.collectionKey} in this family`, 'not_found'),
  }),
  entryId: (v) => ({
    summary: 'No such entry in the collection',
    value: errorBody(`entryId is not an entry of ${v.collectionKey}: ${v.entryId}`, 'not_found', [
      { path: ['entryId'], message: `is not an entry of ${v.collectionKey}: ${v.entryId}` },
    ]),
  }),
  personId: (v) => ({
    summary: 'No such person',
    value: errorBody(`No person ${v.personId} in this family`, 'not_found'),
  }),
  eventId: (v, parent) =>
    parent === 'planId'
      ? {
          summary: 'The event is not linked to the plan',
          value: errorBody(`Event ${v.eventId} is not linked to plan ${v.planId}`, 'not_found'),
        }
      : {
          summary: 'No such calendar event',
          value: errorBody(`No calendar event ${v.eventId} in this family`, 'not_found'),
        },
  shareId: (v) => ({
    summary: 'No such share',
    value: errorBody(`No calendar share ${v.shareId} in this family`, 'not_found'),
  }),
  displayId: (v) => ({
    summary: 'No such display',
    value: errorBody(`No display ${v.displayId} in this family`, 'not_found'),
  }),
  planId: (v) => ({
    summary: 'No such plan',
    value: errorBody(`No plan ${v.planId} in this family`, 'not_found'),
  }),
  noteId: (v) => ({
    summary: 'No such note in the plan',
    value: errorBody(`No note ${v.noteId} in plan ${v.planId}`, 'not_found'),
  }),
  pollId: (v) => ({
    summary: 'No such poll in the plan',
    value: errorBody(`No poll ${v.pollId} in plan ${v.planId}`, 'not_found'),
  }),
  optionId: (v) => ({
    summary: 'No such option in the poll',
    value: errorBody(`No option ${v.optionId} in poll ${v.pollId}`, 'not_found'),
  }),
  sourceId: (v) => ({
    summary: 'No such external calendar',
    value: errorBody(`No external calendar ${v.sourceId} in this family`, 'not_found'),
  }),
  triggerId: (v) => ({
    summary: 'No such routine',
    value: errorBody(`No notification routine ${v.triggerId} in this family`, 'not_found'),
  }),
  destinationId: (v) => ({
    summary: 'No such destination',
    value: errorBody(`No webhook destination ${v.destinationId} in this family`, 'not_found'),
  }),
  token: () => ({
    summary: 'Unknown, malformed or unshared token',
    value: errorBody('No shared plan at this address', 'not_found'),
  }),
  file: () => ({
    summary: 'Unknown, malformed or revoked token',
    value: errorBody('No calendar share at this address', 'not_found'),
  }),
  asset: () => ({
    summary: 'Not a file of the page',
    value: errorBody('No such file of the API reference', 'not_found'),
  }),
  grantId: (v) => ({
    summary: 'No such grant',
    value: errorBody(`No OAuth grant ${v.grantId} in this family`, 'not_found'),
  }),
  deviceId: (v) => ({
    summary: 'No such device',
    value: errorBody(`No device ${v.deviceId} in this family`, 'not_found'),
  }),
};

/** Headers the rate limiter sets on every answer to a keyed request it let through. */
export const LIMITER_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** The 403 of an endpoint that needs `scope`: a key of another family, or one without it. */
function forbiddenWithout(scope: 'write' | 'admin', summary: string) {
  return {
    description: `The API key belongs to another family, or lacks the ${scope} scope`,
    examples: {
      otherFamily: {
        summary: 'A key of another family',
        value: errorBody('This API key does not belong to that family', 'forbidden'),
      },
      scope: { summary, value: errorBody(`This API key lacks the "${scope}" scope`, 'forbidden') },
    },
  };
}

/** Answers every endpoint of a kind shares, published once under components/responses. */
export const SHARED_RESPONSES: Record<
  string,
  {
    description: string;
    example?: unknown;
    examples?: Record<string, { summary: string; value: unknown }>;
    headers?: string[];
  }
> = {
  Unauthorized: {
    description: 'The x-api-key header is missing, or the key is unknown, malformed or revoked',
    examples: {
      missing: {
        summary: 'No key',
        value: errorBody('The x-api-key header is missing', 'unauthorized'),
      },
      invalid: {
        summary: 'Unknown, malformed or revoked key',
        value: errorBody(
          'The API key is not valid (unknown, malformed or revoked)',
          'unauthorized',
        ),
      },
    },
  },
  Forbidden: {
    description: 'The API key belongs to another family (whether or not this one exists)',
    example: errorBody('This API key does not belong to that family', 'forbidden'),
  },
  ForbiddenWrite: forbiddenWithout('write', 'A read-only key'),
  ForbiddenAdmin: forbiddenWithout('admin', 'A key without admin'),
  Conflict: {
    description:
      'The change conflicts with the current state (the error says how), or a request with the same Idempotency-Key is still running',
    example: errorBody('A request with this Idempotency-Key is still being processed', 'conflict'),
  },
  PayloadTooLarge: {
    description: 'The body is larger than server.bodyLimitBytes (1 MiB by default)',
    example: errorBody(
      'The request body is larger than the limit of 1048576 bytes',
      'payload_too_large',
    ),
  },
  UnsupportedMediaType: {
    description:
      'The body is not UTF-8 JSON (application/json or application/*+json), or its Content-Encoding is not identity, gzip, deflate or br',
    example: errorBody(
      'Request bodies must be JSON (content-type: application/json or application/*+json)',
      'unsupported_media_type',
    ),
  },
  IdempotencyMismatch: {
    description: 'The Idempotency-Key was used with a different request in the last 24 h',
    example: errorBody(
      'This Idempotency-Key was used with a different request',
      'idempotency_mismatch',
    ),
  },
  RateLimited: {
    description:
      'Too many requests for this API key in the last minute; Retry-After says when to try again',
    example: errorBody('Too many requests for this API key; try again in 12 s', 'rate_limited'),
    headers: ['Retry-After', ...LIMITER_HEADERS],
  },
  RateLimitedPublic: {
    description:
      'Too many requests from this client address in the last minute (routes without a key, and repeated 401s); Retry-After says when to try again',
    example: errorBody('Too many requests from this address; try again in 12 s', 'rate_limited'),
    headers: ['Retry-After'],
  },
  MethodNotAllowed: {
    description:
      'A known path with a method it does not take; Allow lists those it takes. No operation answers this: any method a path does not list does.',
    example: errorBody(
      'PUT is not allowed on this path; it takes HEAD, GET, POST',
      'method_not_allowed',
    ),
    headers: ['Allow'],
  },
};

export const HEADERS: Record<string, JsonSchema> = {
  'x-request-id': {
    description:
      "The request's id, as sent in x-request-id when it is 1 to 128 of `A-Za-z0-9._:-`, else made up; it names the request's line in the log",
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the kept answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', const: 'true' },
  },
  'Retry-After': {
    description: 'Seconds until the API key may send again',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Limit': {
    description: 'Requests a minute this API key may send (rateLimit.perMinute)',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description:
      'Requests left in the current minute (on every answer to a keyed request past the key check)',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: "Seconds until the current minute's window ends",
    schema: { type: 'integer', minimum: 1 },
  },
  Allow: {
    description: 'The methods the path takes, comma-separated',
    schema: { type: 'string' },
    example: 'HEAD, GET, POST',
  },
};
export const HEADER_COMPONENT: Record<string, string> = {
  'x-request-id': 'RequestId',
  'Idempotent-Replayed': 'IdempotentReplayed',
  'Retry-After': 'RetryAfter',
  Allow: 'Allow',
  'RateLimit-Limit': 'RateLimitLimit',
  'RateLimit-Remaining': 'RateLimitRemaining',
  'RateLimit-Reset': 'RateLimitReset',
};
export const headerRef = (h: string) => ({ $ref: `#/components/headers/${HEADER_COMPONENT[h]}` });

/** Answers of endpoints that ask an outside service (weather, web search, page text). */
export const OUTSIDE_ERRORS: Record<number, { description: string; example: unknown }> = {
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
export const HEADER_PARAMS = {
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
export const IDEMPOTENCY_KEY_REQUIRED = {
  ...HEADER_PARAMS.IdempotencyKey,
  required: true,
  description:
    'Made once per action (at the tap) and sent with every retry of it: a repeat with the same body gets the first answer again (with Idempotent-Replayed: true), so the action is applied once',
};

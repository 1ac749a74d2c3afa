/**
 * Each endpoint's 400 example in the OpenAPI document: the daemon's answer to one of a few
 * fixed wrong requests, built from the same validation and wording the daemon uses (the openapi
 * tests send the same requests and compare).
 */
import { errorBody } from '../door/jsonForm.js';
import { requiredScope, type AnyRoute } from '../door/route.js';
import { toJsonSchema } from '../door/schema.js';
import { validateInput } from '../door/validate.js';
import { Invalid } from '../domain/shared/errors.js';
import { domainCode } from '../door/errors.js';

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

function invalidAnswer(
  value: unknown,
  struct: NonNullable<AnyRoute['body']>,
  prefix: (string | number)[] = [],
): Record<string, unknown> | null {
  try {
    validateInput(value, struct, prefix);
    return null;
  } catch (err) {
    if (err instanceof Invalid) return errorBody(err.message, domainCode(err.kind), err.issues);
    throw err;
  }
}

/** The endpoint's 400 answer to one of BAD_REQUESTS, or null where it cannot answer 400. */
export function badRequestExample(def: AnyRoute): { kind: BadRequest; value: unknown } | null {
  const anyBody = def.body && Object.keys(toJsonSchema(def.body)).length === 0;
  if (def.method !== 'get') {
    if (def.body && !anyBody) {
      const empty = invalidAnswer({}, def.body);
      if (empty) return { kind: 'emptyBody', value: empty };
      const unknown = invalidAnswer({ unknownField: true }, def.body);
      if (unknown) return { kind: 'unknownField', value: unknown };
    } else if (!def.body) {
      // app.ts refuses any field on an endpoint that takes no body.
      return {
        kind: 'unknownField',
        value: errorBody(
          'unknownField is not a known field: this endpoint takes no body',
          'invalid_request',
          [{ path: ['unknownField'], message: 'is not a known field' }],
        ),
      };
    }
    return {
      kind: 'malformedJson',
      value: errorBody('The request body is not valid JSON', 'invalid_request', [
        { path: [], message: 'is not valid JSON' },
      ]),
    };
  }
  if (def.query) {
    const unknown = invalidAnswer({ unknownParam: '1' }, def.query, ['query']);
    return unknown ? { kind: 'unknownQuery', value: unknown } : null;
  }
  if (requiredScope(def) === 'public') return null; // public pages ignore query strings
  // app.ts refuses query parameters on family routes that declare none.
  return {
    kind: 'unknownQuery',
    value: errorBody('query.unknownParam is not a known query parameter', 'invalid_request', [
      { path: ['query', 'unknownParam'], message: 'is not a known query parameter' },
    ]),
  };
}

/**
 * A tool's input schema is its route's request, flattened into one object: the path's
 * parameters, then the query's fields, then the body's — each taken from the same superstruct
 * structs that validate the REST request and feed the OpenAPI document (toJsonSchema).
 */
import { toJsonSchema, type JsonSchema } from '../door/schema.js';
import type { AnyRoute } from '../door/route.js';
import type { ToolSpec } from './tools.js';

export type Place = 'path' | 'query' | 'body';

export interface ToolShape {
  inputSchema: JsonSchema & { type: 'object' };
  /** Where each offered argument goes in the REST request. */
  places: Map<string, Place>;
  /** Path parameters in template order. */
  pathParams: string[];
}

/**
 * What a path argument may be: one segment of the route's parameter — letters, digits, ".",
 * "_" and "-", starting with a letter or digit (every collection key and id the daemon makes
 * is one). So `.`, `..`, slashes (also encoded: `%` is refused), backslashes, control
 * characters, `?` and `#` never reach the URL, where `..` would climb to another route.
 */
export const PATH_ARGUMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const PATH_ARGUMENT_RULE =
  'must be one path segment: letters, digits, ".", "_" or "-", starting with a letter or digit (at most 128)';

const PATH_PARAM_TEXT: Record<string, string> = {
  collectionKey: 'The collection\'s key, as list_collections shows it (e.g. "shopping")',
  entryId: "The entry's id, as list_entries shows it",
  eventId: "The event's id (the series' id for a repeating event), as list_events shows it",
  planId: "The plan's id, as list_plans shows it",
  pollId: "The poll's id, as get_plan shows it",
};

function objectParts(schema: JsonSchema): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  return {
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: (schema.required ?? []) as string[],
  };
}

export function toolShape(tool: ToolSpec, def: AnyRoute): ToolShape {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const places = new Map<string, Place>();
  const pathParams = [...def.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  for (const name of pathParams) {
    properties[name] = {
      type: 'string',
      minLength: 1,
      pattern: PATH_ARGUMENT.source,
      description: PATH_PARAM_TEXT[name] ?? `The ${name} of the path`,
    };
    required.add(name);
    places.set(name, 'path');
  }
  const offered = (name: string) => tool.only === undefined || tool.only.includes(name);
  for (const [place, struct] of [
    ['query', def.query],
    ['body', def.body],
  ] as const) {
    if (!struct) continue;
    const parts = objectParts(toJsonSchema(struct));
    for (const [name, schema] of Object.entries(parts.properties)) {
      if (!offered(name) || places.has(name)) continue;
      properties[name] = schema;
      places.set(name, place);
      if (parts.required.includes(name)) required.add(name);
    }
  }
  for (const name of tool.require ?? []) if (places.has(name)) required.add(name);
  return {
    inputSchema: {
      type: 'object',
      properties,
      ...(required.size ? { required: [...required] } : {}),
      additionalProperties: false,
    },
    places,
    pathParams,
  };
}

/**
 * Holds a value the daemon sent to the JSON Schema it publishes for it, closed: every object the
 * schema describes by its properties refuses keys it does not name, so the schema must say all
 * that is sent (a field the code adds and the schema forgets fails), and every `required` key
 * must be there, of its type and format (ajv, JSON Schema 2020-12, formats checked).
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../../src/door/schema.js';

// ajv's and ajv-formats' CommonJS default exports.
const AjvClass = (Ajv2020 as any).default ?? Ajv2020;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

/** The schema with `additionalProperties: false` on every object it gives properties. */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties') {
      out[k] = Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)]));
    } else out[k] = k === 'examples' || k === 'const' || k === 'enum' ? v : closed(v);
  }
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const ajv = new AjvClass({ strict: false, allErrors: true });
addFormats(ajv);

/** The value is one the published schema describes, every key of it named there. */
export function holdsTo(schema: JsonSchema, value: unknown, what: string): void {
  const validate = ajv.compile(closed(schema));
  expect(validate(value), `${what}: ${JSON.stringify(validate.errors, null, 1)}`).to.equal(true);
}

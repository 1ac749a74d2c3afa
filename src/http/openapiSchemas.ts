/**
 * The named schemas of the published OpenAPI document: SchemaComponents copies each schema tree
 * openapi.ts publishes, putting every shape named with `named()` (schema.ts), and the error
 * shape, once under `components/schemas` and a `$ref` in its place.
 */
import { schemaName, type JsonSchema } from '../door/schema.js';
import { ERROR_SCHEMA } from './openapiAnswers.js';

/** Collects named schemas while copying a schema tree, replacing each by a `$ref`. */
export class SchemaComponents {
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
      out[k] =
        k === 'examples' || k === 'example' || k === 'const' || k === 'enum' || k === 'default'
          ? v
          : this.copy(v);
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

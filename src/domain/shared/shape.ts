/**
 * An answer's shape described once: `J.*` builds its JSON Schema, and the TypeScript type of
 * the value is read from the same description (`ShapeOf`), so the type the code writes and the
 * schema the OpenAPI document publishes cannot drift apart (docs/design.md, "Records described
 * once"). Answers only: a request is described by its struct (`S.*`, schema.ts), which also
 * validates it; an answer's schema states no bounds and leaves extra keys open.
 */
import type { JsonSchema } from './schema.js';

/** A shape: its JSON Schema, and (for the compiler only, never set) its type. */
export interface Shape<T> {
  readonly schema: JsonSchema;
  readonly type?: T;
}
export type ShapeOf<S> = S extends Shape<infer T> ? T : never;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any shape of an object's keys
type Shapes = Record<string, Shape<any>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};

const doc = (description?: string): JsonSchema => (description ? { description } : {});

export const J = {
  string: (description?: string): Shape<string> => ({
    schema: { type: 'string', ...doc(description) },
  }),
  integer: (description?: string): Shape<number> => ({
    schema: { type: 'integer', ...doc(description) },
  }),
  number: (description?: string): Shape<number> => ({
    schema: { type: 'number', ...doc(description) },
  }),
  /** A calendar date `YYYY-MM-DD`. */
  date: (description?: string): Shape<string> => ({
    schema: { type: 'string', format: 'date', ...doc(description) },
  }),
  boolean: (description?: string): Shape<boolean> => ({
    schema: { type: 'boolean', ...doc(description) },
  }),
  literal: <const V extends string | number | boolean>(value: V): Shape<V> => ({
    schema: { const: value },
  }),
  enums: <const V extends string>(values: readonly V[], description?: string): Shape<V> => ({
    schema: { type: 'string', enum: [...values], ...doc(description) },
  }),
  /** Its value or null: `type: [t, 'null']` for a simple type, else `anyOf`. */
  nullable<T>(shape: Shape<T>, description?: string): Shape<T | null> {
    const s = shape.schema;
    const simple = typeof s.type === 'string' && !s.enum;
    return {
      schema: simple
        ? { ...s, type: [s.type, 'null'], ...doc(description) }
        : { anyOf: [s, { type: 'null' }], ...doc(description) },
    };
  },
  array: <T>(items: Shape<T>, description?: string): Shape<T[]> => ({
    schema: { type: 'array', items: items.schema, ...doc(description) },
  }),
  /**
   * An object: the keys of `always` are required, those of `sometimes` may be absent (an object
   * of only those states no `required`).
   */
  object<A extends Shapes, O extends Shapes = Record<never, never>>(
    always: A,
    sometimes?: O,
    description?: string,
  ): Shape<Flat<{ [K in keyof A]: ShapeOf<A[K]> } & { [K in keyof O]?: ShapeOf<O[K]> }>> {
    const properties: Record<string, JsonSchema> = {};
    for (const [k, v] of Object.entries({ ...always, ...sometimes })) properties[k] = v.schema;
    return {
      schema: {
        type: 'object',
        ...(Object.keys(always).length ? { required: Object.keys(always) } : {}),
        properties,
        ...doc(description),
      },
    };
  },
  /** An object of any keys, each value of one shape (person id → answer). */
  map: <T>(values: Shape<T>, description?: string): Shape<Record<string, T>> => ({
    schema: { type: 'object', additionalProperties: values.schema, ...doc(description) },
  }),
  /** The shape with its description (a shared shape described where it is used). */
  described: <T>(shape: Shape<T>, description: string): Shape<T> => ({
    schema: { ...shape.schema, description },
  }),
  /** The object shape refusing keys it does not name (an answer that promises no more). */
  closed: <T>(shape: Shape<T>): Shape<T> => ({
    schema: { ...shape.schema, additionalProperties: false },
  }),
  /** A schema written elsewhere, with the type of what it describes. */
  of: <T>(schema: JsonSchema): Shape<T> => ({ schema }),
};

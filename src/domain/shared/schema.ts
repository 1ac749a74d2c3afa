/**
 * Request schemas: thin constructors over superstruct that also remember the JSON Schema of
 * what they accept, so the published OpenAPI document is derived from the very structs that
 * validate requests (superstruct's refinements and `optional` leave no trace a converter could
 * read). Route schema files build their request structs from `S.*` only.
 *
 * Error messages are written for people: every failure names its field (see validate.ts).
 */
import * as ss from 'superstruct';
import type { Struct } from 'superstruct';
import { isCalendarDate, parseLocalTime } from './time.js';
import { charCount } from './text.js';

export type JsonSchema = Record<string, unknown>;

/**
 * A struct of values T, whatever its schema: superstruct's second parameter is the struct's own
 * description (an object's fields, an enum's values), different for every constructor and never
 * read here. The library's own bound (`Infer<T extends SomeStruct>`) leaves it open too;
 * `unknown` would refuse most structs, as that parameter is not covariant.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- superstruct's own bound (above)
export type SomeStruct<T = any> = Struct<T, any>;

interface Meta {
  schema: JsonSchema;
  optional?: boolean;
}
const metas = new WeakMap<SomeStruct, Meta>();

function annotate<T extends SomeStruct>(struct: T, schema: JsonSchema, optional = false): T {
  metas.set(struct, { schema, optional });
  return struct;
}

export function isOptional(struct: SomeStruct): boolean {
  return metas.get(struct)?.optional === true;
}

const names = new WeakMap<object, string>();

/**
 * Names a shape of the API once, where it is defined: the OpenAPI document then publishes it
 * as `components/schemas/<name>` and refers to it with `$ref` wherever the same schema object
 * appears (so a person, an entry or a poll is described once, not at every operation that
 * answers one). Takes a JSON Schema or a struct built with `S.*`; returns it unchanged.
 */
export function named<T extends JsonSchema | SomeStruct>(name: string, schemaOrStruct: T): T {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name))
    throw new Error(`schema name ${JSON.stringify(name)} must be alphanumeric`);
  const schema =
    schemaOrStruct instanceof ss.Struct ? toJsonSchema(schemaOrStruct) : schemaOrStruct;
  const had = names.get(schema);
  if (had !== undefined && had !== name)
    throw new Error(`schema ${had} cannot also be named ${name}`);
  names.set(schema, name);
  return schemaOrStruct;
}

/** The name given to this very schema object by named(), if any. */
export function schemaName(schema: object): string | undefined {
  return names.get(schema);
}

/** The JSON Schema of a struct built with `S.*`. */
export function toJsonSchema(struct: SomeStruct): JsonSchema {
  const meta = metas.get(struct);
  if (meta) return meta.schema;
  return {};
}

function refineMsg<T, D>(
  struct: Struct<T, D>,
  name: string,
  check: (v: T) => boolean,
  message: string,
): Struct<T, D> {
  return ss.refine(struct, name, (v) => check(v) || message);
}

const numeric = /^-?\d+(\.\d+)?$/;

/** A number struct that also refuses values outside [min, max] (either bound may be absent). */
function inRange(
  s: Struct<number, null>,
  min: number | undefined,
  max: number | undefined,
): Struct<number, null> {
  if (min === undefined && max === undefined) return s;
  return refineMsg(
    s,
    'range',
    (v) => (min === undefined || v >= min) && (max === undefined || v <= max),
    min !== undefined && max !== undefined
      ? `must be between ${min} and ${max}`
      : min !== undefined
        ? `must be at least ${min}`
        : `must be at most ${max}`,
  );
}

/** The JSON Schema words for those bounds. */
function rangeSchema(min: number | undefined, max: number | undefined): JsonSchema {
  return {
    ...(min !== undefined ? { minimum: min } : {}),
    ...(max !== undefined ? { maximum: max } : {}),
  };
}

export const S = {
  string(
    opts: {
      min?: number;
      max?: number;
      pattern?: RegExp;
      format?: string;
      description?: string;
    } = {},
  ): Struct<string, null> {
    let s: Struct<string, null> = ss.string();
    const { min = 0, max, pattern } = opts;
    if (min > 0 || max !== undefined) {
      s = refineMsg(
        s,
        'length',
        (v) => {
          const n = charCount(v);
          return n >= min && (max === undefined || n <= max);
        },
        max === undefined
          ? `must be at least ${min} character${min === 1 ? '' : 's'} long`
          : min === 0
            ? `must be at most ${max} characters long`
            : min === max
              ? `must be ${min} characters long`
              : `must be ${min} to ${max} characters long`,
      );
    }
    if (pattern)
      s = refineMsg(s, 'pattern', (v) => pattern.test(v), `must match ${pattern.source}`);
    return annotate(s, {
      type: 'string',
      ...(min > 0 ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
      ...(pattern ? { pattern: pattern.source } : {}),
      ...(opts.format ? { format: opts.format } : {}),
      ...(opts.description ? { description: opts.description } : {}),
    });
  },

  /** Whole numbers; from a query string "12" is accepted. */
  integer(
    min?: number,
    max?: number,
    doc: { default?: number; description?: string } = {},
  ): Struct<number, null> {
    const s = inRange(
      ss.coerce(ss.integer(), ss.string(), (v) => (numeric.test(v) ? Number(v) : v)),
      min,
      max,
    );
    return annotate(s, {
      type: 'integer',
      ...rangeSchema(min, max),
      ...(doc.default !== undefined ? { default: doc.default } : {}),
      ...(doc.description ? { description: doc.description } : {}),
    });
  },

  number(min?: number, max?: number): Struct<number, null> {
    const coerced = ss.coerce(ss.number(), ss.string(), (v) => (numeric.test(v) ? Number(v) : v));
    const s = inRange(
      refineMsg(coerced, 'finite', (v) => Number.isFinite(v), 'must be a finite number'),
      min,
      max,
    );
    return annotate(s, { type: 'number', ...rangeSchema(min, max) });
  },

  /** Booleans; from a query string "true"/"false" are accepted. */
  boolean(): Struct<boolean, null> {
    const s = ss.coerce(ss.boolean(), ss.string(), (v) =>
      v === 'true' ? true : v === 'false' ? false : v,
    );
    return annotate(s, { type: 'boolean' });
  },

  enums<const T extends string>(values: readonly T[]): SomeStruct<T> {
    return annotate(ss.enums(values as T[]), { type: 'string', enum: [...values] });
  },

  literal<const T extends string | number | boolean>(value: T): SomeStruct<T> {
    return annotate(ss.literal(value) as SomeStruct<T>, { const: value });
  },

  /** A calendar-valid `YYYY-MM-DD` date (2026-02-29 is rejected, 2028-02-29 accepted). */
  date(): Struct<string, null> {
    const s = refineMsg(ss.string(), 'date', isCalendarDate, 'must be a calendar date YYYY-MM-DD');
    return annotate(s, { type: 'string', format: 'date' });
  },

  /** A local time, `HH:mm` 24-hour or `3:30 PM`; normalized to `HH:mm`. */
  time(): Struct<string, null> {
    const s = ss.coerce(
      refineMsg(
        ss.string(),
        'time',
        (v) => /^\d{2}:\d{2}$/.test(v) && parseLocalTime(v) === v,
        'must be a time HH:mm or h:mm AM/PM',
      ),
      ss.string(),
      (v) => parseLocalTime(v) ?? v,
    );
    return annotate<Struct<string, null>>(s, {
      type: 'string',
      description: 'Local time HH:mm (24-hour); 3:30 PM is accepted',
      examples: ['15:30'],
    });
  },

  array<T>(element: SomeStruct<T>, opts: { min?: number; max?: number } = {}): SomeStruct<T[]> {
    let s: SomeStruct<T[]> = ss.array(element);
    const { min, max } = opts;
    if (min !== undefined || max !== undefined) {
      s = refineMsg(
        s,
        'size',
        (v) => (min === undefined || v.length >= min) && (max === undefined || v.length <= max),
        min !== undefined && max !== undefined
          ? `must have ${min} to ${max} items`
          : min !== undefined
            ? `must have at least ${min} item${min === 1 ? '' : 's'}`
            : `must have at most ${max} items`,
      );
    }
    return annotate(s, {
      type: 'array',
      items: toJsonSchema(element),
      ...(min !== undefined ? { minItems: min } : {}),
      ...(max !== undefined ? { maxItems: max } : {}),
    });
  },

  /** An object that refuses unknown fields (typos must not pass silently). */
  object<Sch extends Record<string, SomeStruct>>(
    schema: Sch,
    description?: string,
  ): SomeStruct<ss.Infer<ReturnType<typeof ss.object<Sch>>>> {
    const s = ss.object(schema);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [k, v] of Object.entries(schema)) {
      properties[k] = toJsonSchema(v);
      if (!isOptional(v)) required.push(k);
    }
    return annotate(s, {
      type: 'object',
      properties,
      additionalProperties: false,
      ...(required.length ? { required } : {}),
      ...(description ? { description } : {}),
    });
  },

  /** Free-form object with values of one struct (string keys). */
  record<V>(value: SomeStruct<V>, keyPattern?: RegExp): SomeStruct<Record<string, V>> {
    const key = keyPattern
      ? refineMsg(
          ss.string(),
          'key',
          (k) => keyPattern.test(k),
          `keys must match ${keyPattern.source}`,
        )
      : ss.string();
    return annotate(ss.record(key, value), {
      type: 'object',
      additionalProperties: toJsonSchema(value),
      ...(keyPattern ? { propertyNames: { pattern: keyPattern.source } } : {}),
    });
  },

  optional<T>(struct: SomeStruct<T>): SomeStruct<T | undefined> {
    return annotate(ss.optional(struct), toJsonSchema(struct), true);
  },

  nullable<T>(struct: SomeStruct<T>): SomeStruct<T | null> {
    const inner = toJsonSchema(struct);
    return annotate(ss.nullable(struct), { anyOf: [inner, { type: 'null' }] });
  },

  /**
   * One of several objects told apart by the value of one field (a discriminated union, such as
   * a display's actions by `action`): the object is checked against the variant its `tag`
   * names, and an unknown tag is named as such.
   */
  tagged<V extends Record<string, SomeStruct>>(
    tag: string,
    variants: V,
  ): SomeStruct<ss.Infer<V[keyof V]>> {
    const kinds = Object.keys(variants);
    const unknownTag = ss.type({ [tag]: ss.enums(kinds) });
    const s = ss.dynamic((value) => {
      const k =
        typeof value === 'object' && value !== null
          ? (value as Record<string, unknown>)[tag]
          : undefined;
      return typeof k === 'string' && Object.hasOwn(variants, k) ? variants[k] : unknownTag;
    });
    return annotate(s as SomeStruct<ss.Infer<V[keyof V]>>, {
      oneOf: kinds.map((k) => toJsonSchema(variants[k])),
    });
  },

  /** Any JSON value. */
  any(description?: string): SomeStruct<unknown> {
    return annotate(ss.unknown(), description ? { description } : {});
  },

  /** Extra checks on a struct, keeping its JSON Schema (plus a description of the rule). */
  refine<T>(
    struct: SomeStruct<T>,
    name: string,
    check: (v: T) => true | string,
    note?: string,
  ): SomeStruct<T> {
    const base = toJsonSchema(struct);
    return annotate(
      ss.refine(struct, name, check),
      note ? { ...base, description: note } : base,
      isOptional(struct),
    );
  },
};

export type Infer<T extends SomeStruct> = ss.Infer<T>;

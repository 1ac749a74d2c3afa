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
import { isCalendarDate, parseLocalTime } from '../domain/shared/time.js';
import { charCount } from '../domain/shared/text.js';

export type JsonSchema = Record<string, unknown>;

interface Meta { schema: JsonSchema; optional?: boolean }
const metas = new WeakMap<Struct<any, any>, Meta>();

function annotate<T extends Struct<any, any>>(struct: T, schema: JsonSchema, optional = false): T {
  metas.set(struct, { schema, optional });
  return struct;
}

export function isOptional(struct: Struct<any, any>): boolean {
  return metas.get(struct)?.optional === true;
}

const names = new WeakMap<object, string>();

/**
 * Names a shape of the API once, where it is defined: the OpenAPI document then publishes it
 * as `components/schemas/<name>` and refers to it with `$ref` wherever the same schema object
 * appears (so a person, an entry or a poll is described once, not at every operation that
 * answers one). Takes a JSON Schema or a struct built with `S.*`; returns it unchanged.
 */
export function named<T extends JsonSchema | Struct<any, any>>(name: string, schemaOrStruct: T): T {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`schema name ${JSON.stringify(name)} must be alphanumeric`);
  const schema = schemaOrStruct instanceof ss.Struct ? toJsonSchema(schemaOrStruct) : schemaOrStruct;
  const had = names.get(schema);
  if (had !== undefined && had !== name) throw new Error(`schema ${had} cannot also be named ${name}`);
  names.set(schema, name);
  return schemaOrStruct;
}

/** The name given to this very schema object by named(), if any. */
export function schemaName(schema: object): string | undefined {
  return names.get(schema);
}

/** The JSON Schema of a struct built with `S.*`. */
export function toJsonSchema(struct: Struct<any, any>): JsonSchema {
  const meta = metas.get(struct);
  if (meta) return meta.schema;
  return {};
}

function refineMsg<T>(struct: Struct<T, any>, name: string, check: (v: T) => boolean, message: string): Struct<T, any> {
  return ss.refine(struct, name, (v) => check(v) || message);
}

const numeric = /^-?\d+(\.\d+)?$/;

export const S = {
  string(opts: { min?: number; max?: number; pattern?: RegExp; format?: string; description?: string } = {}): Struct<string, null> {
    let s: Struct<string, any> = ss.string();
    const { min = 0, max, pattern } = opts;
    if (min > 0 || max !== undefined) {
      s = refineMsg(s, 'length', (v) => { const n = charCount(v); return n >= min && (max === undefined || n <= max); },
        max === undefined ? `must be at least ${min} character${min === 1 ? '' : 's'} long`
          : min === 0 ? `must be at most ${max} characters long`
            : min === max ? `must be ${min} characters long` : `must be ${min} to ${max} characters long`);
    }
    if (pattern) s = refineMsg(s, 'pattern', (v) => pattern.test(v), `must match ${pattern.source}`);
    return annotate(s, {
      type: 'string',
      ...(min > 0 ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
      ...(pattern ? { pattern: pattern.source } : {}),
      ...(opts.format ? { format: opts.format } : {}),
      ...(opts.description ? { description: opts.description } : {}),
    }) as Struct<string, null>;
  },

  /** Whole numbers; from a query string "12" is accepted. */
  integer(min?: number, max?: number, doc: { default?: number; description?: string } = {}): Struct<number, null> {
    let s: Struct<number, any> = ss.coerce(ss.integer(), ss.string(), (v) => (numeric.test(v) ? Number(v) : v));
    if (min !== undefined || max !== undefined) {
      s = refineMsg(s, 'range', (v) => (min === undefined || v >= min) && (max === undefined || v <= max),
        min !== undefined && max !== undefined ? `must be between ${min} and ${max}`
          : min !== undefined ? `must be at least ${min}` : `must be at most ${max}`);
    }
    return annotate(s, {
      type: 'integer', ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}),
      ...(doc.default !== undefined ? { default: doc.default } : {}), ...(doc.description ? { description: doc.description } : {}),
    }) as Struct<number, null>;
  },

  number(min?: number, max?: number): Struct<number, null> {
    let s: Struct<number, any> = ss.coerce(ss.number(), ss.string(), (v) => (numeric.test(v) ? Number(v) : v));
    s = refineMsg(s, 'finite', (v) => Number.isFinite(v), 'must be a finite number');
    if (min !== undefined || max !== undefined) {
      s = refineMsg(s, 'range', (v) => (min === undefined || v >= min) && (max === undefined || v <= max),
        min !== undefined && max !== undefined ? `must be between ${min} and ${max}`
          : min !== undefined ? `must be at least ${min}` : `must be at most ${max}`);
    }
    return annotate(s, { type: 'number', ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) }) as Struct<number, null>;
  },

  /** Booleans; from a query string "true"/"false" are accepted. */
  boolean(): Struct<boolean, null> {
    const s = ss.coerce(ss.boolean(), ss.string(), (v) => (v === 'true' ? true : v === 'false' ? false : v));
    return annotate(s, { type: 'boolean' });
  },

  enums<const T extends string>(values: readonly T[]): Struct<T, any> {
    return annotate(ss.enums(values as T[]), { type: 'string', enum: [...values] });
  },

  literal<const T extends string | number | boolean>(value: T): Struct<T, any> {
    return annotate(ss.literal(value as any) as Struct<T, any>, { const: value });
  },

  /** A calendar-valid `YYYY-MM-DD` date (2026-02-29 is rejected, 2028-02-29 accepted). */
  date(): Struct<string, null> {
    const s = refineMsg(ss.string(), 'date', isCalendarDate, 'must be a calendar date YYYY-MM-DD');
    return annotate(s, { type: 'string', format: 'date' }) as Struct<string, null>;
  },

  /** A local time, `HH:mm` 24-hour or `3:30 PM`; normalized to `HH:mm`. */
  time(): Struct<string, null> {
    const s = ss.coerce(
      refineMsg(ss.string(), 'time', (v) => /^\d{2}:\d{2}$/.test(v) && parseLocalTime(v) === v, 'must be a time HH:mm or h:mm AM/PM'),
      ss.string(), (v) => parseLocalTime(v) ?? v);
    return annotate(s, { type: 'string', description: 'Local time HH:mm (24-hour); 3:30 PM is accepted', examples: ['15:30'] }) as Struct<string, null>;
  },

  array<T>(element: Struct<T, any>, opts: { min?: number; max?: number } = {}): Struct<T[], any> {
    let s: Struct<T[], any> = ss.array(element);
    const { min, max } = opts;
    if (min !== undefined || max !== undefined) {
      s = refineMsg(s, 'size', (v) => (min === undefined || v.length >= min) && (max === undefined || v.length <= max),
        min !== undefined && max !== undefined ? `must have ${min} to ${max} items` : min !== undefined ? `must have at least ${min} item${min === 1 ? '' : 's'}` : `must have at most ${max} items`);
    }
    return annotate(s, { type: 'array', items: toJsonSchema(element), ...(min !== undefined ? { minItems: min } : {}), ...(max !== undefined ? { maxItems: max } : {}) });
  },

  /** An object that refuses unknown fields (typos must not pass silently). */
  object<Sch extends Record<string, Struct<any, any>>>(schema: Sch, description?: string): Struct<ss.Infer<ReturnType<typeof ss.object<Sch>>>, any> {
    const s = ss.object(schema);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [k, v] of Object.entries(schema)) {
      properties[k] = toJsonSchema(v);
      if (!isOptional(v)) required.push(k);
    }
    return annotate(s as any, {
      type: 'object', properties, additionalProperties: false,
      ...(required.length ? { required } : {}), ...(description ? { description } : {}),
    });
  },

  /** Free-form object with values of one struct (string keys). */
  record<V>(value: Struct<V, any>, keyPattern?: RegExp): Struct<Record<string, V>, any> {
    const key = keyPattern ? refineMsg(ss.string(), 'key', (k) => keyPattern.test(k), `keys must match ${keyPattern.source}`) : ss.string();
    return annotate(ss.record(key, value), {
      type: 'object', additionalProperties: toJsonSchema(value), ...(keyPattern ? { propertyNames: { pattern: keyPattern.source } } : {}),
    });
  },

  optional<T>(struct: Struct<T, any>): Struct<T | undefined, any> {
    return annotate(ss.optional(struct), toJsonSchema(struct), true);
  },

  nullable<T>(struct: Struct<T, any>): Struct<T | null, any> {
    const inner = toJsonSchema(struct);
    return annotate(ss.nullable(struct), { anyOf: [inner, { type: 'null' }] });
  },

  /** Any JSON value. */
  any(description?: string): Struct<unknown, any> {
    return annotate(ss.unknown(), description ? { description } : {});
  },

  /** Extra checks on a struct, keeping its JSON Schema (plus a description of the rule). */
  refine<T>(struct: Struct<T, any>, name: string, check: (v: T) => true | string, note?: string): Struct<T, any> {
    const base = toJsonSchema(struct);
    return annotate(ss.refine(struct, name, check), note ? { ...base, description: note } : base, isOptional(struct));
  },
};

export type Infer<T extends Struct<any, any>> = ss.Infer<T>;

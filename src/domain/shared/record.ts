/**
 * A record described once. A record's field table (one `field()` entry per field) says
 * everything the code needs to know of a field: the struct a request sends (its bounds and
 * messages), whether it may be null (a PATCH's null clears it), how a create and a PATCH treat
 * it, how a value is cleaned and checked past its struct, the default a create without it stores
 * and a record written before it existed reads, and whether the answer shows it. From the table
 * come the record's stored type, the create and PATCH types and structs, creating and patching
 * (with "nothing changed"), the view, and the JSON Schema of the view (docs/design.md, "Records
 * described once"; `EVENT_FIELDS` is the calendar's own, older form of the same idea).
 */
import { failOnIssues, type Issue } from './errors.js';
import { charCount } from './text.js';
import { S, toJsonSchema, type Infer, type JsonSchema, type SomeStruct } from './schema.js';

/** What a field is, besides its struct. */
export interface FieldFacts<T> {
  /** A create must send it, may send it, or cannot (the daemon sets it: ids, times). */
  readonly create: 'required' | 'optional' | 'never';
  /** A PATCH may send it, or not. */
  readonly patch: 'value' | 'never';
  /**
   * null is one of its values: a create or a PATCH may send null, which clears it (`true`), or
   * only a PATCH may (`'patch'`: a create leaves it out for null), or neither (`'stored'`: a
   * record without it stores null, which no request sends — a collection's colour).
   */
  readonly nullable?: boolean | 'patch' | 'stored';
  /**
   * What a create without it stores, and what a record written before the field existed reads
   * (a nullable field without one: null). A field a create may leave out must have one.
   */
  readonly default?: T | null;
  /** Normalises a value past its struct (trims text; null: blank text is none), before `check`. */
  readonly clean?: (value: T) => T | null;
  /** A rule the struct cannot say: true, or the message of the 400 naming the field. */
  readonly check?: (value: T) => true | string;
  /** The answer shows it always (null when unset), only when set, or never. */
  readonly view: 'always' | 'whenSet' | 'never';
  /** Its schema in the answer, where that is not the struct's. */
  readonly response?: JsonSchema;
}

/** One table entry: the struct with its facts. */
export type Field<T> = FieldFacts<T> & { readonly struct: SomeStruct<T> };

/** A table entry; `T` is what the struct takes (never null: `nullable` adds that). */
export function field<T, const F extends FieldFacts<NoInfer<T>>>(
  struct: SomeStruct<T>,
  facts: F,
): F & { readonly struct: SomeStruct<T> } {
  return { ...facts, struct };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any field of the table
export type FieldTable = Record<string, Field<any>>;

type ValueOf<F> = F extends { struct: SomeStruct<infer T> } ? T : never;
/** A field's value as stored: null too when it is nullable. */
export type Stored<F> = F extends { nullable: true | 'patch' | 'stored' }
  ? ValueOf<F> | null
  : ValueOf<F>;
/** What a create sends for it. */
type Created<F> = F extends { nullable: true } ? ValueOf<F> | null : ValueOf<F>;
/** What a PATCH sends for it. */
type Patched<F> = F extends { nullable: true | 'patch' } ? ValueOf<F> | null : ValueOf<F>;
type Keys<T extends FieldTable, P extends keyof FieldFacts<unknown>, V> = {
  [K in keyof T]: T[K][P] extends V ? K : never;
}[keyof T];
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The record as stored: every field of the table. */
export type RecordOf<T extends FieldTable> = Flat<{ -readonly [K in keyof T]: Stored<T[K]> }>;
/** What a create sends (already through its struct). */
export type CreateOf<T extends FieldTable> = Flat<
  { [K in Keys<T, 'create', 'required'>]: Created<T[K]> } & {
    [K in Keys<T, 'create', 'optional'>]?: Created<T[K]>;
  }
>;
/** What a PATCH sends (already through its struct). */
export type PatchOf<T extends FieldTable> = Flat<{
  [K in Keys<T, 'patch', 'value'>]?: Patched<T[K]>;
}>;
/** The record as the answer shows it (without derived fields). */
export type ViewOf<T extends FieldTable> = Flat<
  { [K in Keys<T, 'view', 'always'>]: Stored<T[K]> } & {
    [K in Keys<T, 'view', 'whenSet'>]?: NonNullable<Stored<T[K]>>;
  }
>;

type Shape = Record<string, SomeStruct>;

function names<T extends FieldTable>(table: T): (keyof T & string)[] {
  return Object.keys(table);
}

/** Whether a body (a create, a PATCH) may send null for the field. */
export function sendsNull(f: Field<unknown>, body: 'create' | 'patch'): boolean {
  return f.nullable === true || (f.nullable === 'patch' && body === 'patch');
}

/** A field's struct as a body sends it: null too when nullable there. */
function sent(f: Field<unknown>, body: 'create' | 'patch'): SomeStruct {
  return sendsNull(f, body) ? S.nullable(f.struct) : f.struct;
}

/** The fields of a create body. */
export function createShape(table: FieldTable): Shape {
  const out: Shape = {};
  for (const k of names(table)) {
    const f = table[k];
    if (f.create === 'never') continue;
    out[k] = f.create === 'required' ? sent(f, 'create') : S.optional(sent(f, 'create'));
  }
  return out;
}

/** The fields of a PATCH body. */
export function patchShape(table: FieldTable): Shape {
  const out: Shape = {};
  for (const k of names(table))
    if (table[k].patch === 'value') out[k] = S.optional(sent(table[k], 'patch'));
  return out;
}

/** "a, b and c". */
export function wordList(words: readonly string[]): string {
  return words.length < 2
    ? words.join('')
    : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** The create body's struct. */
export function createStruct<T extends FieldTable>(
  table: T,
  description?: string,
): SomeStruct<CreateOf<T>> {
  return S.object(createShape(table), description) as unknown as SomeStruct<CreateOf<T>>;
}

/**
 * The PATCH body's struct: only the fields to change, at least one. `more` are fields of the
 * request that are not the record's (an order such as rotating a secret).
 */
export function patchStruct<T extends FieldTable, M extends Shape = Record<never, never>>(
  table: T,
  opts: { more?: M; description?: string } = {},
): SomeStruct<PatchOf<T> & { [K in keyof M]?: Infer<M[K]> }> {
  const patchable = [
    ...names(table).filter((k) => table[k].patch === 'value'),
    ...Object.keys(opts.more ?? {}),
  ];
  const nullable = names(table).filter(
    (k) => table[k].patch === 'value' && sendsNull(table[k], 'patch'),
  );
  const them = nullable.length > 1 ? 'them' : 'it';
  return S.refine(
    S.object({ ...patchShape(table), ...opts.more }),
    'nonEmpty',
    (v) => Object.keys(v).length > 0 || `must change at least one of ${patchable.join(', ')}`,
    opts.description ??
      (nullable.length
        ? `Only the fields to change; ${wordList(nullable)} may be null to remove ${them}`
        : 'Only the fields to change'),
  ) as unknown as SomeStruct<PatchOf<T> & { [K in keyof M]?: Infer<M[K]> }>;
}

/**
 * Cleans and checks every value sent (not null ones); a broken rule is a 400 naming the field,
 * or an issue added to `issues` when the caller has more rules to check before it answers.
 */
export function cleanSent<I extends object>(table: FieldTable, input: I, into?: Issue[]): I {
  const out = { ...input } as Record<string, unknown>;
  const issues: Issue[] = into ?? [];
  for (const k of names(table)) {
    const f: Field<unknown> = table[k];
    const v = out[k];
    if (v === undefined || v === null) continue;
    const cleaned = f.clean ? f.clean(v) : v;
    out[k] = cleaned;
    if (cleaned === null) continue;
    const verdict = f.check ? f.check(cleaned) : true;
    if (verdict !== true) issues.push({ path: [k], message: verdict });
  }
  if (!into) failOnIssues(issues);
  return out as I;
}

/** A field's value for a record that does not have it: its default, else null. */
function fallback(f: Field<unknown>): unknown {
  return f.default === undefined ? null : f.default;
}

/**
 * The fields a create stores: what it sent, cleaned and checked, the defaults for the rest, and
 * the ones the daemon sets (`own`: ids and times). Issues go to `issues` when given.
 */
export function createFields<T extends FieldTable>(
  table: T,
  input: CreateOf<T>,
  own: Partial<RecordOf<T>>,
  issues?: Issue[],
): RecordOf<T> {
  const sentNow = cleanSent(table, input, issues) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of names(table)) {
    const f = table[k];
    const ownValue = (own as Record<string, unknown>)[k];
    out[k] =
      f.create === 'never' ? (ownValue ?? fallback(f)) : (sentNow[k] ?? ownValue ?? fallback(f));
  }
  return out as RecordOf<T>;
}

/** The record with every field: the default of each field it was written without. */
export function readFields<T extends FieldTable, R extends RecordOf<T>>(table: T, stored: R): R {
  let out: R | undefined;
  for (const k of names(table)) {
    if ((stored as Record<string, unknown>)[k] !== undefined) continue;
    out ??= { ...stored };
    (out as Record<string, unknown>)[k] = fallback(table[k]);
  }
  return out ?? stored;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A PATCH applied: the fields sent (cleaned and checked) over the record's. `changed` is false
 * when every field sent already had that value: then nothing is written and nothing logged.
 * Issues go to `issues` when given (a batch reports every item's at once).
 */
export function applyPatch<T extends FieldTable, R extends RecordOf<T>>(
  table: T,
  before: R,
  patch: PatchOf<T>,
  issues?: Issue[],
): { next: R; changed: boolean } {
  const sentNow = cleanSent(table, patch, issues) as Record<string, unknown>;
  const was = readFields(table, before);
  const next: Record<string, unknown> = { ...was };
  let changed = false;
  for (const k of names(table)) {
    if (table[k].patch !== 'value' || sentNow[k] === undefined) continue;
    if (!same(next[k], sentNow[k])) changed = true;
    next[k] = sentNow[k];
  }
  return { next: next as R, changed };
}

/** A field the answer shows that is not stored: computed from the record, placed after `after`. */
export interface Derived<R, C = void> {
  readonly after: string;
  readonly schema: JsonSchema;
  /** Its value, from the record (and what else the view is given, such as the family's state). */
  readonly of: (record: R, context: C) => unknown;
}

/**
 * The derived fields placed after `key`, each followed by those placed after it. One named as
 * the field it is placed after shows in its place (a field never shown as stored: a feed's URL,
 * masked).
 */
function placedAfter(derived: Record<string, { after: string }>, key: string): string[] {
  const out: string[] = [];
  for (const [d, spec] of Object.entries(derived))
    if (spec.after === key) out.push(d, ...(d === key ? [] : placedAfter(derived, d)));
  return out;
}

/**
 * The answer's fields of a record, in table order, derived fields in their places; those are
 * computed from the record with its defaults (one written before a field existed).
 */
export function viewFields<T extends FieldTable, R extends RecordOf<T>, C = void>(
  table: T,
  record: R,
  derived: Record<string, Derived<R, C>> = {},
  context?: C,
): Record<string, unknown> {
  const full = readFields(table, record) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of names(table)) {
    const f = table[k];
    const v = full[k];
    if (f.view === 'always' || (f.view === 'whenSet' && v !== null && v !== undefined)) out[k] = v;
    for (const d of placedAfter(derived, k)) out[d] = derived[d].of(full as R, context as C);
  }
  return out;
}

/** A field's schema in the answer: its own, else its struct's (with null when nullable). */
export function viewSchema(f: Field<unknown>): JsonSchema {
  if (f.response) return f.response;
  const schema = toJsonSchema(f.struct);
  return f.nullable !== undefined && f.nullable !== false && f.view === 'always'
    ? { anyOf: [schema, { type: 'null' }] }
    : schema;
}

/** The JSON Schema of the answer's record: its properties, the always-shown ones required. */
export function recordSchema<T extends FieldTable>(
  table: T,
  derived: Record<string, { after: string; schema: JsonSchema }> = {},
  more: JsonSchema = {},
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const k of names(table)) {
    const f = table[k];
    if (f.view !== 'never') properties[k] = viewSchema(f);
    if (f.view === 'always') required.push(k);
    for (const d of placedAfter(derived, k)) {
      properties[d] = derived[d].schema;
      required.push(d);
    }
  }
  return { type: 'object', required, properties, ...more };
}

/** The names of the table's fields, for a test holding a schema to it. */
export function fieldNames(table: FieldTable): string[] {
  return names(table);
}

/** Creation and update times as the tables write them. */
export const timestamp = S.string({ format: 'date-time' });

/**
 * The rules of a text a person types (a title, a question, a note): trimmed, then not blank and
 * at most `max` characters (counted as characters, not UTF-16 units); the 400 names the field.
 */
export function typedText(max: number): {
  clean: (v: string) => string;
  check: (v: string) => true | string;
} {
  return {
    clean: (v) => v.trim(),
    check: (v) =>
      v === ''
        ? 'must not be blank'
        : charCount(v) <= max || `must be at most ${max} characters long`,
  };
}

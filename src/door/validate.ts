/**
 * Turns superstruct failures into the wire's `issues` (docs/api.md): every problem names its
 * path from the request root (`["reminders", 0, "offsetMinutes"]`, `["query", "limit"]`).
 *
 * The walk stops after MAX_COUNTED failures: superstruct's own `validate` hands back every
 * failure at once, and an array of 100,000 wrong items then costs half a second of CPU and a
 * 6.5 MB answer. The body reader already refuses arrays over 1,000 items, but arrays of
 * objects of arrays can still hold hundreds of thousands of values within the body limit.
 */
import type { Failure, Context } from 'superstruct';
import { Invalid, issuesMessage, type Issue, type Path } from '../domain/shared/errors.js';
import type { SomeStruct } from './schema.js';

/** Failures counted before the walk stops; the answer then says "at least". */
export const MAX_COUNTED = 1000;

function describe(f: Failure): string {
  if (f.type === 'never') return 'is not a known field';
  if (f.value === undefined && f.refinement === undefined) return 'is required';
  if (f.refinement !== undefined) return f.message;
  switch (f.type) {
    case 'enums': {
      const m = /Expected one of `(.*)`, but received/.exec(f.message);
      return m ? `must be one of ${m[1].replace(/"/g, '')}` : 'is not one of the allowed values';
    }
    case 'object':
    case 'type':
      return 'must be an object';
    case 'array':
      return 'must be an array';
    case 'string':
      return 'must be a string';
    case 'integer':
      return 'must be a whole number';
    case 'number':
      return 'must be a number';
    case 'boolean':
      return 'must be true or false';
    case 'literal':
      return f.message.replace(/^Expected/, 'must be').replace(/, but received.*$/, '');
    case 'nullable':
      return 'must be a value or null';
    default:
      return f.message;
  }
}

type Tuple = [Failure, undefined] | [undefined, unknown];

/**
 * Puts an entry's (coerced) value back into its parent, as superstruct does; answers the parent.
 */
function assign(value: unknown, k: string | number | undefined, v: unknown): unknown {
  if (k === undefined) return v;
  if (value instanceof Map) value.set(k, v);
  else if (value instanceof Set) value.add(v);
  else if (typeof value === 'object' && value !== null && (v !== undefined || k in value))
    (value as Record<string | number, unknown>)[k] = v;
  return value;
}

/**
 * superstruct's `run` (validate with coercion, no mask) as a lazy generator the caller can stop:
 * failures of a value come first, then its entries', then its refinements' (only when the
 * entries were valid), and a final `[undefined, value]` when the value is valid.
 */
function* run(
  value: unknown,
  struct: SomeStruct,
  path: unknown[],
  branch: unknown[],
): Generator<Tuple> {
  const ctx: Context = { path, branch, mask: false };
  value = struct.coercer(value, ctx);
  let status: 'valid' | 'not_valid' | 'not_refined' = 'valid';
  for (const failure of struct.validator(value, ctx)) {
    status = 'not_valid';
    yield [failure, undefined];
  }
  for (const entry of struct.entries(value, ctx)) {
    const k = entry[0] as string | number | undefined;
    let v = entry[1];
    for (const t of run(
      v,
      entry[2] as SomeStruct,
      k === undefined ? path : [...path, k],
      k === undefined ? branch : [...branch, v],
    )) {
      if (t[0]) {
        status = t[0].refinement != null ? 'not_refined' : 'not_valid';
        yield t;
      } else {
        v = t[1];
        value = assign(value, k, v);
      }
    }
  }
  if (status !== 'not_valid') {
    for (const failure of struct.refiner(value, ctx)) {
      status = 'not_refined';
      yield [failure, undefined];
    }
  }
  if (status === 'valid') yield [undefined, value];
}

const INVALID = Symbol('invalid');
const NO_PATH: unknown[] = [];

/**
 * `run` for the usual case, a valid value, at a fraction of its cost (it is on every write's
 * path): plain recursion instead of nested generators, no paths built, stopping at the first
 * failure. INVALID sends the caller to `run` for the full list of issues; coercions are
 * idempotent, so running it again over a value this walk already coerced gives the same result.
 * No refinement of ours reads the context's path or branch.
 */
function quick(value: unknown, struct: SomeStruct): unknown {
  const ctx: Context = { path: NO_PATH, branch: NO_PATH, mask: false };
  value = struct.coercer(value, ctx);
  for (const _ of struct.validator(value, ctx)) return INVALID;
  for (const entry of struct.entries(value, ctx)) {
    const k = entry[0] as string | number | undefined;
    const v = quick(entry[1], entry[2] as SomeStruct);
    if (v === INVALID) return INVALID;
    value = assign(value, k, v);
  }
  for (const _ of struct.refiner(value, ctx)) return INVALID;
  return value;
}

/**
 * Validates (with coercion) or throws Invalid naming the failing fields under `prefix`; the
 * error keeps the first issues and the count (see MAX_ISSUES in domain/shared/errors.ts).
 */
export function validateInput<T>(value: unknown, struct: SomeStruct<T>, prefix: Path = []): T {
  const valid = quick(value, struct);
  if (valid !== INVALID) return valid as T;
  const issues: Issue[] = [];
  const seen = new Set<string>();
  let failures = 0;
  let result: unknown = undefined;
  for (const [failure, valid] of run(value, struct, [], [value])) {
    if (!failure) {
      result = valid;
      continue;
    }
    if (++failures > MAX_COUNTED) break;
    const path: Path = [...prefix, ...(failure.path as Path)];
    const id = path.join('\u0000');
    if (seen.has(id)) continue;
    seen.add(id);
    issues.push({ path, message: describe(failure) });
  }
  if (!failures) return result as T;
  throw new Invalid(issuesMessage(issues, issues.length, failures > MAX_COUNTED), issues);
}

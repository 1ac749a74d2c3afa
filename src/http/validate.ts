/**
 * Turns superstruct failures into the wire's `issues` (DESIGN §3): every problem names its
 * path from the request root (`["reminders", 0, "offsetMinutes"]`, `["query", "limit"]`).
 */
import { validate as ssValidate, type Struct, type Failure } from 'superstruct';
import { Invalid, type Issue, type Path } from '../domain/shared/errors.js';

function describe(f: Failure): string {
  if (f.type === 'never') return 'is not a known field';
  if (f.value === undefined && f.refinement === undefined) return 'is required';
  if (f.refinement !== undefined) return f.message;
  switch (f.type) {
    case 'enums': {
      const m = /Expected one of `(.*)`, but received/.exec(f.message);
      return m ? `must be one of ${m[1]!.replace(/"/g, '')}` : 'is not one of the allowed values';
    }
    case 'object': case 'type': return 'must be an object';
    case 'array': return 'must be an array';
    case 'string': return 'must be a string';
    case 'integer': return 'must be a whole number';
    case 'number': return 'must be a number';
    case 'boolean': return 'must be true or false';
    case 'literal': return f.message.replace(/^Expected/, 'must be').replace(/, but received.*$/, '');
    case 'nullable': return 'must be a value or null';
    default: return f.message;
  }
}

/** Validates (with coercion) or throws Invalid naming every failing field under `prefix`. */
export function validateInput<T>(value: unknown, struct: Struct<T, any>, prefix: Path = []): T {
  const [err, result] = ssValidate(value, struct, { coerce: true });
  if (!err) return result as T;
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const f of err.failures()) {
    const path = [...prefix, ...f.path] as Path;
    const id = path.join('\u0000');
    if (seen.has(id)) continue;
    seen.add(id);
    issues.push({ path, message: describe(f) });
  }
  const first = issues[0]!;
  const where = first.path.length ? first.path.join('.') : 'body';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  throw new Invalid(`${where} ${first.message}${more}`, issues);
}

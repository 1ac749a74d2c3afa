/**
 * Entry data against a collection's field definitions: only defined keys are
 * kept, each value is checked against its field's type, and values of fields that have since
 * been removed from the collection are hidden (kept on the record, never shown or matched).
 */
import { activePerson } from '../people/people.js';
import type { Issue, Path } from '../shared/errors.js';
import type { FamilyState } from '../shared/state.js';
import { isCalendarDate } from '../shared/time.js';
import { charCount } from '../shared/text.js';
import { TEXT_MAX, TEXTAREA_MAX, type Collection, type FieldDef } from './types.js';

/** Why `value` does not fit `field`, or null when it does. */
function problem(
  state: FamilyState,
  field: FieldDef,
  value: unknown,
  previous: unknown,
): string | null {
  switch (field.type) {
    case 'date':
      return typeof value === 'string' && isCalendarDate(value)
        ? null
        : 'must be a calendar date YYYY-MM-DD';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a finite number';
    case 'person':
      if (typeof value !== 'string') return 'must be a person id';
      // Keeping a reference the entry already holds is not a new reference, even if that
      // person has since been deleted.
      if (value === previous) return null;
      return activePerson(state, value) ? null : `is not a person of this family: ${value}`;
    case 'select': {
      const options = field.options ?? [];
      return typeof value === 'string' && options.includes(value)
        ? null
        : `must be one of ${options.join(', ')}`;
    }
    case 'text':
      if (typeof value !== 'string') return 'must be a string';
      return charCount(value) <= TEXT_MAX ? null : `must be at most ${TEXT_MAX} characters long`;
    case 'textarea':
      if (typeof value !== 'string') return 'must be a string';
      return charCount(value) <= TEXTAREA_MAX
        ? null
        : `must be at most ${TEXTAREA_MAX} characters long`;
    default: {
      const never: never = field.type;
      return `has an unknown field type ${String(never)}`;
    }
  }
}

/**
 * Merges `patch` into `base` (a new entry passes `{}`): keys without a field definition are
 * dropped, `null` removes a key, everything else must fit its field. Problems are added to
 * `issues` under `prefix` (e.g. `["items", 3, "data"]`).
 */
export function mergeData(
  state: FamilyState,
  collection: Collection,
  base: Record<string, unknown>,
  patch: Record<string, unknown> | undefined,
  prefix: Path,
  issues: Issue[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  if (!patch) return out;
  const fields = fieldMap(collection);
  for (const [key, value] of Object.entries(patch)) {
    const field = fields.get(key);
    if (!field) continue;
    if (value === null) {
      delete out[key];
      continue;
    }
    const why = problem(state, field, value, base[key]);
    if (why) issues.push({ path: [...prefix, key], message: why });
    else out[key] = value;
  }
  return out;
}

const fieldMaps = new WeakMap<FieldDef[], Map<string, FieldDef>>();

/** The collection's fields by key (cached per fields list: records are immutable). */
export function fieldMap(collection: Collection): Map<string, FieldDef> {
  let m = fieldMaps.get(collection.fields);
  if (!m) fieldMaps.set(collection.fields, (m = new Map(collection.fields.map((f) => [f.key, f]))));
  return m;
}

/** The data the API shows: only keys the collection still defines. */
export function visibleData(
  collection: Collection,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const fields = fieldMap(collection);
  let hidden = false;
  for (const k in data)
    if (!fields.has(k)) {
      hidden = true;
      break;
    }
  if (!hidden) return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (fields.has(k)) out[k] = v;
  return out;
}

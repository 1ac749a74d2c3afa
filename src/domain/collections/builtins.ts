/**
 * The five built-in collections every family has, registered as a seed: a new
 * family gets them in its creation transaction, and activation adds any that are missing (an
 * imported or older family). Built-ins cannot be deleted; their name, description, colour and
 * fields can be changed, and a seed never overwrites such changes. A seed names them (name,
 * description, field labels) in the family's locale, from the catalog's `names` section
 * (docs/i18n.md, "Names the daemon makes up"): the English below is the catalog's source; the
 * names are the household's from then on, and a later change of locale leaves them as they are.
 */
import {
  familyLocale,
  type FamilyInfo,
  type FamilyState,
  type RecordChange,
} from '../shared/state.js';
import { message, type KeyOf } from '../i18n/messages.js';
import { CATALOGS } from '../i18n/catalogs/index.js';
import { COLLECTIONS, type Collection, type FieldDef } from './types.js';

const notes: FieldDef = { key: 'notes', label: 'Notes', type: 'textarea' };

type Builtin = Pick<Collection, 'key' | 'name' | 'description' | 'fields' | 'color' | 'category'>;

export const BUILTINS: readonly Builtin[] = [
  {
    key: 'calendar',
    name: 'Family calendar',
    description: 'The household calendar',
    fields: [],
    color: 'sage',
    category: 'calendar',
  },
  {
    key: 'meals',
    name: 'Meals',
    description: 'Meal plan: what is cooked when and by whom',
    color: null,
    category: null,
    fields: [
      { key: 'date', label: 'Date', type: 'date' },
      {
        key: 'meal',
        label: 'Meal',
        type: 'select',
        options: ['breakfast', 'lunch', 'dinner', 'snack'],
      },
      { key: 'cook', label: 'Cook', type: 'person' },
      { key: 'recipe', label: 'Recipe', type: 'text' },
      notes,
    ],
  },
  {
    key: 'chores',
    name: 'Chores',
    description: 'Household tasks and who does them',
    color: null,
    category: null,
    fields: [
      { key: 'assignee', label: 'Assignee', type: 'person' },
      { key: 'due', label: 'Due', type: 'date' },
      {
        key: 'repeats',
        label: 'Repeats',
        type: 'select',
        options: ['once', 'daily', 'weekly', 'monthly'],
      },
      notes,
    ],
  },
  {
    key: 'routines',
    name: 'Routines',
    description: 'Daily routines, step by step',
    color: null,
    category: null,
    fields: [
      { key: 'person', label: 'Person', type: 'person' },
      {
        key: 'timeOfDay',
        label: 'Time of day',
        type: 'select',
        options: ['morning', 'afternoon', 'evening', 'bedtime'],
      },
      { key: 'steps', label: 'Steps', type: 'textarea' },
    ],
  },
  {
    key: 'groceries',
    name: 'Groceries',
    description: 'The shopping list',
    color: null,
    category: null,
    fields: [
      { key: 'quantity', label: 'Quantity', type: 'text' },
      {
        key: 'aisle',
        label: 'Aisle',
        type: 'select',
        options: ['produce', 'dairy', 'meat', 'bakery', 'pantry', 'frozen', 'household', 'other'],
      },
      notes,
    ],
  },
];

/** Display order of the built-ins in listings (custom collections follow, oldest first). */
export const BUILTIN_ORDER: ReadonlyMap<string, number> = new Map(
  BUILTINS.map((b, i) => [b.key, i]),
);

/** The keys of the catalog's `names` section. */
const NAME_KEYS = CATALOGS.en.names;

/** The built-ins a family lacks, as new records (the collections area's seed). */
export function seedBuiltins(
  family: FamilyInfo,
  nowIso: string,
  state?: FamilyState,
): RecordChange[] {
  const locale = familyLocale(family);
  const say = (key: string, fallback: string): string =>
    key in NAME_KEYS ? message(locale, 'names', key as KeyOf<'names'>) : fallback;
  return BUILTINS.filter((b) => !state?.get(COLLECTIONS, b.key)).map((b) => {
    const record: Collection = {
      ...b,
      name: say(b.key, b.name),
      description: b.description === null ? null : say(`${b.key}Description`, b.description),
      fields: b.fields.map((f) => ({
        ...f,
        label: say(f.key, f.label),
        ...(f.options ? { options: [...f.options] } : {}),
      })),
      builtin: true,
      sourceId: null,
      createdAt: nowIso,
      updatedAt: nowIso,
    };
    return { table: COLLECTIONS, id: b.key, value: record };
  });
}

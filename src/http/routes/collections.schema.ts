/**
 * Request structs and response schemas of the collections endpoints (wire name: tracker).
 */
import {
  S,
  named,
  toJsonSchema,
  type Infer,
  type JsonSchema,
  type SomeStruct,
} from '../../door/schema.js';
import { COLORS, FIELD_KEY_RE, FIELD_TYPES } from '../../domain/collections/types.js';

/** Adds examples to a struct's published schema (the struct itself is unchanged). */
export function withExamples<T extends SomeStruct>(struct: T, ...examples: unknown[]): T {
  Object.assign(toJsonSchema(struct), { examples });
  return struct;
}

export const FieldDefBody = S.object(
  {
    key: S.string({
      min: 1,
      max: 64,
      pattern: FIELD_KEY_RE,
      description: 'camelCase or snake_case key used in entry data; unique in the collection',
    }),
    label: S.string({ min: 1, max: 100, description: 'Family-facing label' }),
    type: S.optional(S.enums(FIELD_TYPES)),
    options: S.optional(S.array(S.string({ min: 1, max: 100 }), { min: 1, max: 100 })),
  },
  'A field definition: `type` defaults to text; `options` is required for select and refused for other types',
);

const name = S.string({
  min: 1,
  max: 100,
  description: 'Unique within the family, case-insensitively',
});
const description = S.nullable(S.string({ max: 500 }));
const fields = S.array(FieldDefBody, { max: 100 });

export const CreateCollectionBody = withExamples(
  S.object({
    name,
    category: S.optional(S.literal('calendar')),
    color: S.optional(S.enums(COLORS)),
    description: S.optional(description),
    fields: S.optional(fields),
  }),
  {
    name: 'Packing list',
    description: 'What goes in the car',
    fields: [
      { key: 'who', label: 'Who', type: 'person' },
      { key: 'bag', label: 'Bag', type: 'select', options: ['red', 'blue'] },
    ],
  },
  { name: 'School calendar', category: 'calendar', color: 'blue' },
);
export type CreateCollectionBody = Infer<typeof CreateCollectionBody>;

export const UpdateCollectionBody = withExamples(
  S.refine(
    S.object({
      name: S.optional(name),
      color: S.optional(S.enums(COLORS)),
      description: S.optional(description),
      fields: S.optional(fields),
    }),
    'nonEmpty',
    (v) =>
      Object.keys(v).length > 0 || 'must change at least one of name, color, description, fields',
    'Only the fields to change; `description: null` removes it; `fields` replaces the whole list',
  ),
  { description: null },
  { fields: [{ key: 'size', label: 'Size', type: 'select', options: ['S', 'M', 'L'] }] },
);
export type UpdateCollectionBody = Infer<typeof UpdateCollectionBody>;

const FIELD_SCHEMA: JsonSchema = toJsonSchema(FieldDefBody);

export const COLLECTION_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['key', 'name', 'description', 'fields', 'builtin', 'createdAt', 'updatedAt'],
  properties: {
    key: { type: 'string', description: 'Stable identifier, derived from the name at creation' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    fields: {
      type: 'array',
      items: {
        ...FIELD_SCHEMA,
        required: ['key', 'label', 'type'],
        description: 'type is always present in responses',
      },
    },
    color: { type: 'string', enum: [...COLORS], description: 'Present when set' },
    category: { const: 'calendar', description: 'Present only on calendar collections' },
    sourceId: { type: 'string', description: 'Present only on the calendar of an external feed' },
    builtin: { type: 'boolean', description: 'Built-in collections cannot be deleted' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE_TRACKER = {
  key: 'packing-list',
  name: 'Packing list',
  description: 'What goes in the car',
  fields: [
    { key: 'who', label: 'Who', type: 'person' },
    { key: 'bag', label: 'Bag', type: 'select', options: ['red', 'blue'] },
  ],
  builtin: false,
  createdAt: '2026-11-22T08:30:00.000Z',
  updatedAt: '2026-11-22T08:30:00.000Z',
};

export const TRACKER_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'tracker'],
  properties: { ok: { const: true }, tracker: COLLECTION_SCHEMA },
  examples: [{ ok: true, tracker: EXAMPLE_TRACKER }],
};

export const TRACKER_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'trackers'],
  properties: { ok: { const: true }, trackers: { type: 'array', items: COLLECTION_SCHEMA } },
  examples: [{ ok: true, trackers: [EXAMPLE_TRACKER] }],
};

export const TRACKER_DELETE_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'tracker', 'deletedEntries'],
  properties: {
    ok: { const: true },
    tracker: COLLECTION_SCHEMA,
    deletedEntries: {
      type: 'integer',
      minimum: 0,
      description: 'How many entries were deleted with the collection',
    },
  },
  examples: [{ ok: true, tracker: EXAMPLE_TRACKER, deletedEntries: 12 }],
};

// Published once in the OpenAPI document, as components/schemas/<name>.
named('FieldDefinition', FieldDefBody);
named('Tracker', COLLECTION_SCHEMA);
named('CreateTrackerBody', CreateCollectionBody);
named('UpdateTrackerBody', UpdateCollectionBody);

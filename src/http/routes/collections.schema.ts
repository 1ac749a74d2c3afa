/**
 * Request structs and response schemas of the collections endpoints (wire name: tracker).
 */
import {
  named,
  toJsonSchema,
  type Infer,
  type JsonSchema,
  type SomeStruct,
} from '../../door/schema.js';
import { COLLECTION_FIELDS, FieldDefBody } from '../../domain/collections/types.js';
import { COLLECTION_DERIVED } from '../../domain/collections/collections.js';
import { createStruct, patchStruct, recordSchema } from '../../domain/shared/record.js';

/** Adds examples to a struct's published schema (the struct itself is unchanged). */
export function withExamples<T extends SomeStruct>(struct: T, ...examples: unknown[]): T {
  Object.assign(toJsonSchema(struct), { examples });
  return struct;
}

export { FieldDefBody };

// Built from the tables (COLLECTION_FIELDS, FIELD_DEF_FIELDS): a field is added there, not here.
export const CreateCollectionBody = withExamples(
  createStruct(COLLECTION_FIELDS),
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
  patchStruct(COLLECTION_FIELDS, {
    description:
      'Only the fields to change; `description: null` removes it; `fields` replaces the whole list',
  }),
  { description: null },
  { fields: [{ key: 'size', label: 'Size', type: 'select', options: ['S', 'M', 'L'] }] },
);
export type UpdateCollectionBody = Infer<typeof UpdateCollectionBody>;

export const COLLECTION_SCHEMA: JsonSchema = recordSchema(COLLECTION_FIELDS, COLLECTION_DERIVED);

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

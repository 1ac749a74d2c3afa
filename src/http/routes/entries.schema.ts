/**
 * Request structs and response schemas of the entries endpoints, single and batch.
 */
import { S, named, type Infer, type JsonSchema, type SomeStruct } from '../../door/schema.js';
import { ENTRY_FIELDS } from '../../domain/collections/types.js';
import { ENTRY_DERIVED } from '../../domain/collections/listing.js';
import {
  createStruct,
  patchShape,
  patchStruct,
  recordSchema,
  type PatchOf,
} from '../../domain/shared/record.js';
import { PAGE_LIMIT } from '../../domain/shared/paging.js';
import { BATCH_MAX } from '../../domain/collections/entries.js';
import { withExamples } from './collections.schema.js';

const status = ENTRY_FIELDS.status.struct;
const entryId = S.string({ min: 1, max: 100 });

export const ListEntriesQuery = S.object({
  query: S.optional(
    S.string({
      max: 200,
      description:
        'Matches titles and data values, ignoring case and accents; every word must match',
    }),
  ),
  status: S.optional(status),
  limit: S.optional(
    S.integer(PAGE_LIMIT.min, PAGE_LIMIT.max, {
      default: PAGE_LIMIT.default,
      description: 'Entries per page',
    }),
  ),
  cursor: S.optional(
    S.string({ min: 1, max: 300, description: 'The nextCursor of the previous page' }),
  ),
});
export type ListEntriesQuery = Infer<typeof ListEntriesQuery>;

// Built from the table (ENTRY_FIELDS): a field is added there, not here.
export const CreateEntryBody = withExamples(createStruct(ENTRY_FIELDS), {
  title: 'Empty the dishwasher',
  data: { due: '2026-11-23', repeats: 'daily' },
});
export type CreateEntryBody = Infer<typeof CreateEntryBody>;

export const UpdateEntryBody = withExamples(
  patchStruct(ENTRY_FIELDS, {
    description: 'Only the fields to change; data is merged key by key and null removes a key',
  }),
  { status: 'done' },
  { data: { notes: null, due: '2026-11-30' } },
);
export type UpdateEntryBody = Infer<typeof UpdateEntryBody>;

export const BatchCreateBody = withExamples(
  S.object({
    items: S.array(createStruct(ENTRY_FIELDS), { min: 1, max: BATCH_MAX }),
  }),
  { items: [{ title: 'Milk', data: { aisle: 'dairy', quantity: '2 l' } }, { title: 'Apples' }] },
);
export type BatchCreateBody = Infer<typeof BatchCreateBody>;

export const BatchUpdateBody = withExamples(
  S.object({
    items: S.array(
      S.object({ entryId, ...patchShape(ENTRY_FIELDS) }) as unknown as SomeStruct<
        PatchOf<typeof ENTRY_FIELDS> & { entryId: string }
      >,
      { min: 1, max: BATCH_MAX },
    ),
  }),
  { items: [{ entryId: 'ent_01kaq5m2v8x3c4d5e6f7', status: 'done' }] },
);
export type BatchUpdateBody = Infer<typeof BatchUpdateBody>;

export const BatchDeleteBody = withExamples(
  S.object({
    entryIds: S.array(entryId, { min: 1, max: BATCH_MAX }),
  }),
  { entryIds: ['ent_01kaq5m2v8x3c4d5e6f7'] },
);
export type BatchDeleteBody = Infer<typeof BatchDeleteBody>;

export const ENTRY_SCHEMA: JsonSchema = recordSchema(ENTRY_FIELDS, ENTRY_DERIVED);

const EXAMPLE_ENTRY = {
  id: 'ent_01kaq5m2v8x3c4d5e6f7',
  collectionKey: 'chores',
  title: 'Empty the dishwasher',
  status: 'active',
  data: { due: '2026-11-23', repeats: 'daily' },
  createdAt: '2026-11-22T08:30:00.000Z',
  updatedAt: '2026-11-22T08:30:00.000Z',
};

export const ENTRY_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'entries'],
  properties: {
    ok: { const: true },
    entries: { type: 'array', items: ENTRY_SCHEMA },
    nextCursor: {
      type: 'string',
      description: 'Present when more entries match: pass it as cursor',
    },
  },
  examples: [
    {
      ok: true,
      entries: [EXAMPLE_ENTRY],
      nextCursor: 'MjAyNi0xMS0yMlQwODozMDowMC4wMDBafGVudF8wMWthcTVtMnY4eDNjNGQ1ZTZmNw',
    },
  ],
};

export const ENTRY_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'entry'],
  properties: { ok: { const: true }, entry: ENTRY_SCHEMA },
  examples: [{ ok: true, entry: EXAMPLE_ENTRY }],
};

export const BATCH_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'count', 'entries'],
  properties: {
    ok: { const: true },
    count: { type: 'integer', minimum: 0 },
    entries: { type: 'array', items: ENTRY_SCHEMA, description: 'In the order of the request' },
  },
  examples: [{ ok: true, count: 1, entries: [EXAMPLE_ENTRY] }],
};

// Published once in the OpenAPI document, as components/schemas/<name>.
named('Entry', ENTRY_SCHEMA);
named('CreateEntryBody', CreateEntryBody);
named('UpdateEntryBody', UpdateEntryBody);
named('CreateEntriesBody', BatchCreateBody);
named('UpdateEntriesBody', BatchUpdateBody);
named('DeleteEntriesBody', BatchDeleteBody);

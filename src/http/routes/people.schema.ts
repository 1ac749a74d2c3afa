/**
 * Request structs and response schemas of the people endpoints.
 */
import { named, type Infer, type JsonSchema } from '../../door/schema.js';
import { PERSON_DERIVED, PERSON_FIELDS } from '../../domain/people/people.js';
import { createStruct, patchStruct, recordSchema } from '../../domain/shared/record.js';
import { withExamples } from './collections.schema.js';

// Built from the table (PERSON_FIELDS): a field is added there, not here.
export const CreatePersonBody = withExamples(createStruct(PERSON_FIELDS), {
  name: 'Ana Lima',
  kind: 'adult',
  familiarName: 'Mum',
  email: 'ana@example.com',
});
export type CreatePersonBody = Infer<typeof CreatePersonBody>;

export const UpdatePersonBody = withExamples(
  patchStruct(PERSON_FIELDS),
  { familiarName: null },
  { email: 'ana.lima@example.com' },
  { locale: 'pt-BR' },
);
export type UpdatePersonBody = Infer<typeof UpdatePersonBody>;

export const PERSON_SCHEMA: JsonSchema = recordSchema(PERSON_FIELDS, PERSON_DERIVED);

const EXAMPLE_PERSON = {
  id: 'person_01kaq5m2v8x3c4d5e6f7',
  name: 'Ana Lima',
  kind: 'adult',
  familiarName: 'Mum',
  email: 'ana@example.com',
  phone: null,
  displayName: 'Mum',
  role: 'adult',
  locale: null,
  createdAt: '2026-11-22T08:30:00.000Z',
  updatedAt: '2026-11-22T08:30:00.000Z',
};

export const PEOPLE_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'people'],
  properties: {
    ok: { const: true },
    people: {
      type: 'array',
      items: PERSON_SCHEMA,
      description: 'Active people in the order they were added',
    },
  },
  examples: [{ ok: true, people: [EXAMPLE_PERSON] }],
};

export const PERSON_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'person'],
  properties: { ok: { const: true }, person: PERSON_SCHEMA },
  examples: [{ ok: true, person: EXAMPLE_PERSON }],
};

export const PERSON_DELETE_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'personId'],
  properties: { ok: { const: true }, personId: { type: 'string' } },
  examples: [{ ok: true, personId: EXAMPLE_PERSON.id }],
};

// Published once in the OpenAPI document, as components/schemas/<name>.
named('Person', PERSON_SCHEMA);
named('CreatePersonBody', CreatePersonBody);
named('UpdatePersonBody', UpdatePersonBody);

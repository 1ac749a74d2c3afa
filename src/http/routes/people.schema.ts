/**
 * Request structs and response schemas of the people endpoints.
 */
import { S, named, type Infer, type JsonSchema } from '../../door/schema.js';
import { PERSON_KINDS } from '../../domain/people/people.js';
import { withExamples } from './collections.schema.js';

const name = S.string({ min: 1, max: 200 });
const kind = S.enums(PERSON_KINDS);
const familiarName = S.nullable(
  S.string({
    min: 1,
    max: 200,
    description: 'Shown instead of the name when set; null removes it',
  }),
);
const email = S.nullable(S.string({ min: 3, max: 254, format: 'email' }));
const phone = S.nullable(
  S.string({ min: 4, max: 32, description: 'For sms notifications (extension)' }),
);

export const CreatePersonBody = withExamples(
  S.object({
    name,
    kind: S.optional(kind),
    familiarName: S.optional(familiarName),
    email: S.optional(email),
    phone: S.optional(phone),
  }),
  { name: 'Ana Lima', kind: 'adult', familiarName: 'Mum', email: 'ana@example.com' },
);
export type CreatePersonBody = Infer<typeof CreatePersonBody>;

export const UpdatePersonBody = withExamples(
  S.refine(
    S.object({
      name: S.optional(name),
      kind: S.optional(kind),
      familiarName: S.optional(familiarName),
      email: S.optional(email),
      phone: S.optional(phone),
    }),
    'nonEmpty',
    (v) =>
      Object.keys(v).length > 0 ||
      'must change at least one of name, kind, familiarName, email, phone',
    'Only the fields to change; familiarName, email and phone may be null to remove them',
  ),
  { familiarName: null },
  { email: 'ana.lima@example.com' },
);
export type UpdatePersonBody = Infer<typeof UpdatePersonBody>;

export const PERSON_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'kind',
    'familiarName',
    'email',
    'phone',
    'displayName',
    'role',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', enum: [...PERSON_KINDS] },
    familiarName: { type: ['string', 'null'] },
    email: { type: ['string', 'null'] },
    phone: { type: ['string', 'null'] },
    displayName: { type: 'string', description: 'familiarName, else name' },
    role: { type: 'string', enum: [...PERSON_KINDS], description: 'The same as kind' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE_PERSON = {
  id: 'person_01kaq5m2v8x3c4d5e6f7',
  name: 'Ana Lima',
  kind: 'adult',
  familiarName: 'Mum',
  email: 'ana@example.com',
  phone: null,
  displayName: 'Mum',
  role: 'adult',
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

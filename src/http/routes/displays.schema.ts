/**
 * Request structs and response schemas of the family display endpoints (docs/display.md).
 */
import { S, named, type Infer, type JsonSchema, type SomeStruct } from '../../door/schema.js';
import { DISPLAY_FIELDS, type DisplayPatch } from '../../domain/displays/displays.js';
import { createStruct, patchShape, recordSchema } from '../../domain/shared/record.js';
import { withExamples } from './collections.schema.js';
import { displayToken } from '../../family/shareTokens.js';

const WHAT_IT_SHOWS =
  'What the display shows: events of these calendars (collection keys) and of these people (owner, responsible or attending), chores of these people (empty shows everything), the lists given (collection keys; groceries when left out); whether its page may change things (`interactive`, false when left out); when it dims (`nightFrom`–`nightTo`, local times, both or neither)';

// Built from the table (DISPLAY_FIELDS): a field is added there, not here.
export const CreateDisplayBody = withExamples(createStruct(DISPLAY_FIELDS, WHAT_IT_SHOWS), {
  name: 'Kitchen',
  calendars: ['calendar'],
});
export type CreateDisplayBody = Infer<typeof CreateDisplayBody>;

/** A PATCH that sends nothing changes nothing (and is no 400): the fields, none required. */
export const UpdateDisplayBody = withExamples(
  S.object(
    patchShape(DISPLAY_FIELDS),
    'Only the fields sent change; null turns night mode off (send both nightFrom and nightTo)',
  ) as unknown as SomeStruct<DisplayPatch>,
  { interactive: true, lists: ['groceries'], nightFrom: '21:30', nightTo: '06:30' },
);
export type UpdateDisplayBody = Infer<typeof UpdateDisplayBody>;

export const DISPLAY_SCHEMA: JsonSchema = recordSchema(DISPLAY_FIELDS);

const EXAMPLE = {
  id: 'display_01kaq5m2v8x3c4d5e6f7',
  name: 'Kitchen',
  calendars: ['calendar'],
  personIds: [],
  interactive: false,
  lists: ['groceries'],
  nightFrom: null,
  nightTo: null,
  locale: null,
  createdAt: '2026-11-22T08:30:00.000Z',
};
const TOKEN = 'dsp_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH';

export const DISPLAY_CREATED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'display', 'token', 'url'],
  properties: {
    ok: { const: true },
    display: DISPLAY_SCHEMA,
    token: {
      type: 'string',
      pattern: displayToken.pattern,
      description: 'Shown once; only its hash is kept',
    },
    url: { type: 'string', description: 'The display page: open it on the wall tablet' },
  },
  examples: [
    { ok: true, display: EXAMPLE, token: TOKEN, url: `https://home.example/display/${TOKEN}` },
  ],
};

export const DISPLAY_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'displays'],
  properties: { ok: { const: true }, displays: { type: 'array', items: DISPLAY_SCHEMA } },
  examples: [{ ok: true, displays: [EXAMPLE] }],
};

/** A display after a change, or as it was deleted. */
export const DISPLAY_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'display'],
  properties: { ok: { const: true }, display: DISPLAY_SCHEMA },
  examples: [{ ok: true, display: EXAMPLE }],
};

named('FamilyDisplay', DISPLAY_SCHEMA);
named('CreateDisplayBody', CreateDisplayBody);
named('UpdateDisplayBody', UpdateDisplayBody);

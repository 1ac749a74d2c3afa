/**
 * Request structs and response schemas of the family display endpoints (docs/display.md).
 */
import { S, named, type Infer, type JsonSchema } from '../../door/schema.js';
import { withExamples } from './collections.schema.js';
import { displayToken } from '../../family/shareTokens.js';

const ids = S.array(S.string({ min: 1, max: 100 }), { max: 200 });
const keys = S.array(S.string({ min: 1, max: 100 }), { max: 20 });

/** The settings an admin gives a display, on create and on PATCH. */
const settings = {
  calendars: S.optional(ids),
  personIds: S.optional(ids),
  interactive: S.optional(S.boolean()),
  lists: S.optional(keys),
  nightFrom: S.optional(S.nullable(S.time())),
  nightTo: S.optional(S.nullable(S.time())),
};

const WHAT_IT_SHOWS =
  'What the display shows: events of these calendars (collection keys) and of these people (owner, responsible or attending), chores of these people (empty shows everything), the lists given (collection keys; groceries when left out); whether its page may change things (`interactive`, false when left out); when it dims (`nightFrom`–`nightTo`, local times, both or neither)';

export const CreateDisplayBody = withExamples(
  S.object({ name: S.string({ min: 1, max: 200 }), ...settings }, WHAT_IT_SHOWS),
  { name: 'Kitchen', calendars: ['calendar'] },
);
export type CreateDisplayBody = Infer<typeof CreateDisplayBody>;

export const UpdateDisplayBody = withExamples(
  S.object(
    { name: S.optional(S.string({ min: 1, max: 200 })), ...settings },
    'Only the fields sent change; null turns night mode off (send both nightFrom and nightTo)',
  ),
  { interactive: true, lists: ['groceries'], nightFrom: '21:30', nightTo: '06:30' },
);
export type UpdateDisplayBody = Infer<typeof UpdateDisplayBody>;

export const DISPLAY_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'calendars',
    'personIds',
    'interactive',
    'lists',
    'nightFrom',
    'nightTo',
    'createdAt',
  ],
  properties: {
    id: { type: 'string', pattern: '^display_[0-9a-z]{20}$' },
    name: { type: 'string' },
    calendars: { type: 'array', items: { type: 'string' } },
    personIds: { type: 'array', items: { type: 'string' } },
    interactive: { type: 'boolean', description: 'Whether its page may change things' },
    lists: {
      type: 'array',
      items: { type: 'string' },
      description: 'Collection keys of the lists it shows besides the chores',
    },
    nightFrom: { type: ['string', 'null'], description: '`HH:mm` local: the page dims from then' },
    nightTo: { type: ['string', 'null'], description: '`HH:mm` local: …until then' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE = {
  id: 'display_01kaq5m2v8x3c4d5e6f7',
  name: 'Kitchen',
  calendars: ['calendar'],
  personIds: [],
  interactive: false,
  lists: ['groceries'],
  nightFrom: null,
  nightTo: null,
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

/**
 * Request structs and response schemas of the family display endpoints (docs/display.md).
 */
import { S, named, type Infer, type JsonSchema } from '../../door/schema.js';
import { withExamples } from './collections.schema.js';
import { displayToken } from '../../family/shareTokens.js';

const ids = S.array(S.string({ min: 1, max: 100 }), { max: 200 });

export const CreateDisplayBody = withExamples(
  S.object(
    {
      name: S.string({ min: 1, max: 200 }),
      calendars: S.optional(ids),
      personIds: S.optional(ids),
    },
    'What the display shows: events of these calendars (collection keys) and of these people (owner, responsible or attending), chores of these people; empty shows everything',
  ),
  { name: 'Kitchen', calendars: ['calendar'] },
);
export type CreateDisplayBody = Infer<typeof CreateDisplayBody>;

export const DISPLAY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'calendars', 'personIds', 'createdAt'],
  properties: {
    id: { type: 'string', pattern: '^display_[0-9a-z]{20}$' },
    name: { type: 'string' },
    calendars: { type: 'array', items: { type: 'string' } },
    personIds: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const EXAMPLE = {
  id: 'display_01kaq5m2v8x3c4d5e6f7',
  name: 'Kitchen',
  calendars: ['calendar'],
  personIds: [],
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

export const DISPLAY_DELETED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'display'],
  properties: { ok: { const: true }, display: DISPLAY_SCHEMA },
  examples: [{ ok: true, display: EXAMPLE }],
};

const nullable = (type: string) => ({ type: [type, 'null'] });
const WEATHER_DAY = {
  type: ['object', 'null'],
  required: ['date', 'summary', 'minC', 'maxC', 'precipitationProbability'],
  properties: {
    date: { type: 'string', format: 'date' },
    summary: nullable('string'),
    minC: nullable('number'),
    maxC: nullable('number'),
    precipitationProbability: nullable('number'),
  },
};
const CHORE = {
  type: 'object',
  required: ['title', 'due', 'overdue', 'who'],
  properties: {
    title: { type: 'string' },
    due: { type: ['string', 'null'], format: 'date' },
    overdue: { type: 'boolean' },
    who: { type: 'array', items: { type: 'string' } },
  },
};

/** What a display shows, as its page's JSON form and its stream's `display` events carry it. */
export const DISPLAY_CONTENT_SCHEMA: JsonSchema = named('DisplayContent', {
  type: 'object',
  required: ['ok', 'name', 'family', 'timezone', 'today', 'days', 'chores', 'weatherPlace'],
  properties: {
    ok: { const: true },
    name: { type: 'string' },
    family: { type: 'string', description: "The family's name" },
    timezone: { type: 'string', description: 'IANA zone: every date and time is in it' },
    today: { type: 'string', format: 'date' },
    days: {
      type: 'array',
      items: {
        type: 'object',
        required: ['date', 'label', 'events', 'weather'],
        properties: {
          date: { type: 'string', format: 'date' },
          label: { type: 'string', description: '"Today · Thursday 26 November"' },
          weather: WEATHER_DAY,
          events: {
            type: 'array',
            items: {
              type: 'object',
              required: [
                'title',
                'time',
                'endTime',
                'endDate',
                'where',
                'going',
                'leaveBy',
                'calendar',
              ],
              properties: {
                title: { type: 'string' },
                time: nullable('string'),
                endTime: nullable('string'),
                endDate: nullable('string'),
                where: nullable('string'),
                going: { type: 'array', items: { type: 'string' }, description: 'Familiar names' },
                leaveBy: {
                  type: ['string', 'null'],
                  description: '`HH:mm` local, with a travel plan',
                },
                calendar: { type: 'string' },
              },
            },
          },
        },
      },
    },
    chores: {
      type: 'object',
      required: ['due', 'done'],
      properties: {
        due: { type: 'array', items: CHORE },
        done: { type: 'array', items: CHORE, description: 'Ticked off today' },
      },
    },
    weatherPlace: { type: ['string', 'null'] },
  },
});

named('FamilyDisplay', DISPLAY_SCHEMA);
named('CreateDisplayBody', CreateDisplayBody);

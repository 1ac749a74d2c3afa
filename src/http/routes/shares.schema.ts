/**
 * Request structs and response schemas of the calendar share endpoints (docs/feeds.md).
 */
import { named, type Infer, type JsonSchema } from '../../door/schema.js';
import { SHARE_FIELDS } from '../../domain/calendar/shares.js';
import { createStruct, recordSchema } from '../../domain/shared/record.js';
import { withExamples } from './collections.schema.js';
import { calendarShareToken } from '../../family/shareTokens.js';

// Built from the table (SHARE_FIELDS): a field is added there, not here.
export const CreateShareBody = withExamples(
  createStruct(
    SHARE_FIELDS,
    'The union of calendars (categories = calendar collection keys), events, people (owner, responsible or attending) and external feeds; all empty shares every calendar',
  ),
  { name: 'Grandparents', categories: ['calendar'] },
);
export type CreateShareBody = Infer<typeof CreateShareBody>;

export const SHARE_SCHEMA: JsonSchema = recordSchema(SHARE_FIELDS);

const EXAMPLE = {
  id: 'share_01kaq5m2v8x3c4d5e6f7',
  name: 'Grandparents',
  categories: ['calendar'],
  eventIds: [],
  personIds: [],
  sourceIds: [],
  createdAt: '2026-11-22T08:30:00.000Z',
};

export const SHARE_CREATED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'share', 'token', 'url'],
  properties: {
    ok: { const: true },
    share: SHARE_SCHEMA,
    token: {
      type: 'string',
      pattern: calendarShareToken.pattern,
      description: 'Shown once; only its hash is kept',
    },
    url: { type: 'string', description: 'The public ICS feed of the share' },
  },
  examples: [
    {
      ok: true,
      share: EXAMPLE,
      token: 'shr_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH',
      url: 'https://home.example/share/calendar/shr_4f8KqLmN2pR7sT9vW1xY3zA5bC6dE8gH.ics',
    },
  ],
};

export const SHARE_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'shares'],
  properties: { ok: { const: true }, shares: { type: 'array', items: SHARE_SCHEMA } },
  examples: [{ ok: true, shares: [EXAMPLE] }],
};

export const SHARE_DELETED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok'],
  properties: { ok: { const: true }, share: SHARE_SCHEMA },
  examples: [{ ok: true, share: EXAMPLE }],
};

// Published once in the OpenAPI document, as components/schemas/<name>.
named('CalendarShare', SHARE_SCHEMA);
named('CreateShareBody', CreateShareBody);

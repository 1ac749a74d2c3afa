/**
 * Request struct and response schema of context search.
 */
import { S, type Infer, type JsonSchema } from '../../door/schema.js';
import { CONTEXT_LIMIT } from '../../domain/context/context.js';
import { SNIPPET_MAX } from '../../domain/context/snippet.js';

export const ContextQuery = S.object({
  query: S.optional(
    S.string({
      max: 200,
      description:
        'Words to find, ignoring case and accents; each word matches as a prefix or with a small typo, and all must match. Absent or blank: the overview of what is coming up',
    }),
  ),
  limit: S.optional(
    S.integer(CONTEXT_LIMIT.min, CONTEXT_LIMIT.max, {
      default: CONTEXT_LIMIT.default,
      description: 'Results of a search (extension); the overview is not limited by it',
    }),
  ),
});
export type ContextQuery = Infer<typeof ContextQuery>;

const RESULT: JsonSchema = {
  type: 'object',
  required: ['type', 'id', 'title', 'snippet', 'score'],
  properties: {
    type: { type: 'string', enum: ['entry', 'event', 'person', 'collection'] },
    id: { type: 'string', description: 'Entry or event id, person id, or collection key' },
    title: {
      type: 'string',
      description: 'Entry or event title, person display name, collection name',
    },
    collectionKey: {
      type: 'string',
      description: 'Entries and events: their collection; collections: their own key',
    },
    date: {
      type: 'string',
      format: 'date',
      description:
        'Events: the date of the occurrence shown (the first in the window); entries: their first date field',
    },
    time: {
      type: 'string',
      description: 'Events: local start time HH:mm of that occurrence (extension)',
    },
    status: {
      type: 'string',
      enum: ['active', 'done', 'archived'],
      description: 'Entries and events (extension)',
    },
    snippet: {
      type: 'string',
      maxLength: SNIPPET_MAX + 80,
      description: `A short text: around the matched word when the match is in the values; an event's date, time and place; a person's kind`,
    },
    score: {
      type: 'number',
      minimum: 0,
      description: 'Relevance, higher is better (BM25); 0 in the overview',
    },
  },
};

export const CONTEXT_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'query', 'results'],
  properties: {
    ok: { const: true },
    query: { type: ['string', 'null'], description: 'The query as given; null for the overview' },
    results: { type: 'array', items: RESULT },
  },
  examples: [
    {
      ok: true,
      query: 'dentist',
      results: [
        {
          type: 'event',
          id: 'ent_01kaq5m2v8x3c4d5e6f7',
          title: 'Dentist – Zoë',
          collectionKey: 'calendar',
          date: '2026-11-26',
          time: '15:30',
          status: 'active',
          snippet: '2026-11-26 15:30 · Smile Clinic',
          score: 9.412,
        },
        {
          type: 'entry',
          id: 'ent_01kaq5n0a1b2c3d4e5f6',
          title: 'Book the dentist for Leo',
          collectionKey: 'chores',
          date: '2026-12-01',
          status: 'active',
          snippet: '2026-12-01 · once',
          score: 7.05,
        },
      ],
    },
  ],
};

/**
 * Context search: one ranked list over entries, events, people and collections, or the
 * overview of what is coming up (src/domain/context/).
 */
import { route, defineRoutes, JsonText } from '../route.js';
import {
  contextOverview,
  CONTEXT_LIMIT,
  OVERVIEW_DAYS,
  OVERVIEW_MAX,
  SEARCH_DAYS,
  searchContext,
} from '../../domain/context/context.js';
import { todayIn } from '../../domain/shared/time.js';
import { CONTEXT_RESPONSE, ContextQuery } from './context.schema.js';

export default defineRoutes([
  route({
    method: 'get',
    path: '/context',
    tags: ['Context'],
    query: ContextQuery,
    summary: 'Search everything, or see what is coming up',
    description: `With \`query\`: entries, calendar events, people and collections ranked by relevance (best first, at most \`limit\`). Every word must match a word of the title or values, as a prefix or with a small typo (one letter from 4 letters, two from 8); case and accents are ignored; title matches count three times as much. Events are shown at their first occurrence from today through the next ${SEARCH_DAYS} days (however old the series); events without one are left out. Archived entries and deleted people never appear.\n\nWithout \`query\` (or blank): the occurrences of the next ${OVERVIEW_DAYS} days in calendar order (at most ${OVERVIEW_MAX}), open chores (soonest due first, at most ${OVERVIEW_MAX}), then the people, each with score 0. "Today" is the family's time zone's.`,
    response: CONTEXT_RESPONSE,
    handler: ({ query, family, services }) =>
      family.read((state) => {
        const now = services.now();
        const text = query.query?.trim() ? query.query : undefined;
        const limit = query.limit ?? CONTEXT_LIMIT.default;
        // Serialized answers are kept until the family's next write, per day and question:
        // a dashboard or an assistant repeats the same few.
        const answers = state.derived('http:context', () => new Map<string, JsonText>());
        const key = `${todayIn(state.family.timezone, now)}\u0000${text === undefined ? '\u0001' : `${limit}\u0000${text}`}`;
        let answer = answers.get(key);
        if (!answer) {
          const results =
            text === undefined
              ? contextOverview(state, now)
              : searchContext(state, text, limit, now);
          answer = JsonText.of({ ok: true, query: text ?? null, results });
          if (answers.size >= 500) answers.clear();
          answers.set(key, answer);
        }
        return answer;
      }),
  }),
]);

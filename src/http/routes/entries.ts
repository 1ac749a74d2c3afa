/**
 * Entries of a collection: list, create, update, delete, and the three batch operations.
 * Batch routes come before `/entries/:entryId` so `batch` is never taken for an entry id.
 */
import { route, defineRoutes, JsonText } from '../route.js';
import { requireCollection } from '../../domain/collections/collections.js';
import {
  SINGLE,
  decideCreateEntries,
  decideDeleteEntries,
  decideUpdateEntries,
} from '../../domain/collections/entries.js';
import { entryView, listEntries } from '../../domain/collections/listing.js';
import type { Entry } from '../../domain/collections/types.js';
import type { FamilyState } from '../../domain/shared/state.js';
import {
  BATCH_RESPONSE,
  BatchCreateBody,
  BatchDeleteBody,
  BatchUpdateBody,
  CreateEntryBody,
  ENTRY_LIST_RESPONSE,
  ENTRY_RESPONSE,
  ListEntriesQuery,
  UpdateEntryBody,
} from './entries.schema.js';

const tags = ['Entries'];
const base = '/trackers/:collectionKey/entries';
const calendarNote =
  ' Calendar collections answer 409: their events are written through /calendar/events.';

/** Views of entries just written (the collection is read after the commit; it cannot have gone). */
function views(state: FamilyState, key: string, entries: readonly Entry[]) {
  const c = requireCollection(state, key);
  return entries.map((e) => entryView(c, e));
}

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    query: ListEntriesQuery,
    summary: 'List entries, newest first',
    description:
      'Without `status`, archived entries are left out. `query` matches titles and data values, ignoring case and accents. When more entries match than `limit`, `nextCursor` continues the list. Calendar collections list their events here too.',
    response: ENTRY_LIST_RESPONSE,
    handler: ({ params, query, family, koa }) =>
      family.read((state) => {
        const answer = () => {
          const c = requireCollection(state, params.collectionKey);
          const page = listEntries(state, c, query);
          return JsonText.of({
            ok: true,
            entries: page.entries.map((e) => entryView(c, e)),
            ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
          });
        };
        // First pages (what dashboards poll) are kept, serialized, until the family's next
        // write; later pages are read once while paging and would only crowd the cache.
        return query.cursor
          ? answer()
          : state.derived(`http:entries:${params.collectionKey}?${koa.querystring}`, answer);
      }),
  }),
  route({
    method: 'post',
    path: `${base}/batch`,
    tags,
    status: 201,
    body: BatchCreateBody,
    summary: 'Create 1 to 50 entries at once',
    description: `Atomic: one invalid item answers 400 with issues under ["items", i, …] and nothing is written. One tracker.entry.created per entry.${calendarNote}`,
    response: BATCH_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideCreateEntries(state, params.collectionKey, body.items, ctx),
        (made, s) => ({
          ok: true,
          count: made.length,
          entries: views(s, params.collectionKey, made),
        }),
      ),
  }),
  route({
    method: 'patch',
    path: `${base}/batch`,
    tags,
    body: BatchUpdateBody,
    summary: 'Update 1 to 50 entries at once',
    description: `Atomic: one invalid item answers 400, an unknown entry id 404, and nothing is changed. Each item changes only the fields it sends.${calendarNote}`,
    response: BATCH_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideUpdateEntries(state, params.collectionKey, body.items, ctx),
        (done, s) => ({
          ok: true,
          count: done.length,
          entries: views(s, params.collectionKey, done),
        }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/batch`,
    tags,
    body: BatchDeleteBody,
    summary: 'Delete 1 to 50 entries at once',
    description: `Atomic: an unknown entry id answers 404 with issues under ["entryIds", i] and nothing is deleted.${calendarNote}`,
    response: BATCH_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideDeleteEntries(state, params.collectionKey, body.entryIds, ctx),
        (gone, s) => ({
          ok: true,
          count: gone.length,
          entries: views(s, params.collectionKey, gone),
        }),
      ),
  }),
  route({
    method: 'post',
    path: base,
    tags,
    status: 201,
    body: CreateEntryBody,
    summary: 'Create an entry',
    description: `Data keys the collection does not define are dropped; values are checked against their field types.${calendarNote}`,
    response: ENTRY_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideCreateEntries(state, params.collectionKey, [body], ctx, SINGLE),
        (made, s) => ({ ok: true, entry: views(s, params.collectionKey, made)[0] }),
      ),
  }),
  route({
    method: 'patch',
    path: `${base}/:entryId`,
    tags,
    body: UpdateEntryBody,
    summary: 'Update an entry',
    description: `Send only the fields to change; data is merged key by key and null removes a key.${calendarNote}`,
    response: ENTRY_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) =>
          decideUpdateEntries(
            state,
            params.collectionKey,
            [{ ...body, entryId: params.entryId }],
            ctx,
            SINGLE,
          ),
        (done, s) => ({ ok: true, entry: views(s, params.collectionKey, done)[0] }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:entryId`,
    tags,
    summary: 'Delete an entry',
    description: calendarNote.trim(),
    response: ENTRY_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) =>
          decideDeleteEntries(state, params.collectionKey, [params.entryId], ctx, () => [
            'entryId',
          ]),
        (gone, s) => ({ ok: true, entry: views(s, params.collectionKey, gone)[0] }),
      ),
  }),
]);

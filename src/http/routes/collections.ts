/**
 * Collections (wire name: tracker): list, create, update, delete.
 */
import { route, defineRoutes } from '../route.js';
import {
  collectionView,
  decideCreateCollection,
  decideDeleteCollection,
  decideUpdateCollection,
  listCollections,
} from '../../domain/collections/collections.js';
import {
  CreateCollectionBody,
  TRACKER_DELETE_RESPONSE,
  TRACKER_LIST_RESPONSE,
  TRACKER_RESPONSE,
  UpdateCollectionBody,
} from './collections.schema.js';

const tags = ['Collections'];

export default defineRoutes([
  route({
    method: 'get',
    path: '/trackers',
    tags,
    summary: 'List collections',
    description:
      'The built-in collections (calendar, meals, chores, routines, groceries) in that order, then custom ones oldest first.',
    response: TRACKER_LIST_RESPONSE,
    handler: ({ family }) =>
      family.read((state) => ({ ok: true, trackers: listCollections(state).map(collectionView) })),
  }),
  route({
    method: 'post',
    path: '/trackers',
    tags,
    status: 201,
    body: CreateCollectionBody,
    summary: 'Create a collection',
    description:
      'The key is derived from the name (lower-case, `-` between words, at most 48 characters, `-2`, `-3`… when taken). A name already used (ignoring case) answers 409. `category: calendar` makes another household calendar.',
    response: TRACKER_RESPONSE,
    handler: ({ body, family }) =>
      family.execute(
        (state, ctx) => decideCreateCollection(state, body, ctx),
        (c) => ({ ok: true, tracker: collectionView(c) }),
      ),
  }),
  route({
    method: 'patch',
    path: '/trackers/:collectionKey',
    tags,
    body: UpdateCollectionBody,
    summary: 'Update a collection',
    description:
      'Send only the fields to change. `fields` replaces the whole list; values of removed fields are hidden, not erased. The key never changes.',
    response: TRACKER_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideUpdateCollection(state, params.collectionKey, body, ctx),
        (c) => ({ ok: true, tracker: collectionView(c) }),
      ),
  }),
  route({
    method: 'delete',
    path: '/trackers/:collectionKey',
    tags,
    summary: 'Delete a custom collection and its entries',
    description:
      'Built-in collections answer 409, as does the calendar of an external feed (remove the feed instead). The change log records one collection.deleted (with deletedEntries), not one record per entry.',
    response: TRACKER_DELETE_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideDeleteCollection(state, params.collectionKey, ctx),
        (r) => ({
          ok: true,
          tracker: collectionView(r.collection),
          deletedEntries: r.deletedEntries,
        }),
      ),
  }),
]);

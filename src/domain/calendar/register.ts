/**
 * The calendar area's registrations: when a custom calendar collection is deleted (with its
 * events, by the collections area), its events leave every plan in the same decision, exactly
 * as a deleted event does.
 */
import { onCollectionDeleted } from '../collections/collections.js';
import { reactToEventsRemoved } from '../shared/hooks.js';

onCollectionDeleted((state, collection, entryIds, ctx) =>
  collection.category === 'calendar' ? reactToEventsRemoved(state, [...entryIds], ctx) : { changes: [], events: [] });

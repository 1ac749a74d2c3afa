/**
 * The plans area's registrations: a calendar event deleted anywhere (one delete, a calendar or
 * a feed removed) leaves every plan in the same decision.
 */
import { onEventsRemoved } from '../shared/hooks.js';
import { unlinkRemovedEvents } from './plans.js';

onEventsRemoved(unlinkRemovedEvents);

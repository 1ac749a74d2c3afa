/**
 * Every API area's routes, in the order they are matched. Each area adds one line here.
 */
import type { RouteDef } from '../route.js';
import collections from './collections.js';
import entries from './entries.js';
import people from './people.js';
import calendar from './calendar.js';
import shares from './shares.js';
import calendarFeed from '../../public/calendarFeed.js';
import plans from './plans.js';
import planNotes from './planNotes.js';
import planPolls from './planPolls.js';
import planPage from '../../public/planPage.js';
import context from './context.js';
import lookups from './lookups.js';
import pending from './pending.js';

export function areaRoutes(): RouteDef[] {
  return [
    ...collections,
    ...entries,
    ...people,
    ...calendar,
    ...shares,
    ...calendarFeed,
    ...plans,
    ...planNotes,
    ...planPolls,
    ...planPage,
    ...context,
    ...lookups,
    ...pending,
  ];
}

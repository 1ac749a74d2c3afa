/**
 * The REST door's areas: every API area's routes, in the order they are matched. Each area
 * adds one line here; the door itself is ../door.ts.
 */
import type { Route } from '../../door/route.js';
import type { RestServices } from '../route.js';
import docs from './docs.js';
import family from './family.js';
import collections from './collections.js';
import entries from './entries.js';
import people from './people.js';
import calendar from './calendar.js';
import shares from './shares.js';
import feeds from './feeds.js';
import plans from './plans.js';
import planNotes from './planNotes.js';
import planPolls from './planPolls.js';
import notifications from './notifications.js';
import routines from './routines.js';
import checks from './checks.js';
import webhooks from './webhooks.js';
import context from './context.js';
import lookups from './lookups.js';
import oauthGrants from './oauthGrants.js';
import displays from './displays.js';

export function areaRoutes(): Route<RestServices>[] {
  return [
    ...docs,
    ...family,
    ...collections,
    ...entries,
    ...people,
    ...calendar,
    ...shares,
    ...feeds,
    ...plans,
    ...planNotes,
    ...planPolls,
    ...notifications,
    ...routines,
    ...checks,
    ...webhooks,
    ...context,
    ...lookups,
    ...oauthGrants,
    ...displays,
  ];
}

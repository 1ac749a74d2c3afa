/**
 * Every API area's routes, in the order they are matched. Each area adds one line here.
 */
import type { RouteDef } from '../route.js';
import collections from './collections.js';
import entries from './entries.js';
import people from './people.js';

export function areaRoutes(): RouteDef[] {
  return [
    ...collections,
    ...entries,
    ...people,
  ];
}

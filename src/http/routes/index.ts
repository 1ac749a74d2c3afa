/**
 * Every API area's routes, in the order they are matched. Each area adds one line here.
 */
import type { RouteDef } from '../route.js';

export function areaRoutes(): RouteDef[] {
  return [
  ];
}

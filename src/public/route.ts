/**
 * The public door's routes: what its handlers may use (`PublicServices`: the core's services
 * and the family display's weather and open streams), and its `route` helper.
 */
import {
  defineRoutes as defineAny,
  routeFor,
  type CoreServices,
  type Route,
} from '../door/route.js';
import type { DisplayWeatherCache } from './displayWeather.js';
import type { DisplayStreams } from './displayStream.js';
import type { RateLimiter } from '../door/limits.js';
import type { IdempotencyGate } from '../door/idempotency.js';

export { withStatus } from '../door/route.js';

export interface PublicServices extends CoreServices {
  /**
   * The family displays: the weather they show, their open streams, and for their actions a
   * limiter of their own (`display.actionsPerMinute`, bucket `display:<id>`) and the
   * Idempotency-Key rules scoped to the display.
   */
  display: {
    weather: DisplayWeatherCache;
    streams: DisplayStreams;
    limiter: RateLimiter;
    replays: IdempotencyGate;
  };
}

/** A public route, its query and body typed from its structs. */
export const route = routeFor<PublicServices>();

export function defineRoutes(defs: Route<PublicServices>[]): Route<PublicServices>[] {
  return defineAny(defs);
}

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

export { withStatus } from '../door/route.js';

export interface PublicServices extends CoreServices {
  /** The family displays: the weather they show and their open streams. */
  display: { weather: DisplayWeatherCache; streams: DisplayStreams };
}

/** A public route, its query and body typed from its structs. */
export const route = routeFor<PublicServices>();

export function defineRoutes(defs: Route<PublicServices>[]): Route<PublicServices>[] {
  return defineAny(defs);
}

/**
 * The REST door's routes: what its handlers may use (`RestServices`: the core's services and
 * the daemon parts REST areas reach), and the `route` helper that types a route's handler from
 * its structs. The route machinery itself is the door core's (src/door/route.ts).
 */
import {
  defineRoutes as defineAny,
  routeFor,
  type CoreServices,
  type CoreStore,
  type Route,
} from '../door/route.js';
import type { Caller as ChangeCaller } from '../domain/shared/state.js';
import type { OAuthGrant } from '../domain/oauth/grants.js';
import type { Egress } from '../integrations/egress.js';
import type { Notifier } from '../notifications/sender.js';
import type { LogReads } from '../store/ports.js';
import type { Webhooks } from '../webhooks/webhooks.js';

export { JsonText, withStatus, type FamilyHandle } from '../door/route.js';

/** What REST needs of the OAuth door; its authority (src/oauth/authority.ts) is one. */
export interface GrantAccess {
  listGrants(familyId: string): OAuthGrant[];
  revokeGrant(
    grantId: string,
    by: ChangeCaller,
  ): Promise<{ grant: OAuthGrant; already: boolean } | undefined>;
}

/** What /healthz adds from the daemon's topology (a cluster node: its name, NATS, families). */
export interface HealthSource {
  health(): {
    cluster?: { node: string; connected: boolean; ownedFamilies: number };
  };
}

/** Everything a REST handler may use; routes never touch the store directly. */
export interface RestServices extends CoreServices {
  /** The changes feed reads the log (through the family, so only what is durable). */
  store: CoreStore & Pick<LogReads, 'readLog'> & { readonly writeFailure: Error | null };
  /** Sends notifications' pending deliveries after their record is durable. */
  notifier: Notifier;
  /** Test deliveries of webhook destinations (they leave the machine). */
  webhooks: Webhooks;
  /** The one outbound HTTP client (egress guard), for routes that fetch (feeds). */
  egress: Egress;
  /** Assistants' OAuth grants (src/oauth): the admin routes. */
  grants?: GrantAccess;
  /** The daemon's topology, as /healthz shows it. */
  topology: HealthSource;
}

/** A REST route, its query and body typed from its structs. */
export const route = routeFor<RestServices>();

export function defineRoutes(defs: Route<RestServices>[]): Route<RestServices>[] {
  return defineAny(defs);
}

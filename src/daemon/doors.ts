/**
 * The front doors, side by side, and the services their handlers use: REST (first: it answers
 * the paths no door owns), the public pages and the family display, the live stream, OAuth,
 * MCP, CalDAV and the household pages (the order of their routes is the OpenAPI document's). A new door is one more line in `doors`. Every door is served through the
 * door core's one app (src/door/app.ts): one error table, one set of credentials, one limiter,
 * one body reader.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { caldavDoor } from '../caldav/door.js';
import { createApp } from '../door/app.js';
import { idempotencyGate } from '../door/idempotency.js';
import { RateLimiter } from '../door/limits.js';
import type { Door } from '../door/door.js';
import type { AnyRoute } from '../door/route.js';
import type { DoorState } from '../door/state.js';
import { daemonOpenApi } from '../http/apiDocument.js';
import { restDoor } from '../http/door.js';
import type { RestServices } from '../http/route.js';
import { areaRoutes } from '../http/routes/index.js';
import systemRoutes from '../http/routes/system.js';
import { MCP_PATH, mcpDoor } from '../mcp/endpoint.js';
import { oauthDoor, oauthUrlsFor } from '../oauth/endpoints.js';
import { looksLikeAccessToken } from '../oauth/credentials.js';
import { DisplayStreams } from '../public/displayStream.js';
import { DisplayWeatherCache } from '../public/displayWeather.js';
import { publicDoor } from '../public/index.js';
import type { PublicServices } from '../public/route.js';
import { StreamHub } from '../stream/hub.js';
import { streamDoor, type StreamServices } from '../stream/door.js';
import { VERSION } from '../version.js';
import { HouseholdAccess } from '../family/access.js';
import { deviceRoutes } from '../http/routes/devices.js';
import { pagesDoor } from '../pages/index.js';
import type { DaemonParts } from './parts.js';

/** What every door's handlers may use: each door's own services, in one object. */
export type DaemonServices = RestServices & StreamServices & PublicServices;

/** The live streams: the change stream's fan-out and the displays' (both count as no load). */
function streams(p: DaemonParts) {
  const { config, store, requests } = p;
  const hub = new StreamHub(p.followed, {
    heartbeatMs: config.stream.heartbeatSeconds * 1000,
    maxBacklog: config.stream.maxBacklog,
    perKey: config.stream.perKey,
    keyValid: (keyId) => {
      const k = store.getKey(keyId);
      return k !== undefined && !k.revokedAt;
    },
    // An open stream is not a request being answered: it must not count as load (webhooks'
    // share of the thread follows that count).
    onOpen: () => requests.add(-1),
    onClose: () => requests.add(1),
  });
  const display = {
    weather: new DisplayWeatherCache({ egress: p.egress, config, now: p.now }),
    streams: new DisplayStreams({
      log: p.followed,
      heartbeatMs: config.stream.heartbeatSeconds * 1000,
      onOpen: () => requests.add(-1),
      onClose: () => requests.add(1),
    }),
    // An interactive display's actions: counted per display, idempotent per display.
    limiter: new RateLimiter(config.display.actionsPerMinute, () => p.now().getTime()),
    replays: idempotencyGate(store, p.now),
  };
  return { hub, display };
}

export interface ComposedDoors {
  app: Koa<DoorState>;
  /** Every door, REST first. */
  doors: readonly Door<DaemonServices>[];
  router: Router<DoorState>;
  routes: readonly AnyRoute[];
  hub: StreamHub;
  display: DaemonServices['display'];
}

export function composeDoors(p: DaemonParts, baseUrl: () => string): ComposedDoors {
  const { hub, display } = streams(p);
  const services: DaemonServices = {
    config: p.config,
    addresses: p.addresses,
    registry: p.registry,
    store: p.store,
    now: p.now,
    logger: p.logger,
    credentials: p.credentials,
    limits: p.limits,
    notifier: p.notifier,
    webhooks: p.webhooks,
    egress: p.egress,
    grants: p.authority,
    topology: p.topology,
    stream: { hub, tickets: p.tickets },
    display,
  };
  let document: unknown;
  // Setup codes, sign-in links, browser sessions and devices: key records of their kinds.
  const access = new HouseholdAccess(p.store);
  const doors: Door<DaemonServices>[] = [
    restDoor([
      ...systemRoutes(() => document, VERSION, p.metrics),
      ...areaRoutes(),
      ...deviceRoutes(access),
    ]),
    publicDoor(),
    streamDoor(),
    // Assistants' OAuth (docs/oauth.md): metadata, registration, consent page, tokens.
    oauthDoor(p.authority, MCP_PATH, p.store),
    // The assistant surface: tool calls come back in as REST requests to this daemon's address.
    mcpDoor({ urlsFor: oauthUrlsFor(p.addresses, MCP_PATH), isAccessToken: looksLikeAccessToken }),
    // Calendar apps (CalDAV): /.well-known/caldav and /dav/…, in their own XML and iCalendar.
    caldavDoor(),
    // The household's own pages (docs/pages.md): setup, sign-in, devices, and the rest.
    pagesDoor(access),
  ];
  const { app, router, routes } = createApp({
    services,
    doors,
    directory: p.store,
    metrics: p.metrics.enabled ? p.metrics : undefined,
    front: (parts) => p.topology.front(parts),
    baseUrl,
    version: VERSION,
  });
  document = daemonOpenApi(routes, p.addresses.publicBase ?? '/');
  return { app, doors, router, routes, hub, display };
}

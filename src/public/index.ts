/**
 * The public door: what is served without an API key, a share token being the credential.
 * The server composes it beside the REST API and the MCP endpoint (src/server.ts).
 */
import type { RouteDef } from '../http/route.js';
import calendarFeed from './calendarFeed.js';
import planIcs from './planIcs.js';
import planPage from './planPage.js';
import displayPage from './displayPage.js';
import displayActions from './displayActions.js';

export function publicRoutes(): RouteDef[] {
  // The .ics route first: /p/:token would otherwise take "<token>.ics" as its token.
  return [...calendarFeed, ...planIcs, ...planPage, ...displayPage, ...displayActions];
}

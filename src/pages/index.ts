/**
 * The household pages (docs/pages.md): every page route, and the door that serves them.
 */
import type Koa from 'koa';
import type { PageRoute, PagesDeps } from './context.js';
import { pagesDoor } from './door.js';
import { deviceRoutes } from './devices.js';
import { pairRoutes } from './pair.js';
import { runningRoutes } from './running.js';
import { settingsRoutes } from './settings.js';
import { home, sectionRoutes } from './sections.js';
import { anonymousHome, signinRoutes } from './signin.js';

export const PAGE_ROUTES: readonly PageRoute[] = [
  {
    method: 'GET',
    path: /^\/$/,
    signedIn: false,
    handle: (r) => (r.session ? home(r) : Promise.resolve(anonymousHome(r))),
  },
  ...signinRoutes,
  ...sectionRoutes,
  ...deviceRoutes,
  ...runningRoutes,
  ...settingsRoutes,
  ...pairRoutes,
];

export function householdPages(deps: PagesDeps): Koa.Middleware {
  return pagesDoor(deps, PAGE_ROUTES);
}

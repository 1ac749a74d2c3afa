/**
 * The household pages' door (docs/pages.md) on the door core: the paths it owns, the family of
 * a request (its session cookie, a credential kind of the core), its errors as pages, and its
 * handler over every page route.
 */
import type Koa from 'koa';
import type { Door } from '../door/door.js';
import type { ErrorAnswer } from '../door/errors.js';
import type { CoreServices } from '../door/route.js';
import type { HouseholdAccess } from '../family/access.js';
import type { PageRoute } from './context.js';
import { browserVoice, pagesHandler, titleOf, writeAnswer } from './door.js';
import { deviceRoutes } from './devices.js';
import { cookie, SESSION_COOKIE } from './forms.js';
import { e, errorBox, page } from './html.js';
import { pairRoutes } from './pair.js';
import { PairingProfiles } from './profiles.js';
import { outsideRoutes } from './outside.js';
import { runningRoutes } from './running.js';
import { home, sectionRoutes } from './sections.js';
import { settingsRoutes } from './settings.js';
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
  ...outsideRoutes,
  ...settingsRoutes,
  ...pairRoutes,
];

/** The first segment of every page's path: what the door owns (and labels its metrics by). */
const SECTIONS = [
  '/signin',
  '/signout',
  '/setup',
  '/pair',
  '/people',
  '/devices',
  '/keys',
  '/family',
  '/displays',
  '/calendars',
  '/assistants',
  '/webhooks',
  '/notifications',
  '/backups',
];

function render(answer: ErrorAnswer, ctx: Koa.Context): void {
  ctx.set(answer.headers);
  const voice = browserVoice(ctx);
  writeAnswer(ctx, {
    status: answer.status,
    html: page(
      { title: voice.say('pages', titleOf(answer.status)), voice },
      `${errorBox(answer.message)}\n<p><a href="/">${e(voice.say('pages', 'backHome'))}</a></p>`,
    ),
  });
}

export function pagesDoor(access: HouseholdAccess): Door<CoreServices> {
  return {
    name: 'pages',
    prefixes: SECTIONS,
    // `/` itself (the home or the setup) and nothing else: every other path nobody owns stays
    // the REST door's JSON 404.
    claims: (method, path) => path === '/' && (method === 'GET' || method === 'HEAD'),
    familyOf: (ctx, find) => {
      const text = cookie(ctx, SESSION_COOKIE);
      return text ? find.byCredential({ kind: 'session', text }) : null;
    },
    routeLabel: (path) =>
      path === '/' ? '/' : (SECTIONS.find((s) => path === s || path.startsWith(`${s}/`)) ?? null),
    render,
    handler: ({ services, baseUrl }) =>
      pagesHandler(
        {
          services,
          access,
          baseUrl,
          profiles: new PairingProfiles(() => services.now().getTime()),
        },
        PAGE_ROUTES,
      ),
  };
}

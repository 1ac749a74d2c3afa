/**
 * The family display (docs/display.md): `GET /display/<token>`, a page for a wall tablet, and
 * `GET /display/<token>/events`, its own stream. No API key: the token is the credential; its
 * SHA-256 finds the family through the store-wide index and then the display carrying that
 * hash. Unknown, malformed and deleted tokens answer the same 404.
 */
import { NotFound } from '../domain/shared/errors.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import { displayByTokenHash } from '../domain/displays/displays.js';
import { displayContent, type DisplayContent } from '../domain/displays/view.js';
import { addDays, todayIn } from '../domain/shared/time.js';
import { displayToken } from '../family/shareTokens.js';
import type Koa from 'koa';
import { DoorError } from '../door/errors.js';
import { countToken } from '../door/limits.js';
import { route, defineRoutes, withStatus, type PublicServices } from './route.js';
import { DISPLAY_CONTENT_SCHEMA } from '../http/routes/displays.content.schema.js';
import { DISPLAY_CSP, DISPLAY_CSS } from './displayClient.js';
import { DISPLAY_ASSET_TYPE, DISPLAY_SCRIPT_URL, displayAsset } from './displayAssets.js';
import { fill } from '../locale/displayMessages.js';
import { clockTime, localParts } from '../locale/displayFormat.js';
import { displayLocale, displayText, type DisplayText } from '../domain/displays/text.js';
import { bestLocale } from '../domain/i18n/negotiate.js';
import { PER_DISPLAY, type Shown } from './displayStream.js';
import { HEADERS as PLAN_HEADERS } from './planPage.js';
import { escapeHtml, pageHead } from '../door/html.js';

const HEADERS = { ...PLAN_HEADERS, 'content-security-policy': DISPLAY_CSP };

/** How long the page waits for a forecast it does not have yet before it is sent without one. */
const WEATHER_WAIT_MS = 1_500;

interface Found {
  family: FamilyInfo;
  displayId: string;
  content: (waitMs?: number) => Promise<Shown | null>;
}

/** The display a presented token names, with a way to compute its content now; null if none. */
async function resolve(services: PublicServices, token: string): Promise<Found | null> {
  const hash = displayToken.hashOf(token);
  if (!hash) return null;
  const actor = await services.registry.byShareToken(hash);
  if (!actor) return null;
  const family = actor.family;
  const displayId = await actor.read((state) => displayByTokenHash(state, hash)?.id ?? null);
  if (!displayId) return null;
  const days = services.config.display.days;
  const content = async (waitMs = 0) => {
    const now = services.now();
    // Asked again each time: a stream outlives an actor evicted while the family was idle, and
    // the family's zone and location change live on its actor.
    const current = await services.registry.get(family);
    const info = current.family;
    const today = todayIn(info.timezone, now);
    const dates = Array.from({ length: days }, (_, i) => addDays(today, i));
    const weather = await services.display.weather.forecast(info, dates, waitMs);
    return current.read((state): Shown | null => {
      const d = displayByTokenHash(state, hash);
      if (!d) return null;
      return {
        content: displayContent(state, d, services.now(), days, weather),
        text: displayText(displayLocale(state.family, d), state.family.timezone),
      };
    });
  };
  return { family, displayId, content };
}

/**
 * A display link is a credential like a key: its page and stream count in the link's own budget
 * (`rateLimit.perMinute`, docs/api.md) besides the address's, so a leaked link is limited
 * whatever the addresses it is used from.
 */
function countDisplay(koa: Koa.Context, services: PublicServices, found: Found): void {
  countToken(koa, services.limits, { kind: 'display', displayId: found.displayId });
}

/** JSON as data in the page (never run): `<` is escaped so no text in it can close the element. */
const data = (x: unknown) => JSON.stringify(x).replace(/</g, '\\u003c');

function page(c: DisplayContent, text: DisplayText, now: Date): string {
  const m = text.messages;
  const title = fill(m.title, { family: c.family, name: c.name });
  const time = clockTime(localParts(now.getTime(), c.timezone).time, text);
  // The first content and the words ride in the page; the clock shows before the script runs.
  return `${pageHead({
    title,
    style: DISPLAY_CSS,
    extra: '<meta name="color-scheme" content="light dark">',
    voice: text,
  })}<body>
<header><h1 id="name">${escapeHtml(title)}</h1><span id="status" data-state="live" role="status">${escapeHtml(m.statusLive)}</span><span id="clock" aria-label="${escapeHtml(m.clockLabel)}">${escapeHtml(time)}</span></header>
<div id="next" aria-live="polite"></div>
<main id="board"></main>
<div id="notice" role="alert" hidden><span id="notice-text"></span><button id="notice-ok" class="act" type="button">${escapeHtml(m.ok)}</button></div>
<div id="undo" hidden><span id="undo-text" role="status"></span><button id="undo-button" class="act" type="button">${escapeHtml(m.undo)}</button></div>
<script type="application/json" id="initial">${data(c)}</script>
<script type="application/json" id="display-text">${data(text)}</script>
<script type="module" src="${DISPLAY_SCRIPT_URL}"></script>
</body>
</html>
`;
}

const notFoundPages = new Map<string, string>();

/**
 * The page of a link that is not (or no longer) there: no family to take a locale from, so in
 * the language the browser asks for (`Accept-Language`), English when none is known.
 */
function notFoundPage(koa: Koa.Context): string {
  const locale = bestLocale(koa.get('accept-language'));
  let html = notFoundPages.get(locale);
  if (!html) {
    const { messages: m, ...voice } = displayText(locale, 'UTC');
    html = `${pageHead({ title: m.notFoundTitle, style: DISPLAY_CSS, voice })}<body><main><section><h1>${escapeHtml(m.notFoundHeading)}</h1><p>${escapeHtml(m.notFoundText)}</p></section></main></body>
</html>
`;
    if (notFoundPages.size >= 100) notFoundPages.clear();
    notFoundPages.set(locale, html);
  }
  return html;
}

export default defineRoutes([
  route({
    method: 'get',
    path: '/display/:displayToken',
    family: false,
    scope: 'public',
    tags: ['Family displays'],
    summary: 'The family display: a page for a wall tablet',
    description:
      'No API key: the token in the address is the credential. Today and the next `display.days` days ' +
      '(events with times, who is going, leave-by), chores due and done today, and the weather where the family has ' +
      'a location. The page follows `/display/{displayToken}/events` and keeps its last content when the network drops. ' +
      'With `Accept: application/json` it answers the content as JSON. Unknown or deleted → 404.',
    produces: 'text/html',
    response: {
      type: 'string',
      description:
        'A self-contained HTML page (inline script and style, allowed by hash in its CSP)',
    },
    alsoResponses: [
      {
        status: 200,
        contentType: 'application/json',
        schema: DISPLAY_CONTENT_SCHEMA,
        description: 'The same content as JSON (Accept: application/json)',
      },
      {
        status: 404,
        contentType: 'text/html',
        schema: { type: 'string', description: 'A page saying the link is off' },
        description: 'Unknown, malformed or deleted token',
      },
    ],
    handler: async ({ koa, params, services }) => {
      const wantsJson = koa.accepts('html', 'json') === 'json';
      const found = await resolve(services, params.displayToken ?? '');
      if (found) countDisplay(koa, services, found);
      const shown = found ? await found.content(WEATHER_WAIT_MS) : null;
      if (!shown) {
        if (wantsJson) throw new NotFound('No family display at this address');
        return withStatus(404, notFoundPage(koa), HEADERS);
      }
      const { content, text } = shown;
      return withStatus(200, wantsJson ? content : page(content, text, services.now()), HEADERS);
    },
  }),
  route({
    method: 'get',
    path: '/display/assets/:assetVersion/:assetFolder/:assetFile',
    family: false,
    scope: 'public',
    tags: ['Family displays'],
    summary: "A module of the family display's script",
    description:
      "The display page's script: ES2017 modules, loaded by the page as a module script, built with the daemon. " +
      'The address carries a hash of them all, so a module is cached for a year and a new build has new ' +
      'addresses; another version or file → 404. No token: the script is the same for every display.',
    produces: 'text/javascript',
    response: { type: 'string', description: 'An ES2017 module' },
    handler: ({ params }) => {
      const body = displayAsset(
        params.assetVersion ?? '',
        `${params.assetFolder ?? ''}/${params.assetFile ?? ''}`,
      );
      if (!body) throw new NotFound("No such file of the family display's script");
      return withStatus(200, body, {
        'content-type': DISPLAY_ASSET_TYPE,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
    },
  }),
  route({
    method: 'get',
    path: '/display/:displayToken/events',
    family: false,
    scope: 'public',
    tags: ['Family displays'],
    summary: "The family display's own stream (server-sent events)",
    description:
      "Carries only what the page shows: `event: text` with the display's words and locale (its catalog section, " +
      "`lang`, `dir`, clock and temperature unit) at once and whenever its locale changes (the family's or its own), " +
      "then `event: display` with the whole content (as the page's JSON form) " +
      'at once and whenever it changes (a write, the weather, a new day); `event: gone` when the display is deleted, ' +
      'then the stream ends. A comment line comes when nothing changed for `stream.heartbeatSeconds`. ' +
      `At most ${PER_DISPLAY} streams per display. Unknown or deleted → 404.`,
    produces: 'text/event-stream',
    response: { type: 'string', description: 'Server-sent events' },
    errors: [503],
    handler: async ({ koa, params, services }) => {
      const found = await resolve(services, params.displayToken ?? '');
      if (found) countDisplay(koa, services, found);
      const first = found ? await found.content(WEATHER_WAIT_MS) : null;
      if (!found || !first) throw new NotFound('No family display at this address');
      if (!services.display.streams.accepts(found.displayId)) {
        throw new DoorError(
          'unavailable',
          'Too many screens follow this display link right now (or the daemon is stopping)',
          { headers: { 'Retry-After': '10' } },
        );
      }
      services.display.streams.start(koa.req, koa.res, found.family, found.displayId, first, () =>
        found.content(),
      );
      koa.respond = false;
      return withStatus(200, undefined);
    },
  }),
]);

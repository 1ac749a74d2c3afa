/**
 * Lookups (docs/egress.md): weather for a place, public web search, the readable text of a page.
 * They read nothing of the family's data; the key and scope checks still apply.
 *
 * The integrations are made once per daemon (per RestServices object) on the daemon's own egress
 * client (`services.egress`), so their caches (weather) live as long as the daemon.
 */
import { route, defineRoutes, type RestServices } from '../route.js';
import {
  createWeather,
  CACHE_MS,
  WEATHER_LIMITS,
  type Weather,
} from '../../integrations/weather.js';
import {
  createWebSearch,
  NUM_RESULTS,
  SEARCH_LIMITS,
  type WebSearch,
} from '../../integrations/webSearch.js';
import { createWebPage, PAGE_LIMITS, type WebPage } from '../../integrations/webPage.js';
import { sizeText } from '../../integrations/upstream.js';
import { Invalid } from '../../domain/shared/errors.js';
import {
  WEATHER_RESPONSE,
  WEB_PAGE_RESPONSE,
  WEB_SEARCH_RESPONSE,
  WeatherQuery,
  WebPageQuery,
  WebSearchQuery,
} from './lookups.schema.js';

interface Lookups {
  weather: Weather;
  search: WebSearch;
  page: WebPage;
}
const made = new WeakMap<RestServices, Lookups>();

function lookups(services: RestServices): Lookups {
  let l = made.get(services);
  if (!l) {
    const deps = { http: services.egress, config: services.config, clock: services.now };
    l = { weather: createWeather(deps), search: createWebSearch(deps), page: createWebPage(deps) };
    made.set(services, l);
  }
  return l;
}

const tags = ['Lookups'];

export default defineRoutes([
  route({
    method: 'get',
    path: '/weather',
    tags,
    query: WeatherQuery,
    errors: [404, 502, 504],
    summary: 'Weather for a place',
    description: `From Open-Meteo (geocoding, then the forecast; base URLs \`weather.geocodingUrl\` and \`weather.forecastUrl\`). \`date\` is a day of the forecast in the place's own time zone (default: its first day, the place's today; the forecast covers ${WEATHER_LIMITS.forecastDays} days, a date outside it answers 400). With \`time\`, the values are those of that hour (minutes are ignored); without, the day's: mean temperature, maximum precipitation probability, precipitation sum, maximum wind. An unknown place answers 404; the service failing 502, not answering within ${WEATHER_LIMITS.timeoutMs / 1000} s 504. Answers are reused for ${CACHE_MS / 60_000} minutes.`,
    response: WEATHER_RESPONSE,
    handler: async ({ query, services }) => ({
      ok: true,
      ...(await lookups(services).weather.lookup(query)),
    }),
  }),
  route({
    method: 'get',
    path: '/web/search',
    tags,
    query: WebSearchQuery,
    errors: [502, 503, 504],
    summary: 'Search the web',
    description: `Through the SearXNG instance of \`webSearch.searxngUrl\` (its JSON format must be enabled); at most \`numResults\` (default ${NUM_RESULTS.default}) results with http(s) URLs, in the engine's order. Not configured: 503 \`not_configured\`. SearXNG refusing JSON (403) or failing: 502; not answering within ${SEARCH_LIMITS.timeoutMs / 1000} s: 504.`,
    response: WEB_SEARCH_RESPONSE,
    handler: async ({ query, services }) => {
      const text = query.query.trim();
      if (!text) throw Invalid.at(['query', 'query'], 'must not be blank');
      const results = await lookups(services).search.search(
        text,
        query.numResults ?? NUM_RESULTS.default,
      );
      return { ok: true, query: text, results };
    },
  }),
  route({
    method: 'get',
    path: '/web/page',
    tags,
    query: WebPageQuery,
    errors: [502, 504],
    summary: 'Read a web page as text',
    description: `Fetches a public http(s) URL and answers its readable text: HTML through Readability (the reader view's article; the body's text when it finds none), text/plain as it is; other types answer 400 \`unsupported_media_type\` naming the type. A URL, a redirect or a DNS answer that leads to a loopback, private, link-local or metadata address answers 400 (policy \`egress.webPages\`). Limits: ${sizeText(PAGE_LIMITS.maxBytes)} decompressed, ${PAGE_LIMITS.timeoutMs / 1000} s, ${PAGE_LIMITS.maxRedirects} redirects; the text is cut at ${PAGE_LIMITS.textMax.toLocaleString('en-US')} characters (\`truncated: true\`). The charset comes from the Content-Type header, else the page's \`<meta charset>\`, else UTF-8. The page failing (a non-2xx answer, too large): 502; too slow: 504.`,
    response: WEB_PAGE_RESPONSE,
    handler: async ({ query, services }) => ({
      ok: true,
      ...(await lookups(services).page.read(query.url)),
    }),
  }),
]);

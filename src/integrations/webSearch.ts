/**
 * Public web search through the household's SearXNG instance (docs/egress.md), asked for JSON
 * (`/search?q=…&format=json`). SearXNG refuses that format with 403 unless its settings list
 * `json` under `search.formats`; that case gets a message saying so. Not configured
 * (`webSearch.searxngUrl` null) → 503 `not_configured`.
 */
import type { Config } from '../config.js';
import type { Egress } from './egress.js';
import { getJson, upstreamFailed, UpstreamError } from './upstream.js';

export const SEARCH_LIMITS = { timeoutMs: 10_000, maxBytes: 2 * 2 ** 20 } as const;
/** numResults as the lookups API takes it (docs/api.md): 1..10, default 5. */
export const NUM_RESULTS = { min: 1, max: 10, default: 5 } as const;
/** Longest snippet passed on, in characters. */
export const SEARCH_SNIPPET_MAX = 500;

export interface SearchResultItem {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearch {
  search(query: string, numResults: number): Promise<SearchResultItem[]>;
}

export interface WebSearchDeps {
  http: Egress;
  config: Config;
  clock: () => Date;
  /** Tests shorten the timeout; the daemon uses SEARCH_LIMITS. */
  limits?: { timeoutMs?: number; maxBytes?: number };
}

const SERVICE = 'The web search service (SearXNG)';

/**
 * The instance's search endpoint: the configured URL's `/search` (or the URL itself if it names
 * it).
 */
export function searchEndpoint(base: string): URL {
  const url = new URL(base);
  url.search = '';
  url.hash = '';
  if (!/\/search\/?$/.test(url.pathname))
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/search`;
  return url;
}

function clipText(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

export function createWebSearch({ http, config, limits }: WebSearchDeps): WebSearch {
  const { timeoutMs, maxBytes } = { ...SEARCH_LIMITS, ...limits };
  return {
    async search(query, numResults) {
      const base = config.webSearch.searxngUrl;
      if (!base) {
        throw new UpstreamError(
          'not_configured',
          'Web search is not configured: set webSearch.searxngUrl to a SearXNG instance with the json format enabled',
        );
      }
      const url = searchEndpoint(base);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const { status, body } = await getJson({
        http,
        service: SERVICE,
        url,
        policy: config.egress.transports,
        timeoutMs,
        maxBytes,
      });
      if (status === 403) {
        throw upstreamFailed(
          SERVICE,
          'refused format=json (403): enable the json format in its settings.yml (search: formats: [html, json])',
        );
      }
      if (status !== 200) throw upstreamFailed(SERVICE, `answered ${status}`);
      const results = (body as { results?: unknown } | undefined)?.results;
      if (!Array.isArray(results))
        throw upstreamFailed(SERVICE, 'answered in an unexpected shape (no results list)');
      const out: SearchResultItem[] = [];
      for (const r of results as Record<string, unknown>[]) {
        if (!r || typeof r.url !== 'string' || !/^https?:\/\//i.test(r.url)) continue;
        out.push({
          title: clipText(typeof r.title === 'string' && r.title.trim() ? r.title : r.url, 300),
          url: r.url,
          snippet: clipText(typeof r.content === 'string' ? r.content : '', SEARCH_SNIPPET_MAX),
        });
        if (out.length === numResults) break;
      }
      return out;
    },
  };
}

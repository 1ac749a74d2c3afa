/**
 * A fake SearXNG on 127.0.0.1: `/search?q=…&format=json` answers `results` as SearXNG does
 * (url, title, content, engine …). Modes: `html-only` refuses the JSON format with 403, as a
 * SearXNG whose settings do not list `json` does; `fail` answers 500; `hang` never answers.
 */
import { startLocalService, type LocalService } from '../../integrations/localService.js';

export interface FakeSearxng {
  service: LocalService;
  /** The base URL to configure (`webSearch.searxngUrl`). */
  url: string;
  mode: 'ok' | 'html-only' | 'fail' | 'hang';
  /** How many results an answer holds (SearXNG pages are ~20–30). */
  available: number;
  queries(): URLSearchParams[];
  close(): Promise<void>;
}

export function fakeResult(q: string, i: number) {
  return {
    url: `https://example.org/${encodeURIComponent(q)}/${i}`,
    title: `${q} result ${i}`,
    content: `About ${q}, number ${i}.`,
    engine: 'fake',
    score: 1 / (i + 1),
  };
}

export async function startFakeSearxng(opts: { base?: string } = {}): Promise<FakeSearxng> {
  const fake = { mode: 'ok' as FakeSearxng['mode'], available: 25 };
  const base = opts.base ?? '';
  const service = await startLocalService((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (fake.mode === 'hang') return;
    if (url.pathname !== `${base}/search`) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    const format = url.searchParams.get('format');
    if (format === 'json' && fake.mode === 'html-only') {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<h1>403 Forbidden</h1>');
      return;
    }
    if (fake.mode === 'fail') {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('oops');
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    const results = Array.from({ length: fake.available }, (_, i) => fakeResult(q, i));
    // SearXNG also returns entries without a web URL (e.g. from some engines); they are skipped.
    results.splice(1, 0, {
      url: 'magnet:?xt=urn:btih:abc',
      title: 'a torrent',
      content: '',
      engine: 'fake',
      score: 0.9,
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        query: q,
        number_of_results: 0,
        results,
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      }),
    );
  });
  return Object.assign(fake, {
    service,
    url: `${service.origin}${base}`,
    queries: () => service.requests.map((r) => new URL(r.url, 'http://fake').searchParams),
    close: () => service.close(),
  });
}

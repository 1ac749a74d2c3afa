/**
 * A fake web server on 127.0.0.1 for page fetches: `page(path, {status, headers, body})`
 * sets what a path answers (after `delayMs` if set); `redirect(path, to)` answers 302.
 * Everything else is 404.
 */
import { startLocalService, type LocalService } from '../../integrations/localService.js';

export interface FakePage {
  status?: number;
  headers?: Record<string, string>;
  body: string | Buffer;
  /** Answer only after this long. */ delayMs?: number;
}

export interface FakePages {
  service: LocalService;
  origin: string;
  page(path: string, p: FakePage): void;
  redirect(path: string, to: string, status?: number): void;
  close(): Promise<void>;
}

export async function startFakePages(): Promise<FakePages> {
  const routes = new Map<string, FakePage>();
  const service = await startLocalService((req, res) => {
    const p = routes.get(req.url ?? '/');
    if (!p) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const answer = () => {
      res.writeHead(p.status ?? 200, p.headers ?? {});
      res.end(p.body);
    };
    if (p.delayMs) setTimeout(answer, p.delayMs);
    else answer();
  });
  return {
    service,
    origin: service.origin,
    page: (path, p) => {
      routes.set(path, p);
    },
    redirect: (path, to, status = 302) => {
      routes.set(path, { status, headers: { location: to }, body: '' });
    },
    close: () => service.close(),
  };
}

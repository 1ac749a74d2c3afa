/**
 * A calendar feed server on 127.0.0.1 (port 0) standing in for the feeds households subscribe
 * to: serves iCalendar bodies by path, with ETag / Last-Modified and 304 answers like a real
 * server, optional gzip, redirects, statuses, and answers that never come (timeouts). Records
 * every request, so tests can check what the daemon sent (validators, Basic auth).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export interface FeedRoute {
  body?: string | Buffer;
  status?: number;
  contentType?: string;
  /** Send an ETag (the body's hash) and honour If-None-Match with 304. Default true. */
  etag?: boolean;
  /** Send Last-Modified and honour If-Modified-Since. */
  lastModified?: string;
  gzip?: boolean;
  /** Redirect (302 unless `status` says otherwise) to this location. */
  location?: string;
  /** Never answer (the client's timeout ends it). */
  hang?: boolean;
  /** Answer only with these credentials (Basic), else 401. */
  basic?: { username: string; password: string };
}

export interface SeenFeedRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export interface IcsServer {
  origin: string;
  port: number;
  url(path: string): string;
  set(path: string, route: FeedRoute): void;
  requests: SeenFeedRequest[];
  /** Requests for one path. */
  seen(path: string): SeenFeedRequest[];
  close(): Promise<void>;
}

/** A file under test/fixtures/ics. */
export function fixture(name: string): string {
  return readFileSync(new URL(`../../../../test/fixtures/ics/${name}`, import.meta.url), 'utf8');
}

export async function startIcsServer(): Promise<IcsServer> {
  const routes = new Map<string, FeedRoute>();
  const requests: SeenFeedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const r = routes.get(path);
    if (!r) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (r.hang) return;
    if (r.location) {
      res.writeHead(r.status ?? 302, { location: r.location }).end();
      return;
    }
    if (r.basic) {
      const want = `Basic ${Buffer.from(`${r.basic.username}:${r.basic.password}`).toString('base64')}`;
      if (req.headers.authorization !== want) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="cal"' }).end();
        return;
      }
    }
    const body =
      typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : (r.body ?? Buffer.alloc(0));
    const headers: Record<string, string> = {
      'content-type': r.contentType ?? 'text/calendar; charset=utf-8',
    };
    if (r.etag !== false) {
      const tag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      headers.etag = tag;
      if (req.headers['if-none-match'] === tag) {
        res.writeHead(304, headers).end();
        return;
      }
    }
    if (r.lastModified) {
      headers['last-modified'] = r.lastModified;
      if (req.headers['if-modified-since'] === r.lastModified && !req.headers['if-none-match']) {
        res.writeHead(304, headers).end();
        return;
      }
    }
    let out = body;
    if (r.gzip) {
      out = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(out.length);
    res.writeHead(r.status ?? 200, headers).end(out);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    url: (path) => `${origin}${path}`,
    set: (path, route) => {
      routes.set(path, route);
    },
    seen: (path) => requests.filter((q) => q.path.split('?')[0] === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

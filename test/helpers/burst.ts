/**
 * N requests at once, each over its own socket (no keep-alive, no shared agent): what many
 * clients racing for one secret look like to the daemon. A streaming answer (the live stream)
 * is read only up to its headers, then its socket is closed.
 */
import { request } from 'node:http';

export interface BurstReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function oneSocket(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<BurstReply> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: opts.method ?? 'GET',
        headers: opts.headers ?? {},
        agent: false,
      },
      (res) => {
        if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
          res.destroy();
          return;
        }
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The same request `n` times at once, each on a new socket; the answers in order. */
export function burst(
  n: number,
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<BurstReply[]> {
  return Promise.all(Array.from({ length: n }, () => oneSocket(url, opts)));
}

/** The `ho_form` cookie and the CSRF field of a page's form, as a browser would hold them. */
export async function formToken(url: string): Promise<{ cookie: string; csrf: string }> {
  const r = await oneSocket(url);
  const set = ([] as string[]).concat(r.headers['set-cookie'] ?? []);
  const cookie = set.map((c) => c.split(';')[0]).find((c) => c.startsWith('ho_form='));
  const csrf = /name="csrf" value="([^"]+)"/.exec(r.text)?.[1];
  if (!cookie || !csrf) throw new Error(`no form token at ${url} (${r.status})`);
  return { cookie, csrf };
}

/** A page form's POST headers and body (urlencoded), with the form cookie. */
export function formPost(
  token: { cookie: string; csrf: string },
  fields: Record<string, string>,
  cookies: string[] = [],
): { method: string; headers: Record<string, string>; body: string } {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [token.cookie, ...cookies].join('; '),
    },
    body: new URLSearchParams({ csrf: token.csrf, ...fields }).toString(),
  };
}

/** The `ho_session` cookie an answer sets (empty string when it sets none). */
export function sessionSet(r: BurstReply): string {
  const set = ([] as string[]).concat(r.headers['set-cookie'] ?? []);
  const c = set.map((x) => x.split(';')[0]).find((x) => /^ho_session=.+/.test(x));
  return c ? c.slice('ho_session='.length) : '';
}

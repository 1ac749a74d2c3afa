/**
 * Helpers of the OAuth tests: a reverse proxy standing in front of the daemon (optionally
 * under a path prefix it strips, forwarding the host's `/.well-known/` as is, as the README's
 * proxy section says), an MCP SDK OAuth client provider that keeps everything in memory, and
 * the consent page driven as a browser would post its form.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export interface Proxy {
  url: string;
  target: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startProxy(prefix = ''): Promise<Proxy> {
  const proxy: Proxy = { url: '', target: '', requests: [], close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    let path = req.url ?? '/';
    proxy.requests.push(`${req.method} ${path}`);
    if (prefix) {
      if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`))
        path = path.slice(prefix.length) || '/';
      else if (!path.startsWith('/.well-known/')) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not proxied');
        return;
      }
    }
    const up = request(
      `${proxy.target}${path}`,
      {
        method: req.method,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return proxy;
}

/** An OAuth client as an assistant keeps it, in memory. */
export class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authUrl: URL | undefined;
  constructor(
    readonly redirect: string,
    readonly extra: Partial<OAuthClientMetadata> = {},
  ) {}
  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test assistant',
      redirect_uris: [this.redirect],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...this.extra,
    };
  }
  state(): string {
    return 'state-Ünïcode &amp; 42';
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authUrl = url;
  }
  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}

const unescape = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[n]!,
  );

/** The hidden fields of the consent page's form. */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    out[m[1]] = unescape(m[2]);
  return out;
}

/** Opens the consent page and posts its form as a browser would; the answer is not followed. */
export async function consent(
  authUrl: string | URL,
  apiKey: string,
  opts: { scope?: 'read' | 'write'; decision?: 'approve' | 'deny' } = {},
): Promise<Response> {
  const page = await fetch(authUrl);
  const html = await page.text();
  if (page.status !== 200)
    throw new Error(`consent page answered ${page.status}: ${html.slice(0, 300)}`);
  const form = new URLSearchParams({
    ...hiddenFields(html),
    api_key: apiKey,
    grant_scope: opts.scope ?? 'write',
    decision: opts.decision ?? 'approve',
  });
  return fetch(new URL('authorize', authUrl), { method: 'POST', body: form, redirect: 'manual' });
}

/** The query of a redirect answer's Location. */
export function redirectedTo(res: Response): URL {
  const location = res.headers.get('location');
  if (!location) throw new Error(`no redirect: ${res.status}`);
  return new URL(location);
}

export async function postForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

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

export const TEST_CALLBACK = 'http://127.0.0.1:9/callback';
export const TEST_VERIFIER = 'a'.repeat(20) + 'B-._~'.repeat(5) + 'c'.repeat(20);

export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString('base64url');
}

/** Registers a public client with the test callback; answers its client_id. */
export async function registerClient(base: string, name = 'Test assistant'): Promise<string> {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [TEST_CALLBACK],
      token_endpoint_auth_method: 'none',
    }),
  });
  const body = (await res.json()) as { client_id: string };
  if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
  return body.client_id;
}

/** The authorization request's address for a registered client, with `over` replacing fields. */
export async function authorizeUrl(
  base: string,
  clientId: string,
  over: Record<string, string> = {},
): Promise<string> {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: TEST_CALLBACK,
    code_challenge: await challengeOf(TEST_VERIFIER),
    code_challenge_method: 'S256',
    state: 's1',
    scope: 'household:read household:write',
    ...over,
  });
  return `${base}/oauth/authorize?${q.toString()}`;
}

/**
 * A grant approved by `adminKey` for a client (registered here unless given), exchanged for its
 * tokens: what an assistant holds after the consent page.
 */
export async function approvedGrant(
  base: string,
  adminKey: string,
  opts: { scope?: 'read' | 'write'; clientId?: string } = {},
): Promise<{ clientId: string; accessToken: string; refreshToken: string }> {
  const clientId = opts.clientId ?? (await registerClient(base));
  const answer = await consent(await authorizeUrl(base, clientId), adminKey, {
    scope: opts.scope ?? 'write',
  });
  const code = redirectedTo(answer).searchParams.get('code');
  if (!code) throw new Error(`no code: ${redirectedTo(answer).href}`);
  const token = await postForm(`${base}/oauth/token`, {
    grant_type: 'authorization_code',
    client_id: clientId,
    redirect_uri: TEST_CALLBACK,
    code,
    code_verifier: TEST_VERIFIER,
  });
  if (token.status !== 200) throw new Error(`token answered ${token.status}`);
  return {
    clientId,
    accessToken: token.body.access_token as string,
    refreshToken: token.body.refresh_token as string,
  };
}

/**
 * Where the daemon's links point (src/addresses.ts), through the running daemon: without
 * server.publicUrl, the links it hands out — display, calendar share and plan share URLs, the
 * OpenAPI `servers`, the OAuth documents and /mcp's challenge — follow the port it listens on
 * and the Host a request came to; X-Forwarded-Host/-Proto count only from a trusted proxy; a
 * stored change-log record never takes its address from a Host; a set publicUrl wins.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { rawRequest, type RawReply } from '../helpers/rawHttp.js';
import { changesAfter, lastSeq } from '../helpers/changes.js';

interface Ask {
  method?: string;
  host?: string;
  headers?: Record<string, string>;
  body?: unknown;
  key?: string | null;
}

/** A request to `server` as if sent to `host` (default: the address it listens on). */
function asker(server: () => TestServer) {
  return (path: string, o: Ask = {}): Promise<RawReply> => {
    const s = server();
    const headers: Record<string, string> = { ...o.headers };
    if (o.host) headers.host = o.host;
    const key = o.key === undefined ? s.apiKey : o.key;
    if (key) headers['x-api-key'] = key;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    return rawRequest(`${s.url}${path}`, {
      method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
  };
}

const FAMILY = '/api/v1/families/home';

/** Every link the daemon hands out in answers, asked at one address. */
async function linksAt(ask: ReturnType<typeof asker>, o: Ask = {}) {
  const display = await ask(`${FAMILY}/displays`, { ...o, body: { name: 'Kitchen' } });
  expect(display.status, display.text).to.equal(201);
  const share = await ask(`${FAMILY}/calendar/shares`, { ...o, body: { name: 'All' } });
  expect(share.status, share.text).to.equal(201);
  const plan = await ask(`${FAMILY}/plans`, { ...o, body: { title: 'Picnic' } });
  expect(plan.status, plan.text).to.equal(201);
  const shared = await ask(`${FAMILY}/plans/${plan.json.planId}/share`, {
    ...o,
    body: { enabled: true },
  });
  const read = await ask(`${FAMILY}/plans/${plan.json.planId}`, { ...o, key: undefined });
  const openapi = await ask('/api/v1/openapi.json', { ...o, key: null });
  const server = await ask('/.well-known/oauth-authorization-server', { ...o, key: null });
  const resource = await ask('/.well-known/oauth-protected-resource/mcp', { ...o, key: null });
  const mcp = await ask('/mcp', {
    ...o,
    key: null,
    headers: { ...o.headers, accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  return {
    planId: plan.json.planId as string,
    display: display.json.url as string,
    share: share.json.url as string,
    plan: shared.json.shareUrl as string,
    planRead: read.json.shareUrl as string,
    openapi: openapi.json.servers[0].url as string,
    issuer: server.json.issuer as string,
    endpoints: [
      server.json.authorization_endpoint,
      server.json.token_endpoint,
      server.json.registration_endpoint,
      server.json.revocation_endpoint,
    ] as string[],
    resource: resource.json.resource as string,
    authorizationServers: resource.json.authorization_servers as string[],
    challenge: `${mcp.status} ${String(mcp.headers['www-authenticate'])}`,
  };
}

/**
 * What every link should be when the address asked at is `base`. `/mcp` answers only at the
 * daemon's own names (its DNS-rebinding guard): elsewhere 403 before any challenge.
 */
function expectOn(
  links: Awaited<ReturnType<typeof linksAt>>,
  base: string,
  mcp: 'own' | 'foreign' = 'own',
) {
  expect(links.display).to.match(new RegExp(`^${base.replace(/[.[\]]/g, '\\$&')}/display/dsp_`));
  expect(links.share).to.match(
    new RegExp(`^${base.replace(/[.[\]]/g, '\\$&')}/share/calendar/shr_\\w+\\.ics$`),
  );
  expect(links.plan).to.equal(`${base}/p/${links.plan.split('/p/')[1]}`);
  expect(links.planRead).to.equal(links.plan);
  expect(links.openapi).to.equal(base);
  // RFC 8414 §3.3: the issuer is the address the metadata was fetched from.
  expect(links.issuer).to.equal(base);
  expect(links.endpoints).to.deep.equal(
    ['authorize', 'token', 'register', 'revoke'].map((e) => `${base}/oauth/${e}`),
  );
  expect(links.resource).to.equal(`${base}/mcp`);
  expect(links.authorizationServers).to.deep.equal([base]);
  expect(links.challenge).to.equal(
    mcp === 'own'
      ? `401 Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`
      : '403 undefined',
  );
}

describe('links the daemon hands out, without server.publicUrl', function () {
  this.timeout(30_000);
  let server: TestServer;
  const ask = asker(() => server);
  before(async () => {
    server = await startTestServer({
      // A trusted proxy elsewhere: the tests' own loopback peer is not one.
      overrides: { server: { publicUrl: null, trustedProxies: ['10.9.9.9', 'fd00::/8'] } },
    });
  });
  after(() => server?.close());

  it('puts the display, share and plan links, OpenAPI servers and OAuth documents on the port it listens on', async () => {
    const base = `http://127.0.0.1:${server.daemon.port}`;
    expect(server.daemon.port).to.not.equal(8080);
    const links = await linksAt(ask);
    expectOn(links, base);
    // …and they work there.
    expect((await ask(new URL(links.display).pathname, { key: null })).status).to.equal(200);
    expect((await ask(new URL(links.share).pathname, { key: null })).status).to.equal(200);
    expect((await ask(new URL(links.plan).pathname, { key: null })).status).to.equal(200);
  });

  it('builds them on the Host a request came to: another name, another port', async () => {
    const port = server.daemon.port;
    expectOn(await linksAt(ask, { host: `localhost:${port}` }), `http://localhost:${port}`);
    // A name that is not this machine's: links follow it, /mcp refuses it (DNS rebinding).
    expectOn(
      await linksAt(ask, { host: 'household.lan:18080' }),
      'http://household.lan:18080',
      'foreign',
    );
    expectOn(await linksAt(ask, { host: '[fd00::20]:8080' }), 'http://[fd00::20]:8080', 'foreign');
    // The default port is left out, as a browser writes the origin.
    expectOn(await linksAt(ask, { host: 'localhost:80' }), 'http://localhost');
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto from a peer that is not a trusted proxy', async () => {
    const port = server.daemon.port;
    const links = await linksAt(ask, {
      host: `localhost:${port}`,
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expectOn(links, `http://localhost:${port}`);
  });

  it('falls back to the listening address for a Host that is not a host name', async () => {
    const base = `http://127.0.0.1:${server.daemon.port}`;
    for (const host of ['evil.example/path', 'user@evil.example', 'evil.example:port']) {
      const r = await ask(`${FAMILY}/displays`, { host, body: { name: 'Hall' } });
      expect(r.status, host).to.equal(201);
      expect(r.json.url, host).to.match(new RegExp(`^${base.replace(/\./g, '\\.')}/display/`));
    }
  });

  it("records the listening address in the change log, never a request's Host", async () => {
    const base = `http://127.0.0.1:${server.daemon.port}`;
    const after = await lastSeq(server.api);
    const links = await linksAt(ask, { host: 'evil.example' });
    expect(links.plan).to.match(/^http:\/\/evil\.example\/p\//);
    const records = await changesAfter(server.api, after);
    const stored = JSON.stringify(records);
    expect(stored).to.not.include('evil.example');
    const enabled = records.find((r: { type: string }) => r.type === 'plan.share.enabled');
    expect(enabled.object.shareUrl).to.equal(`${base}/p/${links.plan.split('/p/')[1]}`);
  });
});

describe('links behind a trusted proxy (server.trustedProxies)', function () {
  this.timeout(30_000);
  let server: TestServer;
  const ask = asker(() => server);
  before(async () => {
    server = await startTestServer({
      overrides: { server: { publicUrl: null, trustedProxies: ['127.0.0.0/8', '::1'] } },
    });
  });
  after(() => server?.close());

  it("builds links and the OAuth documents on the proxy's X-Forwarded-Host and -Proto", async () => {
    const proxied = {
      host: `127.0.0.1:${server.daemon.port}`,
      headers: {
        'x-forwarded-host': 'household.example.org',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '192.168.1.33',
      },
    };
    expectOn(await linksAt(ask, proxied), 'https://household.example.org');
    // A proxy that sends only the scheme keeps the Host it forwarded.
    expectOn(
      await linksAt(ask, {
        host: 'household.lan:8443',
        headers: { 'x-forwarded-proto': 'https' },
      }),
      'https://household.lan:8443',
    );
  });

  it('ignores forwarded values that are not a host name or a scheme', async () => {
    expectOn(
      await linksAt(ask, {
        host: 'household.lan',
        headers: { 'x-forwarded-host': 'evil.example/x', 'x-forwarded-proto': 'gopher' },
      }),
      'http://household.lan',
    );
  });
});

describe('a set server.publicUrl', function () {
  this.timeout(30_000);
  let server: TestServer;
  const ask = asker(() => server);
  before(async () => {
    server = await startTestServer({
      overrides: {
        server: { publicUrl: 'https://home.example.org/', trustedProxies: ['127.0.0.1'] },
      },
    });
  });
  after(() => server?.close());

  it("wins over the Host and a trusted proxy's headers, in answers and in the change log", async () => {
    const after = await lastSeq(server.api);
    expectOn(
      await linksAt(ask, {
        host: 'household.lan:18080',
        headers: { 'x-forwarded-host': 'proxy.example', 'x-forwarded-proto': 'http' },
      }),
      'https://home.example.org',
    );
    expectOn(
      await linksAt(ask, { host: `127.0.0.1:${server.daemon.port}` }),
      'https://home.example.org',
    );
    const enabled = (await changesAfter(server.api, after)).find(
      (r: { type: string }) => r.type === 'plan.share.enabled',
    );
    expect(enabled.object.shareUrl).to.match(/^https:\/\/home\.example\.org\/p\/pln_/);
  });
});

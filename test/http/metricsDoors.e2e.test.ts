/**
 * /metrics labels every door's requests with a route from a small fixed set — CalDAV by its
 * depth, /mcp, the OAuth endpoints and documents, /.well-known, the display, share and plan
 * pages, the API reference — never a path, a slug or a token; only a path no door serves is
 * `unmatched`. And metrics are switched on, with their token, from the environment
 * (HOUSEHOLD_METRICS, HOUSEHOLD_METRICS_TOKEN) of the real executable.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { spawnDaemon } from '../helpers/child.js';
import { davRouteLabel } from '../../src/caldav/door.js';
import { oauthRouteLabel } from '../../src/oauth/endpoints.js';

/** The label a door gives a path it answers outside the router (CalDAV's or OAuth's). */
const doorRoute = (path: string) => davRouteLabel(path) ?? oauthRouteLabel(path);

/** The `route` labels of household_http_requests_total, with their request counts. */
async function routes(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/metrics`, { headers });
  expect(res.status).to.equal(200);
  const out = new Map<string, number>();
  for (const m of (await res.text()).matchAll(
    /^household_http_requests_total\{([^}]*)\} (\d+)$/gm,
  )) {
    const route = /route="([^"]*)"/.exec(m[1])![1];
    out.set(route, (out.get(route) ?? 0) + Number(m[2]));
  }
  return out;
}

describe('/metrics route labels of every door', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ overrides: { metrics: { enabled: true } } });
  });
  after(() => server?.close());

  it('labels CalDAV, MCP, OAuth, .well-known and the pages by a fixed template, not unmatched', async () => {
    const basic = `Basic ${Buffer.from(`home:${server.apiKey}`).toString('base64')}`;
    const dav = (path: string) =>
      fetch(`${server.url}${path}`, {
        method: 'PROPFIND',
        headers: { authorization: basic, depth: '0' },
        redirect: 'manual',
      });
    for (const p of ['/dav/', '/dav/home/', '/dav/home/calendar/', '/dav/home/calendar/x-1.ics'])
      await dav(p);
    await dav('/dav/home/calendar/a/b/c');
    await fetch(`${server.url}/.well-known/caldav`, { redirect: 'manual' });
    await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await fetch(`${server.url}/oauth/token`, { method: 'POST' });
    await fetch(`${server.url}/oauth/register`, { method: 'POST' });
    await fetch(`${server.url}/oauth/authorize?client_id=nobody`);
    await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    const display = (await server.api.post('/displays', { name: 'Kitchen' })).body;
    await fetch(`${server.url}/display/${display.token}`);
    const share = (await server.api.post('/calendar/shares', { name: 'All' })).body;
    await fetch(`${server.url}/share/calendar/${share.token}.ics`);
    const plan = (await server.api.post('/plans', { title: 'Picnic' })).body;
    const shared = (await server.api.post(`/plans/${plan.planId}/share`, { enabled: true })).body;
    await fetch(`${server.url}${new URL(shared.shareUrl).pathname}`);
    await fetch(`${server.url}/api/docs`);
    await fetch(`${server.url}/no/such/page`);

    const seen = await routes(server.url);
    for (const label of [
      '/dav/',
      '/dav/:familySlug/',
      '/dav/:familySlug/:collection/',
      '/dav/:familySlug/:collection/:object',
      '/.well-known/caldav',
      '/mcp',
      '/oauth/token',
      '/oauth/register',
      '/oauth/authorize',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/display/:displayToken',
      '/share/calendar/:file',
      '/p/:token',
      '/api/docs',
      '/api/v1/families/:familySlug/displays',
    ])
      expect(seen.get(label), label).to.be.greaterThan(0);
    // Depth beyond an object is still the object's label: the set stays fixed.
    expect(seen.get('/dav/:familySlug/:collection/:object')).to.equal(2);
    expect(seen.get('unmatched')).to.equal(1);
    const labels = [...seen.keys()].join(' ');
    for (const secret of [display.token, share.token, 'home/', 'x-1.ics', 'no/such'])
      expect(labels).to.not.include(secret);
  });

  it('keeps the label set fixed whatever path a client invents', () => {
    const labels = new Set<string | null>();
    for (let i = 0; i < 200; i++) {
      labels.add(doorRoute(`/dav/${'s'.repeat(i % 7)}/c${i}/o${i}.ics`));
      labels.add(doorRoute(`/.well-known/oauth-protected-resource/x${i}`));
      labels.add(doorRoute(`/oauth/x${i}`));
    }
    expect([...labels].sort()).to.deep.equal(
      [
        '/.well-known/oauth-protected-resource',
        '/dav/:familySlug/:collection/',
        '/dav/:familySlug/:collection/:object',
        null,
      ].sort(),
    );
  });
});

describe('metrics switched on by the environment', function () {
  this.timeout(60_000);

  it('serves /metrics with HOUSEHOLD_METRICS=1, behind HOUSEHOLD_METRICS_TOKEN', async () => {
    const dir = tempDataDir();
    const token = 'scrape-token-0123456789';
    const d = await spawnDaemon(dir, {
      HOUSEHOLD_METRICS: '1',
      HOUSEHOLD_METRICS_TOKEN: token,
    });
    try {
      expect((await fetch(`${d.url}/metrics`)).status).to.equal(401);
      await fetch(`${d.url}/healthz`);
      const seen = await routes(d.url, { authorization: `Bearer ${token}` });
      expect(seen.get('/healthz')).to.be.greaterThan(0);
    } finally {
      d.proc.kill('SIGTERM');
      await d.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * CORS as a browser enforces it: Debian's Chromium (playwright-core) opens a dashboard page
 * served by a second local HTTP server — another origin — that calls the daemon with an API
 * key. From the listed origin the page reads and writes (preflighted: x-api-key, JSON,
 * Idempotency-Key) and reads the exposed headers; from an unlisted origin the browser blocks
 * the call and the write never reaches the daemon. Skipped, saying so, without /usr/bin/chromium.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';

/** A wall-tablet dashboard: lists the family's people with the key and API given in its address. */
const DASHBOARD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wall tablet</title></head>
<body><h1>Our people</h1><ul id="people"></ul><p id="status">loading</p>
<script>
  const q = new URLSearchParams(location.search);
  fetch(q.get('api') + '/people', { headers: { 'x-api-key': q.get('key') } })
    .then((r) => r.json().then((b) => {
      for (const p of b.people) { const li = document.createElement('li'); li.textContent = p.displayName; document.getElementById('people').append(li); }
      document.getElementById('status').textContent = 'ok ' + r.status;
    }))
    .catch((e) => { document.getElementById('status').textContent = 'failed: ' + e.message; });
</script></body></html>`;

async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url?.startsWith('/dashboard') ? DASHBOARD : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('CORS in a browser: a dashboard page from another origin', () => {
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  let daemon: TestServer;
  before(async () => {
    allowed = await pageServer();
    other = await pageServer();
    daemon = await startTestServer({ overrides: { server: { corsOrigins: [allowed.origin] } } });
    await daemon.api.post('/people', { name: 'Ana' });
  });
  after(async () => {
    await daemon.close();
    for (const s of [allowed.server, other.server])
      await new Promise<void>((resolve) => s.close(() => resolve()));
  });

  it('reads and writes from the listed origin and is blocked from any other', async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(
        `      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`,
      );
      this.skip();
    }
    this.timeout(90_000);
    const browser = await launchChromium();
    const api = `${daemon.url}/api/v1/families/home`;
    const dashboard = (origin: string) =>
      `${origin}/dashboard?api=${encodeURIComponent(api)}&key=${encodeURIComponent(daemon.apiKey)}`;
    try {
      // 1. The listed origin: the page's own script lists the people.
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      await page.goto(dashboard(allowed.origin), { waitUntil: 'load' });
      await page.waitForFunction(
        `document.getElementById('status').textContent !== 'loading'`,
        undefined,
        { timeout: 15_000 },
      );
      expect(await page.locator('#status').innerText()).to.equal('ok 200');
      expect(await page.locator('#people li').allInnerTexts()).to.deep.equal(['Ana']);

      // A write needs a preflight (x-api-key, JSON, Idempotency-Key); the page reads the exposed headers.
      const write = await page.evaluate(
        async ({ api, key }) => {
          const r = await fetch(`${api}/people`, {
            method: 'POST',
            headers: {
              'x-api-key': key,
              'content-type': 'application/json',
              'idempotency-key': 'tablet-1',
              'x-request-id': 'tablet.req-1',
            },
            body: JSON.stringify({ name: 'Ben' }),
          });
          return {
            status: r.status,
            body: (await r.json()) as { person: { displayName: string } },
            requestId: r.headers.get('x-request-id'),
            remaining: r.headers.get('ratelimit-remaining'),
            replayed: r.headers.get('idempotent-replayed'),
          };
        },
        { api, key: daemon.apiKey },
      );
      expect(write.status).to.equal(201);
      expect(write.body.person.displayName).to.equal('Ben');
      expect(write.requestId).to.equal('tablet.req-1');
      expect(write.remaining).to.match(/^\d+$/);
      const replay = await page.evaluate(
        async ({ api, key }) => {
          const r = await fetch(`${api}/people`, {
            method: 'POST',
            headers: {
              'x-api-key': key,
              'content-type': 'application/json',
              'idempotency-key': 'tablet-1',
            },
            body: JSON.stringify({ name: 'Ben' }),
          });
          return r.headers.get('idempotent-replayed');
        },
        { api, key: daemon.apiKey },
      );
      expect(replay).to.equal('true');
      expect(problems).to.deep.equal([]);

      // 2. Another origin: the same page and key, but the browser refuses to let it read or write.
      const blocked = await browser.newPage();
      const errors: string[] = [];
      blocked.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await blocked.goto(dashboard(other.origin), { waitUntil: 'load' });
      await blocked.waitForFunction(
        `document.getElementById('status').textContent !== 'loading'`,
        undefined,
        { timeout: 15_000 },
      );
      expect(await blocked.locator('#status').innerText()).to.equal('failed: Failed to fetch');
      expect(await blocked.locator('#people li').count()).to.equal(0);
      const attempt = await blocked.evaluate(
        async ({ api, key }) => {
          try {
            await fetch(`${api}/people`, {
              method: 'POST',
              headers: { 'x-api-key': key, 'content-type': 'application/json' },
              body: JSON.stringify({ name: 'Intruder' }),
            });
            return 'sent and read';
          } catch (e) {
            return String(e);
          }
        },
        { api, key: daemon.apiKey },
      );
      expect(attempt).to.equal('TypeError: Failed to fetch');
      expect(
        errors.some((e) =>
          e.includes(`from origin '${other.origin}' has been blocked by CORS policy`),
        ),
        errors.join('\n'),
      ).to.equal(true);
    } finally {
      await browser.close();
    }
    // The refused preflight kept the write from ever reaching the daemon.
    const people = (await daemon.api.get('/people')).body.people.map(
      (p: { displayName: string }) => p.displayName,
    );
    expect(people).to.deep.equal(['Ana', 'Ben']);
  });
});

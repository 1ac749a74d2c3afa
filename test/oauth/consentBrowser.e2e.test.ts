/**
 * The consent page in a real browser (Debian's Chromium through playwright-core, as the plan
 * page's test does): on a phone-sized screen, a wrong key keeps the page with the error, the
 * right admin key with "read" chosen sends the browser back to the client's loopback callback
 * with a code (the CSP's form-action lets that redirect through), and the code buys a read-only
 * grant. Nothing is loaded from elsewhere; axe finds no WCAG 2.1 AA violation.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { postForm, startProxy, type Proxy } from '../helpers/oauth.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('GET /oauth/authorize in a browser', () => {
  let proxy: Proxy;
  let server: TestServer;
  let callback: Server;
  let callbackUrl: string;
  const arrived: URL[] = [];
  before(async () => {
    proxy = await startProxy('/household');
    server = await startTestServer({
      overrides: { server: { publicUrl: `${proxy.url}/household` } },
    });
    proxy.target = server.url;
    callback = createServer((req, res) => {
      const u = new URL(req.url ?? '/', callbackUrl);
      // The browser asks the callback's host for a favicon too; only the callback counts.
      if (u.pathname === '/callback') arrived.push(u);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
    });
    await new Promise<void>((ok) => callback.listen(0, '127.0.0.1', ok));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  });
  after(async () => {
    await server.close();
    await proxy.close();
    await new Promise<void>((ok) => {
      callback.closeAllConnections();
      callback.close(() => ok());
    });
  });

  it('refuses a wrong key on the page, approves read-only with the admin key and sends the browser back with the code and state', async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(
        `      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`,
      );
      this.skip();
    }
    this.timeout(60_000);
    const base = `${proxy.url}/household`;
    const reg = (await (
      await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Phone <assistant>',
          redirect_uris: [callbackUrl],
          token_endpoint_auth_method: 'none',
        }),
      })
    ).json()) as { client_id: string };
    const verifier = 'v'.repeat(43);
    const challenge = Buffer.from(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)),
    ).toString('base64url');
    const url = `${base}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: reg.client_id,
      redirect_uri: callbackUrl,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz 1',
      scope: 'household:read household:write',
      resource: `${base}/mcp`,
    }).toString()}`;

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      const elsewhere: string[] = [];
      page.on('request', (req) => {
        const u = req.url();
        if (!u.startsWith('data:') && !u.startsWith(proxy.url) && !u.startsWith(callbackUrl))
          elsewhere.push(u);
      });
      const res = await page.goto(url, { waitUntil: 'load' });
      expect(res?.status()).to.equal(200);
      expect(await page.locator('h1').innerText()).to.equal(
        'Connect “Phone <assistant>” to your household?',
      );
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(
        390,
      );
      await page.evaluate(AXE);
      const violations = await page.evaluate<{ id: string }[]>(
        `(async () => (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })).violations)()`,
      );
      expect(violations.map((v) => v.id)).to.deep.equal([]);

      await page
        .getByLabel('An admin API key of your family')
        .fill('hk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB');
      await Promise.all([
        page.waitForLoadState('load'),
        page.getByRole('button', { name: 'Allow' }).click(),
      ]);
      await page.waitForSelector('#error');
      expect(await page.locator('#error').innerText()).to.contain('That API key is not valid');
      expect(arrived).to.have.length(0);

      await page.getByLabel(/Read the household/).check();
      await page.getByLabel('An admin API key of your family').fill(server.apiKey);
      await Promise.all([
        page.waitForURL((u) => u.href.startsWith(callbackUrl)),
        page.getByRole('button', { name: 'Allow' }).click(),
      ]);
      expect(arrived).to.have.length(1);
      const back = arrived[0];
      expect(back.searchParams.get('state')).to.equal('xyz 1');
      expect(back.searchParams.get('iss')).to.equal(base);
      expect(elsewhere).to.deep.equal([]);

      const tokens = await postForm(`${base}/oauth/token`, {
        grant_type: 'authorization_code',
        client_id: reg.client_id,
        redirect_uri: callbackUrl,
        code: back.searchParams.get('code')!,
        code_verifier: verifier,
        resource: `${base}/mcp`,
      });
      expect(tokens.status).to.equal(200);
      expect(tokens.body.scope).to.equal('household:read');
    } finally {
      await browser.close();
    }
  });
});

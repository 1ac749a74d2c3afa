/**
 * The API reference in a real browser (Debian's Chromium through playwright-core): it renders
 * every operation from the served document, asks nothing of any other origin, breaks none of its
 * Content-Security-Policy, and "Try it out" reaches this daemon. Skipped, saying so, on a
 * machine without /usr/bin/chromium.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';

describe('GET /api/docs in a browser', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());

  it('renders every operation offline, within its CSP, and tries GET /api/v1/families/{familySlug} with a key', async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(
        `      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`,
      );
      this.skip();
    }
    this.timeout(90_000);
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    // Swagger UI shows the webhooks section's deliveries as operations too.
    const operations = [
      ...Object.values<any>(doc.paths),
      ...Object.values<any>(doc.webhooks ?? {}),
    ].reduce((n, item) => n + Object.keys(item).length, 0);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const elsewhere: string[] = [];
      const problems: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(server.url) && !req.url().startsWith('data:'))
          elsewhere.push(req.url());
      });
      page.on('console', (m) => {
        if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text()))
          problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      const res = await page.goto(`${server.url}/api/docs`, { waitUntil: 'load' });
      expect(res?.status()).to.equal(200);
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('.opblock').count()).to.equal(operations);
      expect(await page.locator('.info .title').innerText()).to.contain('Household Organizer API');
      const tags = await page.locator('.opblock-tag').allInnerTexts();
      expect(tags.map((t) => t.split('\n')[0].trim())).to.include.members([
        'System',
        'Family',
        'People',
        'Plans',
      ]);
      // The first server is the address this page came from.
      expect(await page.locator('.servers select').inputValue()).to.equal(server.url);

      // Authorize with a key, then try the family endpoint.
      await page.locator('button.authorize').first().click();
      await page.locator('.auth-container input').fill(server.apiKey);
      await page.locator('.auth-btn-wrapper button.authorize').click();
      await page.locator('button.btn-done').click();
      const op = page.locator('#operations-Family-getFamily');
      await op.locator('.opblock-summary').click();
      await op.locator('button.try-out__btn').click();
      await op
        .locator('input[placeholder="familySlug"], tr[data-param-name="familySlug"] input')
        .first()
        .fill(server.slug);
      await op.locator('button.execute').click();
      const live = op.locator('.live-responses-table tr.response .response-col_status').first();
      await live.waitFor({ timeout: 15_000 });
      expect((await live.innerText()).trim()).to.equal('200');
      expect(
        await op
          .locator('.live-responses-table .microlight, .live-responses-table pre')
          .first()
          .innerText(),
      ).to.contain('"timezone": "Europe/Berlin"');

      expect(elsewhere).to.deep.equal([]);
      expect(problems).to.deep.equal([]);
      mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({ path: join('test-artifacts', 'api-docs.png') });
    } finally {
      await browser.close();
    }
  });
});

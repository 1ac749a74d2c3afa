/**
 * The shared plan page in a real browser: Debian's Chromium driven by playwright-core. On a
 * machine without /usr/bin/chromium this one test is skipped, and says so.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { makeEvent, makePlan, sharePath, voterKey } from './plans.helpers.js';

const CHROMIUM = '/usr/bin/chromium';

describe('GET /p/:token in a browser', () => {
  const clock = new FakeClock('2026-06-01T10:00:00.000Z');
  let server: TestServer;
  before(async () => { server = await startTestServer({ now: clock.now, timezone: 'Europe/London' }); });
  after(() => server.close());

  it('shows the title, events, shared notes and poll counts on a phone-sized screen, and hides the location', async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`);
      this.skip();
    }
    this.timeout(60_000);
    const api = server.api;
    const plan = await makePlan(api, 'Grandma\'s 80th <birthday>', 'Lunch at the hall, then cake in the garden.\nDress warmly!');
    await api.post(`/plans/${plan}/events`, { eventId: await makeEvent(api, { title: 'Lunch at the hall', date: '2026-06-13', time: '12:30', endTime: '15:00', where: '12 Secret Lane' }) });
    await api.post(`/plans/${plan}/events`, { eventId: await makeEvent(api, { title: 'Garden cake', date: '2026-06-14', where: 'Rose Cottage' }), showLocationOnShare: true });
    await api.post(`/plans/${plan}/notes`, { body: 'Please bring a photo from the 1970s.', showOnSharedPage: true });
    await api.post(`/plans/${plan}/notes`, { body: 'Present budget: 300', showOnSharedPage: false });
    const poll = (await api.post(`/plans/${plan}/polls`, { question: 'Which cake?', options: [{ label: 'Victoria sponge' }, { label: 'Lemon drizzle' }, { label: 'Carrot' }] })).body.poll;
    for (const [name, i] of [['Ann', 0], ['Ben', 0], ['Cy', 1]] as const) {
      const v = await voterKey(server, name);
      await api.post(`/plans/${plan}/polls/${poll.pollId}/vote`, { optionId: poll.options[i].optionId }, { key: v.key });
    }
    const url = server.url + sharePath((await api.post(`/plans/${plan}/share`, { enabled: true })).body.shareUrl);

    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      const elsewhere: string[] = [];
      page.on('request', (req) => { if (!req.url().startsWith(server.url)) elsewhere.push(req.url()); });
      const res = await page.goto(url, { waitUntil: 'load' });
      expect(res?.status()).to.equal(200);

      expect(await page.title()).to.equal('Grandma\'s 80th <birthday>');
      expect(await page.locator('h1').innerText()).to.equal('Grandma\'s 80th <birthday>');
      expect(await page.locator('h1').isVisible()).to.equal(true);
      expect(await page.locator('#when').innerText()).to.contain('Jun 13 – 14, 2026');
      const events = page.locator('li.event');
      expect(await events.count()).to.equal(2);
      expect(await events.nth(0).innerText()).to.contain('Lunch at the hall');
      expect(await events.nth(0).innerText()).to.contain('Sat, Jun 13, 2026, 12:30 PM – 3:00 PM');
      expect(await events.nth(1).innerText()).to.contain('Where: Rose Cottage');
      expect(await page.getByText('Please bring a photo from the 1970s.').isVisible()).to.equal(true);
      const text = await page.locator('body').innerText();
      expect(text).to.not.contain('12 Secret Lane');
      expect(text).to.not.contain('Present budget');
      const options = page.locator('.poll .option');
      expect(await options.count()).to.equal(3);
      expect((await options.nth(0).innerText()).replace(/\s+/g, ' ')).to.equal('Victoria sponge 2 votes');
      expect((await options.nth(1).innerText()).replace(/\s+/g, ' ')).to.equal('Lemon drizzle 1 vote');
      expect((await options.nth(2).innerText()).replace(/\s+/g, ' ')).to.equal('Carrot 0 votes');
      // Readable on a phone: nothing wider than the screen, no request anywhere else.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(390);
      expect(elsewhere).to.deep.equal([]);

      mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({ path: join('test-artifacts', 'plan-share-page.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});

/**
 * The shared plan page in a real browser: Debian's Chromium driven by playwright-core, with
 * axe-core checking it against WCAG 2.1 A and AA (and axe's best practices). On a machine
 * without /usr/bin/chromium this test is skipped, and says so.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import IcalExpander from 'ical-expander';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { makeEvent, makePlan, sharePath, voterKey } from '../helpers/plans.js';
import { CHROMIUM, axeViolations, launchChromium } from '../helpers/browser.js';

describe('GET /p/:token in a browser', () => {
  const clock = new FakeClock('2026-06-01T10:00:00.000Z');
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/London' });
    // A London household's formats: the page reads them from the family's locale.
    await server.api.patch('', { locale: 'en-GB' });
  });
  after(() => server?.close());

  it("shows the title, events in the family's zone, shared notes and poll counts on a phone-sized screen, hides the location, and passes axe", async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(
        `      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`,
      );
      this.skip();
    }
    this.timeout(60_000);
    const api = server.api;
    const plan = await makePlan(
      api,
      "Grandma's 80th <birthday>",
      'Lunch at the hall, then cake in the garden.\nDress warmly!',
    );
    await api.post(`/plans/${plan}/events`, {
      eventId: await makeEvent(api, {
        title: 'Lunch at the hall',
        date: '2026-06-13',
        time: '12:30',
        endTime: '15:00',
        where: '12 Secret Lane',
      }),
    });
    await api.post(`/plans/${plan}/events`, {
      eventId: await makeEvent(api, {
        title: 'Garden cake',
        date: '2026-06-14',
        where: 'Rose Cottage',
      }),
      showLocationOnShare: true,
    });
    await api.post(`/plans/${plan}/notes`, {
      body: 'Please bring a photo from the 1970s.',
      showOnSharedPage: true,
    });
    await api.post(`/plans/${plan}/notes`, {
      body: 'Present budget: 300',
      showOnSharedPage: false,
    });
    const poll = (
      await api.post(`/plans/${plan}/polls`, {
        question: 'Which cake?',
        options: [{ label: 'Victoria sponge' }, { label: 'Lemon drizzle' }, { label: 'Carrot' }],
      })
    ).body.poll;
    for (const [name, i] of [
      ['Ann', 0],
      ['Ben', 0],
      ['Cy', 1],
    ] as const) {
      const v = await voterKey(server, name);
      await api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: poll.options[i].optionId },
        { key: v.key },
      );
    }
    const url =
      server.url +
      sharePath((await api.post(`/plans/${plan}/share`, { enabled: true })).body.shareUrl);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      const elsewhere: string[] = [];
      const requested: string[] = [];
      page.on('request', (req) => {
        if (req.url().startsWith('data:')) return;
        requested.push(req.url());
        if (!req.url().startsWith(server.url)) elsewhere.push(req.url());
      });
      const res = await page.goto(url, { waitUntil: 'load' });
      expect(res?.status()).to.equal(200);

      expect(await page.title()).to.equal("Grandma's 80th <birthday>");
      expect(await page.locator('h1').innerText()).to.equal("Grandma's 80th <birthday>");
      expect(await page.locator('h1').isVisible()).to.equal(true);
      expect(await page.locator('#when').innerText()).to.match(/13\s–\s14 Jun 2026/);
      const events = page.locator('li.event');
      expect(await events.count()).to.equal(2);
      expect(await events.nth(0).innerText()).to.contain('Lunch at the hall');
      // en-GB: 24-hour, and the zone is named.
      expect(await events.nth(0).innerText()).to.contain('Sat, 13 Jun 2026, 12:30 – 15:00');
      expect(await page.locator('#zone').innerText()).to.equal('Times in Europe/London');
      expect(await events.nth(1).innerText()).to.contain('Where: Rose Cottage');
      expect(await page.getByText('Please bring a photo from the 1970s.').isVisible()).to.equal(
        true,
      );
      const text = await page.locator('body').innerText();
      expect(text).to.not.contain('12 Secret Lane');
      expect(text).to.not.contain('Present budget');
      const options = page.locator('.poll .option');
      expect(await options.count()).to.equal(3);
      expect((await options.nth(0).innerText()).replace(/\s+/g, ' ')).to.equal(
        'Victoria sponge 2 votes',
      );
      expect((await options.nth(1).innerText()).replace(/\s+/g, ' ')).to.equal(
        'Lemon drizzle 1 vote',
      );
      expect((await options.nth(2).innerText()).replace(/\s+/g, ' ')).to.equal('Carrot 0 votes');
      // Readable on a phone: nothing wider than the screen, no request anywhere else, not
      // even for an icon (it is inline).
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(
        390,
      );
      expect(elsewhere).to.deep.equal([]);
      expect(requested).to.deep.equal([url]);
      expect(await page.locator('link[rel=icon]').getAttribute('href')).to.match(
        /^data:image\/svg\+xml,/,
      );

      // "Add to my calendar": the schedule as the page shows it.
      const add = page.getByRole('link', { name: 'Add to my calendar' });
      expect(await add.isVisible()).to.equal(true);
      const href = new URL((await add.getAttribute('href'))!, url).href;
      expect(href).to.equal(`${url}.ics`);
      const ics = await (await fetch(href)).text();
      const found = new IcalExpander({ ics, maxIterations: 10 }).between(
        new Date('2026-06-01T00:00:00Z'),
        new Date('2026-07-01T00:00:00Z'),
      );
      expect(
        found.events.map((e: any) => [e.summary, e.startDate.toString(), e.location || null]),
      ).to.deep.equal([
        ['Lunch at the hall', '2026-06-13T12:30:00', null],
        ['Garden cake', '2026-06-14', 'Rose Cottage'],
      ]);
      expect(found.events[0].startDate.toJSDate().toISOString()).to.equal(
        '2026-06-13T11:30:00.000Z',
      );

      // WCAG 2.1 AA (contrast included) and axe's best practices, on the page and on its 404.
      expect(await axeViolations(page)).to.deep.equal([]);
      const missing = await page.goto(`${server.url}/p/pln_00000000000000000000000000000000`, {
        waitUntil: 'load',
      });
      expect(missing?.status()).to.equal(404);
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.goto(url, { waitUntil: 'load' });

      mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({
        path: join('test-artifacts', 'plan-share-page.png'),
        fullPage: true,
      });
    } finally {
      await browser.close();
    }
  });
});

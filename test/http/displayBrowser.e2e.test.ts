/**
 * The family display in a real browser: Debian's Chromium driven by playwright-core, on a
 * landscape tablet screen. A write shows up within a second, the page keeps its content and
 * reconnects by itself when its connection drops, a deleted link stops it, it loads nothing
 * from elsewhere, and axe-core finds nothing against WCAG 2.1 A/AA in light and dark. Skipped,
 * visibly, without /usr/bin/chromium.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startWeather, type WeatherFake } from '../helpers/fakes/weather.js';
import { addDays, todayIn } from '../../src/domain/shared/time.js';
import { CHROMIUM, axeViolations, launchChromium } from '../helpers/browser.js';

describe('GET /display/:displayToken in a browser', () => {
  let server: TestServer;
  let weather: WeatherFake;
  before(async () => {
    weather = await startWeather();
    server = await startTestServer({
      timezone: 'Europe/Berlin',
      overrides: {
        weather: { geocodingUrl: weather.geocodingUrl, forecastUrl: weather.forecastUrl },
      },
    });
  });
  after(async () => {
    await server.close();
    await weather.close();
  });

  it('shows the coming days, takes a write within a second, survives a dropped connection, stops when deleted, and passes axe', async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(
        `      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`,
      );
      this.skip();
    }
    this.timeout(60_000);
    const api = server.api;
    const today = todayIn('Europe/Berlin', new Date());
    expect((await server.api.patch('', { location: 'Berlin' })).status).to.equal(200);
    const person = async (name: string, familiarName?: string) =>
      (await api.post('/people', { name, ...(familiarName ? { familiarName } : {}) })).body.person
        .id as string;
    const [ana, leo, ben] = [
      await person('Ana Lima', 'Mum'),
      await person('Leo Lima'),
      await person('Ben Lima', 'Dad'),
    ];
    await api.post('/calendar/events', {
      title: 'School run',
      date: today,
      time: '08:15',
      attendance: { [ben]: 'going', [leo]: 'going' },
    });
    await api.post('/calendar/events', {
      title: 'Swimming',
      date: today,
      time: '17:00',
      endTime: '18:00',
      where: 'City pool',
      attendance: { [ana]: 'going', [leo]: 'going' },
      travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
    });
    await api.post('/calendar/events', {
      title: 'Dentist',
      date: addDays(today, 1),
      time: '09:30',
      attendance: { [leo]: 'going' },
    });
    await api.post('/calendar/events', { title: "Grandma's birthday", date: addDays(today, 2) });
    await api.post('/trackers/chores/entries', {
      title: 'Bins out',
      data: { due: addDays(today, -1), assignee: ben },
    });
    await api.post('/trackers/chores/entries', {
      title: 'Water the plants',
      data: { due: today, assignee: leo },
    });
    const fed = (
      await api.post('/trackers/chores/entries', {
        title: 'Feed the cat',
        data: { due: today, assignee: ana },
      })
    ).body.entry.id;
    await api.patch(`/trackers/chores/entries/${fed}`, { status: 'done' });
    const made = (await api.post('/displays', { name: 'Kitchen' })).body;
    const url = `${server.url}/display/${made.token}`;

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 800 },
        colorScheme: 'light',
      });
      const elsewhere: string[] = [];
      const blocked: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(server.url) && !req.url().startsWith('data:'))
          elsewhere.push(req.url());
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
      });
      const res = await page.goto(url, { waitUntil: 'load' });
      expect(res?.status()).to.equal(200);
      await page.waitForSelector('#status[data-state=live]');
      expect(await page.locator('h1').innerText()).to.equal('Home · Kitchen');
      const days = page.locator('section.day');
      expect(await days.count()).to.equal(3);
      const first = await days.nth(0).innerText();
      expect(first).to.match(/^Today\n/);
      // The family never chose a locale: `en`, which CLDR reads the American way (docs/i18n.md).
      expect(first, first).to.contain('Berlin: light rain · 37–47 °F · 70% rain');
      expect(first)
        .to.match(/5:00\sPM–6:00\sPM/)
        .and.contain('Swimming')
        .and.contain('City pool · Going: Mum, Leo Lima')
        .and.match(/Leave by 4:30\sPM/);
      expect(await days.nth(1).innerText()).to.contain('Dentist');
      expect(await days.nth(2).innerText())
        .to.contain('All day')
        .and.contain("Grandma's birthday");
      const chores = await page.locator('#chores').innerText();
      expect(chores)
        .to.contain('Bins out')
        .and.contain('overdue since')
        .and.contain('Water the plants')
        .and.contain('✓ Feed the cat');
      // Large type: the clock and the body text at a wall's distance.
      const size = async (sel: string) =>
        Number(
          (
            await page
              .locator(sel)
              .first()
              .evaluate(
                (e) =>
                  (
                    globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }
                  ).getComputedStyle(e).fontSize,
              )
          ).replace('px', ''),
        );
      expect(await size('#clock')).to.be.at.least(80);
      expect(await size('.event .title')).to.be.at.least(28);
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await axeViolations(page)).to.deep.equal([]);
      mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({ path: join('test-artifacts', 'display-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: join('test-artifacts', 'display.png') });

      // A write shows up through the stream, not at the page's next refresh (minutes away):
      // well within ten seconds even on a loaded machine.
      await api.post('/calendar/events', { title: 'Piano lesson', date: today, time: '18:30' });
      await page
        .locator('section.day')
        .nth(0)
        .getByText('Piano lesson')
        .waitFor({ timeout: 10_000 });

      // The connection drops: the page keeps what it shows, says so, and comes back by itself.
      server.daemon.server.closeAllConnections();
      await page.waitForSelector('#status[data-state=offline]', { timeout: 2_000 });
      expect(await page.locator('section.day').nth(0).innerText()).to.contain('Piano lesson');
      await page.waitForSelector('#status[data-state=live]', { timeout: 10_000 });
      await api.post('/trackers/chores/entries', { title: 'Buy milk', data: { due: today } });
      await page.locator('#chores').getByText('Buy milk').waitFor({ timeout: 1_000 });

      // A deleted link stops the page.
      await api.delete(`/displays/${made.display.id}`);
      await page.waitForSelector('#status[data-state=gone]', { timeout: 2_000 });
      expect(await page.locator('#status').innerText()).to.equal(
        'This display link was turned off',
      );
      expect((await page.goto(url))?.status()).to.equal(404);
      expect(await axeViolations(page)).to.deep.equal([]);

      expect(elsewhere).to.deep.equal([]);
      expect(blocked).to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });
});

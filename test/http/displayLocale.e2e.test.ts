/**
 * The family display in the household's language, in Chromium (one daemon, one browser for the
 * file; docs/display.md, "Its language"): in German (long compounds, the household's own words
 * German too), Arabic (right to left) and the pseudo-locale, at the four screens of the layout
 * test, nothing overflows, no word is broken and axe finds nothing; the pseudo-locale leaves no
 * English outside its markers but the household's own data; en-US writes 5:00 PM, de-DE 17:00;
 * the page's `lang` and `dir` follow the locale, mirrored for Arabic; a locale changed while
 * the page is open (the display's own, or the family's) is followed live, without a reload.
 * This Chromium has no hyphenation dictionaries, so no word may break at all (the stricter
 * check; where a browser has them, `hyphens:auto` breaks at hyphenation points only).
 * Skipped, visibly, without /usr/bin/chromium.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { todayIn } from '../../src/domain/shared/time.js';
import { CHROMIUM, INSPECT, axeViolations, launchChromium } from '../helpers/browser.js';
import { GERMAN, seedHousehold, wordsOf } from '../helpers/displaySeed.js';

const SCREENS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'portrait', width: 800, height: 1280 },
  { name: 'landscape', width: 1280, height: 800 },
  { name: 'wide', width: 1920, height: 1080 },
] as const;

/** Runs in the page: what a person reads or hears — the text, labels, titles, the page's title. */
const READ = `[
  document.title,
  document.body.innerText,
  ...Array.from(document.querySelectorAll('[aria-label]'), (e) => e.getAttribute('aria-label')),
  ...Array.from(document.querySelectorAll('[title]'), (e) => e.getAttribute('title')),
].join('\\n')`;

/** What is left of `text` without the pseudo-locale's marked messages and the household's data. */
function outsideMarkers(text: string, data: string[]): string {
  let rest = text;
  for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(d).join(' ');
  // Innermost first: a message may carry another (the day's name inside "Next: …").
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/\[[^[\]]*\]/g, ' ');
  }
  return rest;
}

describe('the family display in the household’s language', () => {
  let server: TestServer;
  let browser: Browser | undefined;
  let url = '';
  let displayId = '';
  let data: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM)) return;
    this.timeout(60_000);
    server = await startTestServer({ timezone: 'UTC' });
    const made = await seedHousehold(server.api, todayIn('UTC', new Date()), GERMAN);
    url = `${server.url}/display/${made.token}`;
    displayId = made.displayId;
    // The built-in list's name was made when the family was: its data now, in its language.
    const lists = (await server.api.get('/trackers')).body.trackers as { name: string }[];
    data = [...wordsOf(GERMAN), ...lists.map((c) => c.name)];
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const needsBrowser = (ctx: Mocha.Context) => {
    if (browser) return;
    console.log(`      skipped: ${CHROMIUM} is missing (apt-get install chromium to run it)`);
    ctx.skip();
  };
  const displayLocale = async (locale: string | null) => {
    const r = await server.api.patch(`/displays/${displayId}`, { locale });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.display.locale).to.equal(locale);
  };
  const open = async (width: number, height: number): Promise<Page> => {
    const page = await browser!.newPage({ viewport: { width, height }, hasTouch: true });
    expect((await page.goto(url))?.status()).to.equal(200);
    await page.waitForSelector('#status[data-state=live]');
    return page;
  };

  for (const locale of ['de-DE', 'ar-EG', 'en-XA']) {
    it(`${locale}: fits the four screens (no overflow, no broken word) and passes axe`, async function () {
      needsBrowser(this);
      this.timeout(120_000);
      await displayLocale(locale);
      for (const screen of SCREENS) {
        const page = await open(screen.width, screen.height);
        try {
          const dir = locale === 'ar-EG' ? 'rtl' : 'ltr';
          expect(await page.evaluate('document.documentElement.lang')).to.equal(locale);
          expect(await page.evaluate('document.documentElement.dir')).to.equal(dir);
          // Open an event so its people's buttons are measured too.
          await page.locator('button.open').first().tap();
          await page.waitForSelector('.who');
          const found = await page.evaluate<{ overflowing: string[]; broken: string[] }>(INSPECT);
          expect(found.overflowing, `${screen.name}: overflowing`).to.deep.equal([]);
          expect(found.broken, `${screen.name}: broken words`).to.deep.equal([]);
          expect(await axeViolations(page), screen.name).to.deep.equal([]);
          if (locale === 'en-XA') {
            const left = outsideMarkers(await page.evaluate<string>(READ), data);
            expect(left.match(/[A-Za-z]+/g) ?? [], `${screen.name}: ${left}`).to.deep.equal([]);
          }
        } finally {
          await page.close();
        }
      }
    });
  }

  it('writes times on the locale’s clock: 5:00 PM in en-US, 17:00 in de-DE', async function () {
    needsBrowser(this);
    this.timeout(60_000);
    const times = async (locale: string) => {
      await displayLocale(locale);
      const page = await open(1280, 800);
      try {
        const first = page.locator('section.day').first();
        return {
          time: await first.locator('.event .t').first().innerText(),
          leave: await first.locator('.leave').first().innerText(),
          heading: await first.locator('h2').innerText(),
        };
      } finally {
        await page.close();
      }
    };
    const us = await times('en-US');
    expect(us.time).to.match(/^5:00\sPM–6:00\sPM$/);
    expect(us.leave).to.match(/^Leave by 4:30\sPM$/);
    expect(us.heading).to.equal('Today');
    const de = await times('de-DE');
    expect(de).to.deep.equal({ time: '17:00–18:00', leave: 'Losgehen um 16:30', heading: 'Heute' });
  });

  it('writes "today" inside a line and a weekday heading as the language does: para hoy, Viernes', async function () {
    needsBrowser(this);
    this.timeout(60_000);
    const read = async (locale: string) => {
      await displayLocale(locale);
      const page = await open(1280, 800);
      try {
        return {
          chores: await page.locator('#chores').innerText(),
          third: await page.locator('section.day h2').nth(2).innerText(),
        };
      } finally {
        await page.close();
      }
    };
    const es = await read('es-ES');
    // A chore due today: a message of its own, not "para el {day}" with "hoy" put in.
    expect(es.chores).to.contain('para hoy').and.not.contain('el hoy');
    const fr = await read('fr-FR');
    expect(fr.chores).to.contain('pour aujourd’hui');
    // Intl writes French weekday names in lower case; a heading starts with a capital.
    expect(fr.third.charAt(0)).to.equal(fr.third.charAt(0).toLocaleUpperCase('fr'));
    expect(fr.third).to.match(/^(Lundi|Mardi|Mercredi|Jeudi|Vendredi|Samedi|Dimanche)$/);
    expect((await read('en-US')).chores).to.contain('due today');
  });

  it('mirrors the page for Arabic: the clock on the left, tick boxes on the right', async function () {
    needsBrowser(this);
    this.timeout(60_000);
    await displayLocale('ar-EG');
    const page = await open(1280, 800);
    try {
      const clock = (await page.locator('#clock').boundingBox())!;
      const title = (await page.locator('h1').boundingBox())!;
      expect(clock.x + clock.width, 'the clock left of the title').to.be.at.most(title.x + 1);
      const tick = page.locator('#chores button.tick').first();
      const box = (await tick.locator('.box').boundingBox())!;
      const text = (await tick.locator('.title').boundingBox())!;
      expect(box.x, 'the tick box right of its text').to.be.at.least(text.x + text.width - 1);
      expect(await page.locator('section.day h2').first().innerText()).to.equal('اليوم');
      // Arabic-Indic digits, as CLDR writes ar-EG: 17:00 → ٥:٠٠ م.
      expect(await page.locator('section.day .event .t').first().innerText()).to.match(/[٠-٩]/);
    } finally {
      await page.close();
    }
  });

  it('follows a locale changed while the page is open, without a reload', async function () {
    needsBrowser(this);
    this.timeout(60_000);
    await displayLocale('de-DE');
    const page = await open(1280, 800);
    try {
      await page.evaluate('window.sameDocument = true');
      await displayLocale('ar-EG');
      await until('the page in Arabic', () =>
        page.evaluate<boolean>(
          `document.documentElement.lang === 'ar-EG' && document.documentElement.dir === 'rtl' &&
           document.querySelector('section.day h2').textContent === 'اليوم'`,
        ),
      );
      expect(await page.locator('#chores h2').innerText()).to.equal('الأعمال المنزلية');
      expect(await page.locator('#undo-button').textContent()).to.equal('تراجع');
      // Back to the family's (`en` here): the display's own locale removed.
      await displayLocale(null);
      await until('the page in the family’s English', () =>
        page.evaluate<boolean>(
          `document.documentElement.lang === 'en' &&
           document.querySelector('section.day h2').textContent === 'Today'`,
        ),
      );
      expect(await page.evaluate('document.documentElement.dir')).to.equal('ltr');
      // The family's own locale changed (PATCH /families/{slug}): the display follows it.
      expect((await server.api.patch('', { locale: 'fr-FR' })).status).to.equal(200);
      await until('the page in the family’s French', () =>
        page.evaluate<boolean>(
          `document.documentElement.lang === 'fr-FR' &&
           document.querySelector('section.day h2').textContent === 'Aujourd’hui' &&
           document.title === 'Home · Kitchen'`,
        ),
      );
      expect(await page.locator('.event .t').first().innerText()).to.equal('17:00–18:00');
      expect(await page.evaluate('window.sameDocument'), 'not reloaded').to.equal(true);
      expect((await server.api.patch('', { locale: 'en' })).status).to.equal(200);
    } finally {
      await page.close();
    }
  });

  it('refuses a locale that is not one, naming the field', async function () {
    needsBrowser(this);
    for (const bad of ['not a locale', 'zz-ZZ', 'en-u-hc-h12', 7]) {
      const r = await server.api.patch(`/displays/${displayId}`, { locale: bad });
      expect(r.status, String(bad)).to.equal(400);
      expect(JSON.stringify(r.body), String(bad)).to.include('locale');
    }
    const r = await server.api.patch(`/displays/${displayId}`, { locale: 'pt-br' });
    expect(r.body.display.locale).to.equal('pt-BR');
  });

  it('says a link is not there in the language the browser asks for', async function () {
    needsBrowser(this);
    const r = await server.http.get('/display/dsp_nothingHereAtAll0000000000000000', {
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
    });
    expect(r.status).to.equal(404);
    expect(r.text).to.include('<html lang="de-DE" dir="ltr">').and.include('Hier ist nichts');
    const ar = await server.http.get('/display/dsp_nothingHereAtAll0000000000000000', {
      headers: { 'accept-language': 'ar' },
    });
    expect(ar.text).to.include('<html lang="ar" dir="rtl">').and.include('لا شيء هنا');
  });
});

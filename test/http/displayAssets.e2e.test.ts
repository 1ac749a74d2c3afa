/**
 * The family display's script is the compiled module, served as built: the page names one
 * `<script type="module">` under a versioned address, every module of its graph is served
 * byte for byte as `npm run build` wrote it to dist/browser/, with a JavaScript content type
 * and a year of immutable caching; the CSP allows scripts from the daemon only, no inline one.
 * In Chromium the page draws itself from those modules, and every word it shows comes from the
 * catalog the page carries: with a bracketed pseudo-catalog swapped into the page, no English
 * word of the catalog is left outside brackets. Skipped, visibly, without /usr/bin/chromium.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addDays, todayIn } from '../../src/domain/shared/time.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';
import { CATALOGS } from '../../src/domain/i18n/catalogs/index.js';

const DISPLAY_MESSAGES_EN = CATALOGS.en.display;

const BROWSER_OUT = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '../../..'),
  'dist/browser',
);

/** The relative imports of a compiled module. */
const importsOf = (code: string) => [...code.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);

describe("the family display's script, served as compiled", () => {
  let server: TestServer;
  let token = '';
  before(async () => {
    server = await startTestServer({ timezone: 'UTC' });
    const api = server.api;
    const today = todayIn('UTC', new Date());
    const mum = (await api.post('/people', { name: 'Ana Lima', familiarName: 'Mum' })).body.person
      .id;
    await api.post('/calendar/events', {
      title: 'Swimming',
      date: today,
      time: '23:30',
      travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
      attendance: { [mum]: 'going' },
    });
    await api.post('/calendar/events', { title: 'Dentist', date: addDays(today, 1) });
    await api.post('/trackers/chores/entries', {
      title: 'Bins out',
      data: { due: addDays(today, -1), assignee: mum },
    });
    const made = await api.post('/displays', { name: 'Kitchen', interactive: true });
    expect(made.status, made.text).to.equal(201);
    token = made.body.token;
  });
  after(() => server?.close());

  it('names one module script under a versioned address and serves every module as built', async () => {
    const page = await server.http.get(`/display/${token}`);
    expect(page.status).to.equal(200);
    const scripts = [...page.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1].trim());
    const module = scripts.filter((s) => s.startsWith('type="module"'));
    expect(module).to.have.length(1);
    // Every other script element is data: JSON the browser never runs.
    expect(scripts.filter((s) => !s.startsWith('type="module"'))).to.deep.equal([
      'type="application/json" id="initial"',
      'type="application/json" id="display-text"',
    ]);
    const src = /src="([^"]+)"/.exec(module[0])![1];
    expect(src).to.match(/^\/display\/assets\/[A-Za-z0-9_-]{16}\/display\/main\.js$/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).to.match(/script-src 'self';/);
    expect(csp).to.not.match(/unsafe-inline|script-src[^;]*sha256/);

    // The whole graph, from the entry through its relative imports.
    const base = src.slice(0, src.length - 'display/main.js'.length);
    const todo = ['display/main.js'];
    const served = new Set<string>();
    while (todo.length) {
      const path = todo.shift()!;
      if (served.has(path)) continue;
      served.add(path);
      const r = await server.http.get(base + path);
      expect(r.status, path).to.equal(200);
      expect(r.headers.get('content-type'), path).to.equal('text/javascript; charset=utf-8');
      expect(r.headers.get('cache-control'), path).to.equal('public, max-age=31536000, immutable');
      expect(r.headers.get('x-content-type-options'), path).to.equal('nosniff');
      expect(r.text, path).to.equal(readFileSync(join(BROWSER_OUT, path), 'utf8'));
      for (const spec of importsOf(r.text)) todo.push(posix.join(posix.dirname(path), spec));
    }
    expect([...served]).to.include.members([
      'display/main.js',
      'display/state.js',
      'locale/displayFormat.js',
      'locale/displayMessages.js',
    ]);

    // Another build's address, a file that is not a module of it, a way out: 404.
    const other = src.replace(/assets\/[^/]+\//, 'assets/AAAAAAAAAAAAAAAA/');
    for (const path of [
      other,
      `${base}display/nope.js`,
      `${base}display/tsconfig.json`,
      `${base}src/server.js`,
      `${base}display/..%2F..%2Fsrc%2Fserver.js`,
    ]) {
      const r = await server.http.get(path);
      expect(r.status, path).to.equal(404);
      expect(r.headers.get('cache-control') ?? '', path).to.not.include('immutable');
    }
  });

  it('draws the page in Chromium from those modules, every word from the catalog it carries', async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(
        `      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`,
      );
      this.skip();
    }
    this.timeout(60_000);
    const pseudo = Object.fromEntries(
      Object.entries(DISPLAY_MESSAGES_EN).map(([k, v]) => [k, `[${v}]`]),
    );
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const scripts: string[] = [];
      const errors: string[] = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') scripts.push(`${r.status()} ${r.url()}`);
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      // The page as the daemon wrote it, its catalog swapped for the pseudo one.
      await page.route(`${server.url}/display/${token}`, async (route) => {
        const r = await route.fetch();
        const body = (await r.text()).replace(
          /(<script type="application\/json" id="display-text">)([^<]*)(<\/script>)/,
          (_, open: string, json: string, close: string) =>
            open +
            JSON.stringify({ ...JSON.parse(json), messages: pseudo }).replace(/</g, '\\u003c') +
            close,
        );
        await route.fulfill({ response: r, body });
      });
      await page.goto(`${server.url}/display/${token}`, { waitUntil: 'load' });
      await page.waitForSelector('#status[data-state=live]');
      await page.waitForSelector('section.day .event');
      expect(errors).to.deep.equal([]);
      expect(
        scripts.some((s) => /^200 .*\/display\/assets\/[^/]+\/display\/main\.js$/.test(s)),
      ).to.equal(true, scripts.join('\n'));
      expect(scripts.every((s) => s.includes('/display/assets/'))).to.equal(true);

      const days = page.locator('section.day');
      expect(await days.count()).to.equal(3);
      expect(await days.nth(0).locator('h2').innerText()).to.equal('[Today]');
      expect(await days.nth(1).locator('h2').innerText()).to.equal('[Tomorrow]');
      expect(await page.locator('#chores h2').innerText()).to.equal('[Chores]');
      const first = await days.nth(0).innerText();
      expect(first)
        .to.match(/\[Leave by 11:00\sPM\]/)
        .and.contain('[Going: Mum]');

      // What a person reads and hears: the text, and the labels of the groups.
      const shown = await page.evaluate<string>(`[
        document.body.innerText,
        ...Array.from(document.querySelectorAll('[aria-label]'), (e) => e.getAttribute('aria-label')),
      ].join('\\n')`);
      const outside = shown.replace(/\[[^\]]*\]/g, ' ');
      const words = new Set(
        Object.values(DISPLAY_MESSAGES_EN)
          .flatMap((m) => m.replace(/\{\w+\}/g, ' ').match(/[A-Za-z]{4,}/g) ?? [])
          .map((w) => w.toLowerCase()),
      );
      const english = (outside.match(/[A-Za-z]{4,}/g) ?? []).filter((w) =>
        words.has(w.toLowerCase()),
      );
      expect(english, outside).to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });
});

/**
 * The household pages, the plan page and the consent page in the household's language, through the real daemon in Chromium: the first-run setup offers the browser's language
 * and keeps it; in the pseudo-locale `en-XA` no page shows a word that did not come through the
 * catalog; German and Arabic set `lang` and `dir` (Arabic reads right to left) and the family's
 * times are on its zone and its locale's clock where the pages said UTC; a language changed on
 * the family page is the next page's.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';
import { untranslated } from '../helpers/pseudoText.js';
import { makeEvent, makePlan, sharePath } from '../helpers/plans.js';
import { authorizeUrl, registerClient } from '../helpers/oauth.js';

const PHONE = { width: 390, height: 844 };
const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//test//languages//EN',
  'BEGIN:VEVENT',
  'UID:fest-1@school.test',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;VALUE=DATE:20261210',
  'SUMMARY:Winterfest',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

/** What the test typed: names and titles are the household's, never the daemon's words. */
const DATA = [
  'Die Müllers',
  'Anaïs',
  'Quentin',
  'anais@example.com',
  'Europe/Berlin',
  'Flurtafel',
  'Schulkalender',
  'Zentrale',
  'Quentins Telefon',
  'Sommerfest',
  'Grillabend',
  'Welcher Kuchen?',
  'Zitronenkuchen',
  'Käsekuchen',
  'Test assistant',
  // Names of keys the daemon gave when it made them (stored with the key, as data).
  'admin (first start)',
  'admin (first-run setup)',
  'test admin',
];

describe('the pages in the household’s language', function () {
  this.timeout(60_000);
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let local: Server | undefined;
  let localUrl = '';
  let code = '';
  let admin: { context: BrowserContext; page: Page } | undefined;

  before(async function () {
    server = await startTestServer({
      overrides: {
        server: { publicUrl: null },
        families: { bootstrapSlug: 'home', firstRunSetup: true },
      },
      hooks: { onSetupCode: (_f, c) => (code = c), onBootstrap: () => undefined },
    });
    local = createServer((req, res) => {
      if (req.url === '/school.ics') {
        res.writeHead(200, { 'content-type': 'text/calendar' });
        res.end(ICS);
        return;
      }
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((ok) => local!.listen(0, '127.0.0.1', ok));
    localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    if (existsSync(CHROMIUM)) browser = await launchChromium();
  });
  after(async () => {
    await admin?.context.close();
    await browser?.close();
    await server?.close();
    local?.closeAllConnections();
    await new Promise<void>((ok) => (local ? local.close(() => ok()) : ok()));
  });

  function needsBrowser(ctx: Mocha.Context): Browser {
    if (!browser) {
      console.log(`      skipped: ${CHROMIUM} is missing`);
      ctx.skip();
    }
    return browser;
  }
  const html = (p: Page) =>
    p.evaluate<string[]>('[document.documentElement.lang, document.documentElement.dir]');

  it('sets up in the browser’s language, with the current zone names, and keeps the choice', async function () {
    const b = needsBrowser(this);
    const context = await b.newContext({
      viewport: PHONE,
      extraHTTPHeaders: { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' },
    });
    const page = await context.newPage();
    await page.goto(`${server!.url}/`);
    expect(await html(page)).to.deep.equal(['de-AT', 'ltr']);
    expect(await page.textContent('h1')).to.equal('Haushalt einrichten');
    // Preselected from Accept-Language, like the zone from the browser.
    expect(await page.inputValue('#locale')).to.equal('de-AT');
    const zones = await page.$$eval('#timezone option', (os) => os.map((o) => o.textContent));
    expect(zones).to.include.members(['Asia/Kolkata', 'Europe/Kyiv', 'Asia/Ho_Chi_Minh']);
    expect(zones).to.not.include.members(['Asia/Calcutta']);
    expect(zones).to.not.include('Europe/Kiev');
    expect(zones).to.not.include('Asia/Saigon');
    await page.fill('#code', code);
    await page.fill('#name', 'Die Müllers');
    await page.selectOption('#timezone', 'Europe/Berlin');
    await page.fill('#people', 'Anaïs\nQuentin');
    await page.click('button[type=submit]');
    await page.waitForURL(`${server!.url}/`);
    expect(await html(page)).to.deep.equal(['de-AT', 'ltr']);
    expect(await page.textContent('main')).to.include('2 Personen');
    const { family } = (await server!.api.get('')).body;
    expect([family.locale, family.timezone]).to.deep.equal(['de-AT', 'Europe/Berlin']);
    admin = { context, page };
  });

  it('shows no word outside the catalog on any page, the plan page or the consent page in the pseudo-locale', async function () {
    const b = needsBrowser(this);
    if (!admin) this.skip();
    const api = server!.api;
    expect((await api.patch('', { locale: 'en-XA' })).status).to.equal(200);
    const [anais] = (await api.get('/people')).body.people as { id: string }[];
    await api.patch(`/people/${anais.id}`, { email: 'anais@example.com' });
    await api.post('/calendar/external', { url: `${localUrl}/school.ics`, name: 'Schulkalender' });
    const hook = (
      await api.post('/webhook-destinations', {
        name: 'Zentrale',
        url: `${localUrl}/hook`,
        eventTypes: ['person.created'],
      })
    ).body.destination as { id: string };
    const page = admin.page;
    const seen: Record<string, string[]> = {};
    const look = async (name: string, path?: string) => {
      if (path) await page.goto(`${server!.url}${path}`);
      seen[name] = await untranslated(page, [...DATA, `${localUrl}/hook`]);
      expect((await html(page))[0], name).to.equal('en-XA');
    };
    for (const [name, path] of [
      ['home', '/'],
      ['people', '/people'],
      ['person', `/people/${anais.id}`],
      ['confirm removal', `/people/${anais.id}/remove`],
      ['removed', '/people?removed=Quentin&kind=child'],
      ['added', '/people?added=Quentin'],
      ['family', '/family?saved=1'],
      ['devices', '/devices'],
      ['displays', '/displays'],
      ['assistants', '/assistants'],
      ['calendars', '/calendars?added=Schulkalender'],
      ['notifications', '/notifications'],
      ['backups', '/backups'],
      ['not found', '/people/nobody-here'],
    ] as const)
      await look(name, path);
    await page.goto(`${server!.url}/webhooks`);
    await page.click(`form[action="/webhooks/${hook.id}/test"] button`);
    await page.waitForSelector('#test-outcome');
    await look('webhooks');
    await page.goto(`${server!.url}/displays`);
    await page.fill('#name', 'Flurtafel');
    await page.click('form[action="/displays"] button[type=submit]');
    await page.waitForSelector('#display-link');
    await look('display added');
    await page.goto(`${server!.url}/devices`);
    await page.fill('#name', 'Quentins Telefon');
    await page.click('form[action="/devices"] button[type=submit]');
    const link = (await page.getAttribute('#pairing-link', 'href'))!;
    await look('device added');
    await page.click('header summary');
    await look('menu open');

    // Pages before anyone is known speak the browser's language: here the pseudo-locale.
    const guest = await b.newContext({
      viewport: PHONE,
      extraHTTPHeaders: { 'accept-language': 'en-XA' },
    });
    const other = await guest.newPage();
    const lookAt = async (name: string, path: string) => {
      await other.goto(path.startsWith('http') ? path : `${server!.url}${path}`);
      seen[name] = await untranslated(other, DATA);
    };
    await lookAt('pairing', link);
    await other.click('button[type=submit]');
    await other.waitForSelector('#apple');
    seen['pairing values'] = await untranslated(other, DATA);
    await lookAt('sign-in', '/signin');
    await lookAt('sign-in link', '/signin?link=hk_none');
    await lookAt('consent', await authorizeUrl(server!.url, await registerClient(server!.url)));
    await lookAt('plan', await sharedPlan(server!));
    await lookAt('plan not found', '/p/nothing-shared-here');
    await guest.close();
    expect(seen).to.deep.equal(Object.fromEntries(Object.keys(seen).map((k) => [k, []])));
  });

  it('reads German left to right and Arabic right to left, with the family’s clock where UTC was', async function () {
    if (!admin) this.skip();
    const api = server!.api;
    const page = admin.page;
    await api.patch('', { locale: 'de-DE' });
    const before = Date.now();
    await page.goto(`${server!.url}/devices`);
    await page.fill('#name', 'Quentins Telefon');
    await page.click('form[action="/devices"] button[type=submit]');
    const until = (await page.textContent('#pairing-until'))!;
    const after = Date.now();
    expect(await html(page)).to.deep.equal(['de-DE', 'ltr']);
    // Ten minutes from now on Berlin's clock, as a German reads it (no "UTC").
    const berlin = new Intl.DateTimeFormat('de-DE', {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Berlin',
    });
    const expected = [before, after].map((t) => `bis ${berlin.format(t + 600_000)}`);
    expect(
      expected.some((x) => until.includes(x)),
      `${until} / ${expected.join(' or ')}`,
    ).to.equal(true);
    expect(until).to.not.include('UTC');
    const [display] = (await api.get('/displays')).body.displays as { createdAt: string }[];
    await page.goto(`${server!.url}/displays`);
    const since = new Intl.DateTimeFormat('de-DE', {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Berlin',
    }).format(new Date(display.createdAt));
    expect(await page.textContent('main')).to.include(`seit ${since}`);

    await api.patch('', { locale: 'ar-EG' });
    await page.goto(`${server!.url}/people`);
    expect(await html(page)).to.deep.equal(['ar-EG', 'rtl']);
    const headers = await page.request.get(`${server!.url}/people`);
    expect(headers.headers()['content-language']).to.equal('ar-EG');
    expect(await page.textContent('h1')).to.equal('الأشخاص');
    // Right to left: the heading starts at the right edge of the page's column.
    const [left, right, width] = await page.evaluate<number[]>(`(() => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector('h1'));
      const r = range.getBoundingClientRect();
      return [r.left, r.right, document.querySelector('main').clientWidth];
    })()`);
    expect(right).to.be.greaterThan(width - 40);
    expect(left).to.be.greaterThan(width / 2);
  });

  it('changes the family’s language on the family page, and the next page speaks it', async function () {
    if (!admin) this.skip();
    const page = admin.page;
    await page.goto(`${server!.url}/family`);
    await page.selectOption('#locale', 'en-US');
    await page.click('form[action="/family"] button[type=submit]');
    await page.waitForURL(`${server!.url}/family?saved=1`);
    expect(await html(page)).to.deep.equal(['en-US', 'ltr']);
    expect(await page.textContent('#saved')).to.equal('Saved.');
    expect((await server!.api.get('')).body.family.locale).to.equal('en-US');

    // A person's own language (what is sent to them), and back to the family's.
    const [anais] = (await server!.api.get('/people')).body.people as { id: string }[];
    const personLocale = async (tag: string) => {
      await page.goto(`${server!.url}/people/${anais.id}`);
      await page.selectOption('#locale', tag);
      await page.click(`form[action="/people/${anais.id}"] button[type=submit]`);
      await page.waitForURL(`${server!.url}/people`);
      const people = (await server!.api.get('/people')).body.people as { locale: string | null }[];
      return people[0].locale;
    };
    expect(await personLocale('fr-FR')).to.equal('fr-FR');
    expect(await personLocale('')).to.equal(null);
  });
});

/** A shared plan with an event and a poll; answers its page's address. */
async function sharedPlan(server: TestServer): Promise<string> {
  const api = server.api;
  const plan = await makePlan(api, 'Sommerfest');
  const eventId = await makeEvent(api, {
    title: 'Grillabend',
    date: '2027-06-12',
    time: '18:00',
    endTime: '22:00',
  });
  await api.post(`/plans/${plan}/events`, { eventId, showDetailsOnShare: true });
  const poll = (
    await api.post(`/plans/${plan}/polls`, {
      question: 'Welcher Kuchen?',
      options: [{ label: 'Zitronenkuchen' }, { label: 'Käsekuchen' }],
    })
  ).body.poll as { pollId: string; options: { optionId: string }[] };
  await api.post(`/plans/${plan}/polls/${poll.pollId}/vote`, {
    optionId: poll.options[0].optionId,
  });
  return sharePath((await api.post(`/plans/${plan}/share`, { enabled: true })).body.shareUrl);
}

/**
 * What a household found on the pages (the household's-language work), each through the real daemon: a failed
 * webhook test is an error, not a success; a test is a POST that redirects (a reload sends
 * nothing); a feed or webhook address the egress policy refuses stays on the form with what was
 * typed and names the setting that allows it, and REST refuses such a webhook when it is added
 * (400 at `url`), as it does a feed; removing a person asks first, says what happened and adds
 * them back; the notification switches say what each sends; on a phone the heading comes before
 * the menu.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';

const PHONE = { width: 390, height: 844 };

async function signedIn(b: Browser, server: TestServer): Promise<{ c: BrowserContext; p: Page }> {
  const c = await b.newContext({ viewport: PHONE });
  const p = await c.newPage();
  await p.goto(`${server.url}/signin`);
  await p.fill('#key', server.apiKey);
  await p.click('button[type=submit]');
  await p.waitForURL(`${server.url}/`);
  return { c, p };
}

describe('the pages as a household found them', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  before(async () => {
    if (existsSync(CHROMIUM)) browser = await launchChromium();
  });
  after(() => browser?.close());
  function needsBrowser(ctx: Mocha.Context): Browser {
    if (!browser) {
      console.log(`      skipped: ${CHROMIUM} is missing`);
      ctx.skip();
    }
    return browser;
  }

  describe('with a receiver on this machine', () => {
    let server: TestServer | undefined;
    let receiver: Server | undefined;
    let receiverUrl = '';
    let hits = 0;
    before(async () => {
      server = await startTestServer({ overrides: { server: { publicUrl: null } } });
      receiver = createServer((req, res) => {
        hits++;
        req.resume();
        req.on('end', () => res.writeHead(500).end('no'));
      });
      await new Promise<void>((ok) => receiver!.listen(0, '127.0.0.1', ok));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    after(async () => {
      await server?.close();
      receiver?.closeAllConnections();
      await new Promise<void>((ok) => (receiver ? receiver.close(() => ok()) : ok()));
    });

    it('shows a failed test as an error, after a redirect that a reload does not repeat', async function () {
      const { c, p } = await signedIn(needsBrowser(this), server!);
      const made = await server!.api.post('/webhook-destinations', {
        name: 'Broken receiver',
        url: receiverUrl,
        eventTypes: ['person.created'],
      });
      const id = made.body.destination.id as string;
      await p.goto(`${server!.url}/webhooks`);
      await p.click(`form[action="/webhooks/${id}/test"] button`);
      await p.waitForURL((u) => u.pathname === '/webhooks' && u.searchParams.get('tested') === id);
      const outcome = p.locator('#test-outcome');
      expect(await outcome.getAttribute('class')).to.equal('error');
      expect(await outcome.getAttribute('role')).to.equal('alert');
      expect(await outcome.textContent()).to.include('The test did not reach Broken receiver');
      expect(await p.locator('.done').count()).to.equal(0);
      expect(hits).to.equal(1);
      await p.reload();
      expect(await p.locator('#test-outcome').count()).to.equal(1);
      expect(hits).to.equal(1);
      await c.close();
    });

    it('asks before removing a person, says so and adds them back', async function () {
      const { c, p } = await signedIn(needsBrowser(this), server!);
      await server!.api.post('/people', { name: 'Oskar', kind: 'child' });
      const names = async () =>
        ((await server!.api.get('/people')).body.people as { name: string }[]).map((x) => x.name);
      await p.goto(`${server!.url}/people`);
      await p.click('text=Remove Oskar');
      // A page that asks: nothing is removed yet.
      expect(await p.textContent('h1')).to.equal('Remove Oskar?');
      expect(await names()).to.include('Oskar');
      await p.click('#confirm-remove');
      await p.waitForSelector('#removed');
      expect(await p.textContent('#removed')).to.include('Removed Oskar.');
      expect(await names()).to.not.include('Oskar');
      await p.click('#undo');
      await p.waitForSelector('#added');
      const back = (await server!.api.get('/people')).body.people as {
        name: string;
        kind: string;
      }[];
      expect(back.find((x) => x.name === 'Oskar')?.kind).to.equal('child');
      await c.close();
    });

    it('names what each notification switch sends, and folds the menu on a phone', async function () {
      const { c, p } = await signedIn(needsBrowser(this), server!);
      await p.goto(`${server!.url}/notifications`);
      const text = (await p.textContent('main'))!;
      expect(text).to.include('Nobody to cover');
      expect(text).to.include('when an event needs someone and nobody is going');
      expect(text).to.not.match(/coverage alert|follow up nudge|intake update/);
      // The heading is the first thing on a phone: the menu and Sign out are folded above it.
      const top = await p.locator('h1').boundingBox();
      expect(top!.y).to.be.lessThan(120);
      expect(await p.locator('nav').isVisible()).to.equal(false);
      expect(await p.locator('header button').isVisible()).to.equal(false);
      await p.click('header summary');
      expect(await p.locator('nav').isVisible()).to.equal(true);
      await c.close();
    });
  });

  describe('with a policy that refuses this machine', () => {
    let server: TestServer | undefined;
    before(async () => {
      server = await startTestServer({
        overrides: {
          server: { publicUrl: null },
          egress: { calendarFeeds: 'public', webhooks: 'lan' },
        },
      });
    });
    after(() => server?.close());

    it('refuses a webhook to this machine when it is added, 400 at url, and adds nothing', async () => {
      for (const url of [
        'http://127.0.0.1:9/hook',
        'http://localhost:9/hook',
        'http://[::1]:9/x',
      ]) {
        const r = await server!.api.post('/webhook-destinations', {
          name: 'Here',
          url,
          eventTypes: ['person.created'],
        });
        expect(r.status, url).to.equal(400);
        expect(JSON.stringify(r.body), url).to.match(/url/);
        expect(JSON.stringify(r.body), url).to.include('egress.webhooks');
      }
      const made = await server!.api.post('/webhook-destinations', {
        name: 'Here',
        url: 'https://hooks.example.com/x',
        eventTypes: ['person.created'],
      });
      expect(made.status).to.equal(201);
      const changed = await server!.api.patch(`/webhook-destinations/${made.body.destination.id}`, {
        url: 'http://127.0.0.1:9/hook',
      });
      expect(changed.status).to.equal(400);
      const list = (await server!.api.get('/webhook-destinations')).body.destinations as {
        url: string;
      }[];
      expect(list.map((d) => d.url)).to.deep.equal(['https://hooks.example.com/x']);
    });

    it('keeps a refused feed or webhook on its form, with what was typed and the setting named', async function () {
      const { c, p } = await signedIn(needsBrowser(this), server!);
      await p.goto(`${server!.url}/calendars`);
      await p.fill('#url', 'http://192.168.1.20/school.ics');
      await p.fill('#name', 'School');
      const answer = p.waitForResponse((r) => r.request().method() === 'POST');
      await p.click('form[action="/calendars"] button[type=submit]');
      expect((await answer).status()).to.equal(400);
      expect(await p.inputValue('#url')).to.equal('http://192.168.1.20/school.ics');
      expect(await p.inputValue('#name')).to.equal('School');
      const error = (await p.textContent('.error'))!;
      expect(error).to.include('egress.calendarFeeds');
      expect(error).to.include('lan');
      expect((await server!.api.get('/calendar/external')).body.feeds).to.deep.equal([]);

      await p.goto(`${server!.url}/webhooks`);
      await p.fill('#name', 'Here');
      await p.fill('#url', 'http://127.0.0.1:9/hook');
      await p.click('form[action="/webhooks"] button[type=submit]');
      await p.waitForSelector('.error');
      expect(await p.inputValue('#url')).to.equal('http://127.0.0.1:9/hook');
      expect(await p.textContent('.error')).to.include('egress.webhooks');
      await c.close();
    });
  });
});

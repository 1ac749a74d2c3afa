/**
 * The household pages through the real daemon, in Debian's Chromium (one daemon, one browser):
 * the first-run setup behind its code, sign-in by key and by a one-time link of
 * `household-organizer open`, adding a person and a device (its QR code, its Apple profile and
 * its key on /dav/), revoking it, and the refusals that must change nothing: a form without
 * its CSRF token, an expired session, a read-only session. axe checks every page at phone and
 * desktop widths. With PAGES_SCREENSHOTS=<folder>, each page is saved there (docs/pages/).
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, axeViolations, launchChromium } from '../helpers/browser.js';
import { runCli } from '../helpers/child.js';
import { HouseholdAccess } from '../../src/family/access.js';

// jsQR is CommonJS: its function is the module itself.
const jsQR = createRequire(import.meta.url)('jsqr') as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string } | null;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SHOTS = process.env.PAGES_SCREENSHOTS;
const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//test//pages//EN',
  'BEGIN:VEVENT',
  'UID:trip-1@school.test',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;VALUE=DATE:20261210',
  'SUMMARY:School trip',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('the household pages', function () {
  this.timeout(20_000);
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let offsetMs = 0;
  let printedCode = '';
  let printedKey = '';
  const tmp = mkdtempSync(join(tmpdir(), 'pages-test-'));
  const people = async () =>
    ((await server!.api.get('/people')).body as { people: { name: string }[] }).people.map(
      (p) => p.name,
    );

  before(async function () {
    this.timeout(30_000);
    server = await startTestServer({
      // The first family as a first start makes it: waiting for its setup page.
      overrides: {
        server: { publicUrl: null },
        families: { bootstrapSlug: 'home', firstRunSetup: true },
      },
      now: () => new Date(Date.now() + offsetMs),
      // What the banner and the log print at start: the code the setup page asks for.
      hooks: {
        onSetupCode: (_family, code) => {
          printedCode = code;
        },
        onBootstrap: (_family, key) => {
          printedKey = key;
        },
      },
    });
    if (existsSync(CHROMIUM)) browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  function needsBrowser(ctx: Mocha.Context): Browser {
    if (browser) return browser;
    console.log(`      skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
    return ctx.skip();
  }

  /** axe at both widths, and the page saved when screenshots are asked for. */
  async function check(page: Page, name: string): Promise<void> {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      expect(await axeViolations(page), `${name} at ${size.width}px`).to.deep.equal([]);
    }
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({
        path: join(SHOTS, `${name}.png`),
        fullPage: true,
        scale: 'css',
      });
    }
  }

  async function signedInContext(key: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser!.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server!.url}/signin`);
    await page.fill('#key', key);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server!.url}/`);
    return { context, page };
  }

  it('refuses a wrong setup code, then sets the family up with the right one and signs its admin in', async function () {
    const b = needsBrowser(this);
    const code = printedCode;
    expect(code).to.match(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // The first start also printed an admin key, which works before the setup (scripts, CLI).
    const before = await fetch(`${server!.url}/api/v1/families/home`, {
      headers: { 'x-api-key': printedKey },
    });
    expect([
      before.status,
      ((await before.json()) as { family: { slug: string } }).family.slug,
    ]).to.deep.equal([200, 'home']);
    const context = await b.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server!.url}/`);
    // The browser's zone is preselected by the page's one script.
    expect(await page.inputValue('#timezone')).to.equal(
      await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    );
    await check(page, 'setup');
    await page.fill('#code', 'AAAA-AAAA');
    await page.fill('#name', 'The Limas');
    await page.selectOption('#timezone', 'Europe/Lisbon');
    await page.fill('#people', 'Ana\nBo');
    await page.click('button[type=submit]');
    expect(await page.textContent('.error')).to.include('not the setup code');
    expect((await server!.api.get('')).body.family.name).to.equal('Home');
    expect(await people()).to.deep.equal([]);

    await page.fill('#code', code.toLowerCase()); // as typed: case does not matter
    await page.fill('#people', 'Ana\nBo');
    await page.click('button[type=submit]');
    await page.waitForURL(`${server!.url}/`);
    expect(await page.textContent('h1')).to.equal('The Limas');
    const family = (await server!.api.get('')).body.family;
    expect([family.name, family.timezone]).to.deep.equal(['The Limas', 'Europe/Lisbon']);
    expect(await people()).to.deep.equal(['Ana', 'Bo']);
    const cookie = (await context.cookies()).find((c) => c.name === 'ho_session')!;
    expect([cookie.httpOnly, cookie.sameSite]).to.deep.equal([true, 'Strict']);
    // The code is spent: / is the sign-in now, for everyone else.
    const other = await b.newContext();
    const again = await other.newPage();
    await again.goto(`${server!.url}/`);
    expect(new URL(again.url()).pathname).to.equal('/signin');
    await check(again, 'signin');
    await other.close();
    await check(page, 'home');
    await context.close();
  });

  it('signs in with a one-time link of household-organizer open, and refuses its second use', async function () {
    const b = needsBrowser(this);
    const r = await runCli([
      'open',
      'home',
      '--json',
      '--data-dir',
      server!.dataDir,
      '--port',
      String(server!.daemon.port),
    ]);
    expect(r.code, r.stderr).to.equal(0);
    const { url } = JSON.parse(r.stdout) as { url: string };
    expect(url).to.match(/^http:\/\/localhost:\d+\/signin\?link=hk_/);
    const link = url.replace(/^http:\/\/localhost:\d+/, server!.url);
    const context = await b.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(link);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server!.url}/`);
    expect(await page.textContent('h1')).to.equal('The Limas');
    const second = await (await b.newContext()).newPage();
    await second.goto(link);
    await second.click('button[type=submit]');
    expect(await second.textContent('.error')).to.include('has been used');
    expect(new URL(second.url()).pathname).to.equal('/signin');
    await second.context().close();
    // Sign-out ends the session: its cookie no longer opens anything.
    const before = (await context.cookies()).find((c) => c.name === 'ho_session')!.value;
    await page.click('header summary');
    await page.click('header button');
    await page.waitForURL(`${server!.url}/signin`);
    const res = await fetch(`${server!.url}/people`, {
      headers: { cookie: `ho_session=${before}` },
      redirect: 'manual',
    });
    expect([res.status, res.headers.get('location')]).to.deep.equal([303, '/signin']);
    await context.close();
  });

  it('adds and edits a person, and adds a device whose QR code, Apple profile and key work, then revokes the device', async function () {
    // axe checks seven pages at two widths here (the pairing link's two among them).
    this.timeout(60_000);
    const b = needsBrowser(this);
    const { context, page } = await signedInContext(server!.apiKey);
    await page.goto(`${server!.url}/people`);
    await page.fill('#name', 'Cleo');
    await page.selectOption('#kind', 'child');
    await page.fill('#email', 'cleo@example.com');
    await page.click('form[action="/people"] button');
    await page.waitForURL(`${server!.url}/people?added=Cleo`);
    expect(await page.textContent('#added')).to.include('Added Cleo.');
    expect(await people()).to.deep.equal(['Ana', 'Bo', 'Cleo']);
    await check(page, 'people');
    // Edited through PATCH: a phone added, the email removed.
    const cleo = (
      (await server!.api.get('/people')).body.people as { id: string; name: string }[]
    ).find((p) => p.name === 'Cleo')!;
    await page.click(`a[href="/people/${cleo.id}"]`);
    await check(page, 'person');
    await page.fill('#phone', '+351 912 345 678');
    await page.fill('#email', '');
    await page.click(`form[action="/people/${cleo.id}"] button`);
    await page.waitForURL(`${server!.url}/people`);
    const edited = (
      (await server!.api.get('/people')).body.people as {
        id: string;
        email: string | null;
        phone: string | null;
      }[]
    ).find((p) => p.id === cleo.id)!;
    expect([edited.email, edited.phone]).to.deep.equal([null, '+351 912 345 678']);
    // The change went through REST under the session's own key: the change log says so.
    const session = (await context.cookies()).find((c) => c.name === 'ho_session')!.value;
    const changes = (await server!.api.get('/changes')).body.changes as {
      actor: { keyId: string };
    }[];
    expect(changes.at(-1)!.actor.keyId).to.equal(session.split('_')[1]);

    await page.goto(`${server!.url}/devices`);
    await check(page, 'devices');
    await page.selectOption('#person', { label: 'Cleo' });
    await page.fill('#name', "Cleo's phone");
    await page.click('form[action="/devices"] button[type=submit]');
    const link = (await page.getAttribute('#pairing-link', 'href'))!;
    expect(link).to.match(new RegExp(`^${server!.url}/pair/[0-9A-Za-z]{12}\\.[0-9A-Za-z]{32}$`));
    expect(await qrText(page)).to.equal(link);
    await check(page, 'device-added');

    // The phone opens the link: a Continue button and no key (a link preview sees none).
    const phone = await b.newContext({ viewport: PHONE });
    const pair = await phone.newPage();
    await pair.goto(link);
    await check(pair, 'pair');
    expect(await pair.content()).to.not.match(/hk_/);
    await pair.click('button[type=submit]');
    await pair.waitForSelector('#apple');
    await check(pair, 'pair-values');
    // The profile is this browser's alone: without its cookie, nothing.
    expect((await fetch(`${link}/apple.mobileconfig`)).status).to.equal(404);
    const profile = await phone.request.get(`${link}/apple.mobileconfig`);
    expect(profile.headers()['content-type']).to.equal('application/x-apple-aspen-config');
    expect(profile.headers()['cache-control']).to.equal('no-store');
    const file = join(tmp, 'home.mobileconfig');
    writeFileSync(file, await profile.body());
    const plist = JSON.parse(
      execFileSync('python3', [
        '-c',
        'import plistlib,json,sys; print(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))',
        file,
      ]).toString(),
    ) as { PayloadType: string; PayloadContent: Record<string, unknown>[] };
    expect(plist.PayloadType).to.equal('Configuration');
    const dav = plist.PayloadContent[0];
    const port = server!.daemon.port;
    expect(dav).to.include({
      PayloadType: 'com.apple.caldav.account',
      PayloadVersion: 1,
      CalDAVHostName: '127.0.0.1',
      CalDAVPort: port,
      CalDAVPrincipalURL: '/dav/home/',
      CalDAVUsername: 'home',
      CalDAVUseSSL: false,
    });
    const basic = `Basic ${Buffer.from(`home:${dav.CalDAVPassword as string}`).toString('base64')}`;
    const propfind = () =>
      fetch(`${server!.url}/dav/home/`, {
        method: 'PROPFIND',
        headers: { authorization: basic, depth: '0' },
      });
    expect((await propfind()).status).to.equal(207);
    // Continue spent the link.
    expect((await fetch(link)).status).to.equal(404);
    await phone.close();

    const listed = (await server!.api.get('/devices')).body.devices as {
      id: string;
      name: string;
    }[];
    expect(listed.map((d) => d.name)).to.deep.equal(["Cleo's phone"]);
    await page.goto(`${server!.url}/devices`);
    await page.click(`form[action="/devices/${listed[0].id}/revoke"] button`);
    await page.waitForURL(`${server!.url}/devices`);
    expect((await server!.api.get('/devices')).body.devices).to.deep.equal([]);
    expect((await propfind()).status).to.equal(401);
    await context.close();
  });

  it('adds a display, an outside calendar and a webhook (with a test delivery), switches a notification, downloads the export, then removes each', async function () {
    this.timeout(30_000);
    needsBrowser(this);
    const received: string[] = [];
    const local = createServer((req, res) => {
      if (req.url === '/school.ics') {
        res.writeHead(200, { 'content-type': 'text/calendar' });
        res.end(ICS);
        return;
      }
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ok) => local.listen(0, '127.0.0.1', ok));
    const localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    const { context, page } = await signedInContext(server!.apiKey);
    try {
      await page.goto(`${server!.url}/displays`);
      await page.fill('#name', 'Kitchen');
      await page.check('input[name=interactive]');
      await page.click('form[action="/displays"] button[type=submit]');
      const link = (await page.getAttribute('#display-link', 'href'))!;
      expect(link).to.match(new RegExp(`^${server!.url}/display/`));
      expect(await qrText(page)).to.equal(link);
      expect((await fetch(link)).status).to.equal(200);
      await page.goto(`${server!.url}/displays`);
      await check(page, 'displays');
      const [display] = (await server!.api.get('/displays')).body.displays as {
        id: string;
        interactive: boolean;
      }[];
      expect(display.interactive).to.equal(true);

      await page.goto(`${server!.url}/calendars`);
      await page.fill('#url', `${localUrl}/school.ics`);
      await page.fill('#name', 'School');
      await page.click('form[action="/calendars"] button[type=submit]');
      await page.waitForURL(`${server!.url}/calendars?added=School`);
      expect(await page.textContent('#added')).to.include('Added School.');
      expect(await page.textContent('main')).to.include('School');
      await check(page, 'calendars');
      const [feed] = (await server!.api.get('/calendar/external')).body.feeds as {
        sourceId: string;
        eventCount: number;
      }[];
      expect(feed.eventCount).to.equal(1);

      await page.goto(`${server!.url}/webhooks`);
      await page.fill('#name', 'Receiver');
      await page.fill('#url', `${localUrl}/hook`);
      await page.click('form[action="/webhooks"] button[type=submit]');
      expect(await page.textContent('.done')).to.include('signing secret');
      const [hook] = (await server!.api.get('/webhook-destinations')).body.destinations as {
        id: string;
      }[];
      await page.click(`form[action="/webhooks/${hook.id}/test"] button`);
      expect(await page.textContent('#test-outcome')).to.include('(answer 204)');
      // The test was a POST answered by a redirect: the page is a GET a reload does not resend.
      expect(new URL(page.url()).search).to.match(/^\?tested=/);
      expect(received).to.have.length(1);
      await check(page, 'webhooks');

      await page.goto(`${server!.url}/assistants`);
      await check(page, 'assistants');
      await page.goto(`${server!.url}/notifications`);
      await page.click('form[action="/notifications/email/digest/off"] button');
      await page.waitForURL(`${server!.url}/notifications`);
      expect(
        (await server!.api.get('/notification-preferences')).body.preferences.email.digest,
      ).to.equal(false);
      await check(page, 'notifications');
      await page.goto(`${server!.url}/backups`);
      await check(page, 'backups');
      const exported = await page.request.get(`${server!.url}/backups/export.json`);
      expect((await exported.json()) as { format: string }).to.include({
        format: 'household-organizer/family-export',
      });
      await page.goto(`${server!.url}/family`);
      await check(page, 'family');

      await page.goto(`${server!.url}/displays`);
      await page.click(`form[action="/displays/${display.id}/remove"] button`);
      await page.goto(`${server!.url}/calendars`);
      await page.click(`form[action="/calendars/${feed.sourceId}/remove"] button`);
      await page.goto(`${server!.url}/webhooks`);
      await page.click(`form[action="/webhooks/${hook.id}/remove"] button`);
      await page.waitForURL(`${server!.url}/webhooks`);
      expect((await server!.api.get('/displays')).body.displays).to.deep.equal([]);
      expect((await server!.api.get('/calendar/external')).body.feeds).to.deep.equal([]);
      expect((await server!.api.get('/webhook-destinations')).body.destinations).to.deep.equal([]);
      expect((await fetch(link)).status).to.equal(404);
    } finally {
      await context.close();
      local.closeAllConnections();
      await new Promise<void>((ok) => local.close(() => ok()));
    }
  });

  it('refuses a form without its CSRF token, from an expired session, or from a read-only session, and changes nothing', async function () {
    needsBrowser(this);
    const before = await people();
    const { context, page } = await signedInContext(server!.apiKey);
    const cookie = `ho_session=${(await context.cookies()).find((c) => c.name === 'ho_session')!.value}`;
    const post = (form: Record<string, string>, c = cookie) =>
      fetch(`${server!.url}/people`, {
        method: 'POST',
        headers: { cookie: c, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
    const noToken = await post({ name: 'Mallory' });
    expect(noToken.status).to.equal(403);
    expect(await noToken.text()).to.include('did not come from these pages');
    await page.goto(`${server!.url}/people`);
    const csrf = (await page.getAttribute('input[name=csrf]', 'value'))!;
    expect((await post({ name: 'Mallory', csrf: 'x'.repeat(43) })).status).to.equal(403);

    const readOnly = await server!.key({ scopes: ['read'], name: 'reader' });
    const reader = await signedInContext(readOnly);
    await reader.page.goto(`${server!.url}/people`);
    await reader.page.fill('#name', 'Mallory');
    await reader.page.click('form[action="/people"] button');
    expect(await reader.page.textContent('.error')).to.include('lacks the "write" scope');
    await reader.context.close();

    offsetMs = 31 * 86_400_000; // past the 30 days since the session's last use
    try {
      const expired = await post({ name: 'Mallory', csrf });
      expect([expired.status, expired.headers.get('location')]).to.deep.equal([303, '/signin']);
      // Housekeeping revokes ended sessions, so the keys' list says they are over.
      const sessionId = cookie.split('_')[2];
      expect(
        await new HouseholdAccess(server!.daemon.store).sweep(new Date(Date.now() + offsetMs)),
      ).to.be.above(0);
      expect(server!.daemon.store.getKey(sessionId)!.revokedAt).to.be.a('string');
    } finally {
      offsetMs = 0;
    }
    expect(await people()).to.deep.equal(before);
    await context.close();
  });
});

/** The QR code on the page, read back: drawn into a canvas in the page and decoded by jsQR. */
async function qrText(page: Page): Promise<string | null> {
  const image = await page.evaluate<number[]>(`(async () => {
    const svg = document.querySelector('.qr svg');
    const img = new Image();
    img.src = 'data:image/svg+xml;base64,' + btoa(new XMLSerializer().serializeToString(svg));
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 400;
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 400, 400);
    g.drawImage(img, 0, 0, 400, 400);
    return Array.from(g.getImageData(0, 0, 400, 400).data);
  })()`);
  return jsQR(Uint8ClampedArray.from(image), 400, 400)?.data ?? null;
}

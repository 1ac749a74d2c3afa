/**
 * The interactive family display by touch, in Chromium with touch emulation (one daemon, one
 * browser for the file): each action from the page — ticking a chore off, adding to the
 * groceries, answering for a person, voting — changes the family, seen at once through REST and
 * through the live change stream (the display as the actor), and its Undo puts it back. Offline
 * (the browser context set offline) taps queue and arrive exactly once and in order after
 * reconnecting, also when an answer is lost and the page sends the same tap again; one the
 * family no longer allows (a chore deleted meanwhile) is shown. A read-only display shows no
 * controls and its actions are refused. The page asks for a screen wake lock, again whenever
 * it becomes visible. Skipped, visibly, without /usr/bin/chromium.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSse, type SseReader } from '../helpers/sse.js';
import { changesAfter, lastSeq } from '../helpers/changes.js';
import { todayIn } from '../../src/domain/shared/time.js';
import { CHROMIUM, axeViolations, launchChromium } from '../helpers/browser.js';

interface Change {
  seq: number;
  type: string;
  actor: { keyId: string | null; personId: string | null; displayId?: string };
  object: Record<string, any>;
}

describe('the interactive family display by touch', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let stream: SseReader;
  let url = '';
  let readOnlyUrl = '';
  let displayId = '';
  const ids: Record<string, string> = {};

  before(async function () {
    if (!existsSync(CHROMIUM)) return;
    server = await startTestServer({ timezone: 'UTC' });
    const api = server.api;
    const today = todayIn('UTC', new Date());
    ids.ana = (await api.post('/people', { name: 'Ana Lima', familiarName: 'Mum' })).body.person.id;
    ids.leo = (await api.post('/people', { name: 'Leo Lima' })).body.person.id;
    for (const title of ['Bins out', 'Water the plants', 'Sweep the hall', 'Dust the shelves'])
      ids[title] = (
        await api.post('/trackers/chores/entries', { title, data: { due: today } })
      ).body.entry.id;
    await api.post('/trackers/groceries/entries', { title: 'Bread' });
    ids.swim = (
      await api.post('/calendar/events', {
        title: 'Swimming',
        date: today,
        time: '23:00',
        durationMinutes: 45,
        attendance: { [ids.ana]: 'going' },
      })
    ).body.event.id;
    ids.plan = (await api.post('/plans', { title: 'Summer trip' })).body.planId;
    const poll = (
      await api.post(`/plans/${ids.plan}/polls`, {
        question: 'Which weekend?',
        options: [{ label: 'First weekend' }, { label: 'Second weekend' }],
      })
    ).body.poll;
    ids.poll = poll.pollId;
    const made = (await api.post('/displays', { name: 'Kitchen', interactive: true })).body;
    url = `${server.url}/display/${made.token}`;
    displayId = made.display.id;
    readOnlyUrl = `${server.url}/display/${(await api.post('/displays', { name: 'Hall' })).body.token}`;
    stream = await openSse(`${server.url}/api/v1/families/${server.slug}/changes/stream`, {
      'x-api-key': server.apiKey,
    });
    expect(stream.status).to.equal(200);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, hasTouch: true });
  });
  after(async () => {
    stream?.close();
    await browser?.close();
    await server?.close();
  });
  beforeEach(function () {
    if (!browser) {
      console.log(
        `      skipped: ${CHROMIUM} is missing (apt-get install chromium to run the browser test)`,
      );
      this.skip();
    }
  });

  const open = async (address = url): Promise<Page> => {
    const page = await context.newPage();
    expect((await page.goto(address))?.status()).to.equal(200);
    await page.waitForSelector('#status[data-state=live]');
    return page;
  };
  /** Waits (real time, a few seconds at most) until `check` holds. */
  const eventually = async <T>(
    check: () => Promise<T | undefined | false>,
    what: string,
  ): Promise<T> => {
    const deadline = Date.now() + 8_000;
    for (;;) {
      const v = await check();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** The next record on the live stream after `seq` that `match` accepts. */
  const streamed = async (seq: number, match: (c: Change) => boolean, what: string) => {
    let found: Change | undefined;
    await stream.until(
      () => {
        found = stream.events
          .map((e) => JSON.parse(e.data) as Change)
          .find((c) => c.seq > seq && match(c));
        return found !== undefined;
      },
      8_000,
      what,
    );
    return found!;
  };
  const entry = async (collection: string, title: string) =>
    (
      (await server.api.get(`/trackers/${collection}/entries?limit=50`)).body.entries as {
        id: string;
        title: string;
        status: string;
      }[]
    ).find((e) => e.title === title);
  const attendance = async () =>
    (await server.api.get(`/calendar/events?limit=50`)).body.events.find(
      (e: { id: string }) => e.id === ids.swim,
    ).data.attendance;
  const votes = async () =>
    ((await server.api.get(`/plans/${ids.plan}`)).body.polls[0].options as { votes: number }[]).map(
      (o) => o.votes,
    );
  const byDisplay = (c: Change) => c.actor.displayId === displayId;

  it('ticks a chore off, adds to the groceries, answers for a person and votes — each through REST and the stream — and undoes each', async () => {
    const page = await open();
    try {
      // A chore, ticked off and back.
      let seq = await lastSeq(server.api);
      await page.getByRole('button', { name: /Bins out/ }).tap();
      const ticked = await streamed(
        seq,
        (c) => byDisplay(c) && c.object.id === ids['Bins out'],
        'the tick',
      );
      expect(ticked).to.deep.include({ type: 'tracker.entry.updated' });
      expect(ticked.object.status).to.equal('done');
      expect((await entry('chores', 'Bins out'))!.status).to.equal('done');
      await eventually(
        async () =>
          (await page.getByRole('button', { name: /Bins out/ }).getAttribute('aria-pressed')) ===
          'true',
        'the chore shown done',
      );
      seq = ticked.seq;
      await page.locator('#undo-button').tap();
      const back = await streamed(
        seq,
        (c) => byDisplay(c) && c.object.id === ids['Bins out'],
        'the undo',
      );
      expect(back.object.status).to.equal('active');
      expect((await entry('chores', 'Bins out'))!.status).to.equal('active');

      // Milk on the groceries, and off again.
      seq = back.seq;
      await page.locator('#add-groceries').fill('Milk');
      await page.getByRole('button', { name: 'Add', exact: true }).tap();
      const added = await streamed(
        seq,
        (c) => byDisplay(c) && c.type === 'tracker.entry.created',
        'the add',
      );
      expect(added.object).to.include({ title: 'Milk', collectionKey: 'groceries' });
      expect(await entry('groceries', 'Milk')).to.not.equal(undefined);
      await page.locator('section[data-list=groceries]').getByText('Milk').waitFor();
      await page.locator('#undo-button').tap();
      const removed = await streamed(
        added.seq,
        (c) => byDisplay(c) && c.type === 'tracker.entry.deleted',
        'the remove',
      );
      expect(removed.object.id).to.equal(added.object.id);
      expect(await entry('groceries', 'Milk')).to.equal(undefined);

      // Leo is going swimming; undone, he has no answer again.
      await page.getByRole('button', { name: /Swimming/ }).tap();
      await page.locator('.event .who').getByRole('button', { name: 'Leo Lima' }).tap();
      const going = await streamed(
        removed.seq,
        (c) => byDisplay(c) && c.type === 'calendar.event.updated',
        'the answer',
      );
      expect(going.actor).to.deep.equal({ keyId: null, personId: ids.leo, displayId });
      expect(await attendance()).to.deep.equal({ [ids.ana]: 'going', [ids.leo]: 'going' });
      // axe with an event open and the undo bar up.
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.locator('#undo-button').tap();
      const unsaid = await streamed(
        going.seq,
        (c) => byDisplay(c) && c.type === 'calendar.event.updated',
        'its undo',
      );
      expect(unsaid.object.data.attendance).to.deep.equal({ [ids.ana]: 'going' });
      expect(await attendance()).to.deep.equal({ [ids.ana]: 'going' });

      // Mum votes for the first weekend; undone, her vote is gone.
      const polls = page.locator('#polls');
      await polls.getByRole('button', { name: 'Mum' }).tap();
      await polls.getByRole('button', { name: /First weekend/ }).tap();
      const cast = await streamed(
        unsaid.seq,
        (c) => byDisplay(c) && c.type === 'plan.poll.vote.cast',
        'the vote',
      );
      expect(cast.actor.personId).to.equal(ids.ana);
      expect(await votes()).to.deep.equal([1, 0]);
      await page.locator('#undo-button').tap();
      await streamed(cast.seq, (c) => byDisplay(c) && c.type === 'plan.poll.vote.cast', 'its undo');
      expect(await votes()).to.deep.equal([0, 0]);
    } finally {
      await page.close();
    }
  });

  it('queues taps offline and sends them in order, once each, after reconnecting — also when an answer is lost — and shows a conflict', async () => {
    const page = await open();
    // What reaches the daemon once back online; the first answer is lost on its way back.
    const sent: string[] = [];
    let online = true;
    let lost = false;
    await page.route('**/actions', async (route) => {
      if (!online) return route.abort('internetdisconnected');
      sent.push(route.request().headers()['idempotency-key']);
      const response = await route.fetch();
      if (!lost) {
        lost = true;
        return route.abort('connectionreset');
      }
      return route.fulfill({ response });
    });
    try {
      const seq = await lastSeq(server.api);
      online = false;
      await context.setOffline(true);
      // The open stream goes down with the network.
      server.daemon.server.closeAllConnections();
      await page.waitForSelector('#status[data-state=offline]');
      await page.getByRole('button', { name: /Water the plants/ }).tap();
      await page.locator('#add-groceries').fill('Eggs');
      await page.getByRole('button', { name: 'Add', exact: true }).tap();
      await page.getByRole('button', { name: /Sweep the hall/ }).tap();
      await page.getByRole('button', { name: /Dust the shelves/ }).tap();
      // Shown at once, kept in the page's storage, nothing sent.
      expect(await page.locator('#status').innerText()).to.match(/not sent yet: 4$/);
      expect(
        await page.getByRole('button', { name: /Water the plants/ }).getAttribute('aria-pressed'),
      ).to.equal('true');
      await page.locator('section[data-list=groceries]').getByText('Eggs').waitFor();
      const kept = await page.evaluate<{ key: string; body: { action: string } }[]>(
        `JSON.parse(localStorage.getItem('household-display-queue:' + location.pathname))`,
      );
      expect(kept.map((q) => q.body.action)).to.deep.equal(['done', 'add', 'done', 'done']);
      expect(await lastSeq(server.api)).to.equal(seq);
      // Meanwhile the dust chore is deleted elsewhere.
      await server.api.delete(`/trackers/chores/entries/${ids['Dust the shelves']}`);
      const afterDelete = await lastSeq(server.api);

      // Back online: the first tap's answer is lost, so the page sends it again.
      online = true;
      await context.setOffline(false);
      await eventually(
        async () =>
          page.evaluate<boolean>(
            `JSON.parse(localStorage.getItem('household-display-queue:' + location.pathname)).length === 0`,
          ),
        'the queue sent',
      );
      const arrived = (await changesAfter(server.api, afterDelete)) as Change[];
      expect(arrived.map((c) => [c.type, c.object.title, c.actor.displayId])).to.deep.equal([
        ['tracker.entry.updated', 'Water the plants', displayId],
        ['tracker.entry.created', 'Eggs', displayId],
        ['tracker.entry.updated', 'Sweep the hall', displayId],
      ]);
      // The first tap went twice with its one key; each other once, in the order tapped.
      expect(sent[0]).to.equal(kept[0].key);
      expect(sent).to.deep.equal([kept[0].key, ...kept.map((q) => q.key)]);
      expect(
        ((await server.api.get('/trackers/groceries/entries?query=eggs')).body.entries as unknown[])
          .length,
      ).to.equal(1);
      // The deleted chore's tap is not lost silently.
      await page.waitForSelector('#notice:not([hidden])');
      expect(await page.locator('#notice-text').innerText()).to.match(/Dust the shelves/);
      await page.locator('#notice-ok').tap();
      expect(await page.locator('#notice').isHidden()).to.equal(true);
      await page.waitForSelector('#status[data-state=live]');
      expect(await page.locator('#status').innerText()).to.equal('Live');
    } finally {
      await context.setOffline(false);
      await page.close();
    }
  });

  it('shows an added item once when the stream brings it before the answer to the add', async () => {
    // A context of its own: nothing another test queued in the page's storage goes first.
    const own = await browser!.newContext({
      viewport: { width: 1280, height: 800 },
      hasTouch: true,
    });
    const page = await own.newPage();
    try {
      expect((await page.goto(url))?.status()).to.equal(200);
      await page.waitForSelector('#status[data-state=live]');
      const groceries = page.locator('section[data-list=groceries]');
      // The answer to the add is held until the page's own stream showed the new entry.
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      let answered: Promise<void> = Promise.resolve();
      await page.route('**/actions', (route) => {
        answered = (async () => {
          const answer = await route.fetch();
          await held;
          await route.fulfill({ response: answer });
        })();
        return answered;
      });
      await page.locator('#add-groceries').fill('Oat milk');
      await page.getByRole('button', { name: 'Add', exact: true }).tap();
      await eventually(async () => (await entry('groceries', 'Oat milk')) !== undefined, 'the add');
      // The page's content now has it (an item with an id is a button); the add's answer has
      // not come: shown once, not beside a copy waiting to be sent.
      await groceries.getByRole('button', { name: /Oat milk/ }).waitFor();
      expect(await groceries.getByText('Oat milk', { exact: true }).count()).to.equal(1);
      release();
      await answered;
      await page.unroute('**/actions');
      await groceries.getByRole('button', { name: /Oat milk/ }).waitFor();
      expect(await groceries.getByText('Oat milk', { exact: true }).count()).to.equal(1);
    } finally {
      await own.close();
    }
  });

  it('keeps what someone is typing when new content arrives, and shows that content when they leave the field', async () => {
    const page = await open();
    try {
      const field = page.locator('#add-groceries');
      await field.fill('Ja');
      await server.api.post('/trackers/groceries/entries', { title: 'Honey' });
      // The stream brings the new item (the page keeps it) while the field keeps its text and
      // focus: the list is drawn again only when they leave the field.
      await eventually(
        () =>
          page.evaluate<boolean>(
            `localStorage.getItem('household-display:' + location.pathname).includes('Honey')`,
          ),
        'the new content',
      );
      expect(
        await page.locator('section[data-list=groceries]').getByText('Honey').count(),
      ).to.equal(0);
      expect(await field.inputValue()).to.equal('Ja');
      expect(await page.evaluate('document.activeElement.id')).to.equal('add-groceries');
      await field.pressSequentially('m');
      expect(await field.inputValue()).to.equal('Jam');
      await field.blur();
      await page
        .locator('section[data-list=groceries]')
        .getByText('Honey')
        .waitFor({ timeout: 3_000 });
      expect(await field.inputValue()).to.equal('Jam');
    } finally {
      await page.close();
    }
  });

  it('shows a read-only display without any control, and refuses its actions (403)', async () => {
    const page = await open(readOnlyUrl);
    try {
      expect(await page.locator('#chores').innerText()).to.contain('Bins out');
      expect(await page.locator('main button, main input, main form').count()).to.equal(0);
      const status = await page.evaluate(`fetch(location.pathname + '/actions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k-ro' },
        body: JSON.stringify({ action: 'done', collection: 'chores', entryId: ${JSON.stringify(ids['Bins out'])} }),
      }).then((r) => r.status)`);
      expect(status).to.equal(403);
      expect((await entry('chores', 'Bins out'))!.status).to.equal('active');
    } finally {
      await page.close();
    }
  });

  it('asks for a screen wake lock where the browser offers one, and again when it becomes visible', async () => {
    const page = await context.newPage();
    try {
      await page.addInitScript(`
        window.__wakeLocks = [];
        Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
          request: (type) => { window.__wakeLocks.push(type); return Promise.resolve({ released: false }); },
        } });`);
      await page.goto(url);
      await page.waitForSelector('#status[data-state=live]');
      expect(await page.evaluate('window.__wakeLocks')).to.deep.equal(['screen']);
      const show = (state: string) =>
        page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
          document.dispatchEvent(new Event('visibilitychange'));`);
      await show('hidden');
      expect(await page.evaluate('window.__wakeLocks')).to.deep.equal(['screen']);
      await show('visible');
      expect(await page.evaluate('window.__wakeLocks')).to.deep.equal(['screen', 'screen']);
    } finally {
      await page.close();
    }
  });
});

/**
 * How deliveries fail and retry, through the real server and a real receiver, on a fake clock
 * (the scheduler is run by hand after moving it): the retry schedule with its jitter and the
 * same webhook-id, giving up after the last retry, 410, Retry-After, redirects, secret rotation,
 * history and usage figures, disabling after 5 days of failures, the agenda's at-most-once rule
 * and catching up across a restart.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { changesAfter } from '../helpers/changes.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/fakes/receiver.js';
import { DELIVER_KIND } from '../../src/domain/webhooks/types.js';

const path = '/webhook-destinations';
const S = 1000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('webhook deliveries', () => {
  let server: TestServer;
  let receiver: Receiver;
  const clock = new FakeClock();

  const settle = () => server.daemon.webhooks.idle();
  /** Moves the fake clock to `at`, runs what is due, waits for the sends and their records. */
  async function runAt(at: number | string): Promise<void> {
    clock.set(new Date(at));
    await server.daemon.scheduler.runDue();
    await settle();
  }
  const destination = async (id: string) =>
    (await server.api.get(path)).body.destinations.find((d: any) => d.id === id);
  const webhookJobs = () =>
    server.daemon.store
      .familyJobs(server.daemon.store.getFamilyBySlug('home')!.id)
      .filter((j) => j.kind === DELIVER_KIND);

  async function create(
    eventTypes = ['person.created'],
    url?: string,
  ): Promise<{ id: string; secret: string }> {
    const r = await server.api.post(path, {
      name: 'Receiver',
      url: url ?? receiver.url,
      eventTypes,
    });
    expect(r.status, r.text).to.equal(201);
    return { id: r.body.destination.id, secret: r.body.signingSecret };
  }

  beforeEach(async () => {
    clock.set('2026-11-22T08:30:00.000Z');
    server = await startTestServer({ now: clock.now });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await server.close();
  });

  it('retries after 500s on the schedule, with a little jitter and the same webhook-id, until a 2xx', async () => {
    const { id, secret } = await create();
    receiver.answer = (_d, n) => ({ status: n < 2 ? 500 : 200 });
    const t0 = clock.now().getTime();
    await server.api.post('/people', { name: 'Ana' });
    await settle();
    expect(receiver.deliveries).to.have.length(1);
    let h = (await destination(id)).history;
    expect(h[0]).to.include({
      attempt: 1,
      status: 'retrying',
      responseStatus: 500,
      error: 'HTTP 500',
    });
    const next1 = Date.parse(h[0].nextAttemptAt);
    expect(next1 - t0).to.be.within(5 * S, 5.5 * S);
    // Not a moment early.
    await runAt(next1 - 1);
    expect(receiver.deliveries).to.have.length(1);
    await runAt(next1);
    expect(receiver.deliveries).to.have.length(2);
    h = (await destination(id)).history;
    const next2 = Date.parse(h[0].nextAttemptAt);
    expect(next2 - next1).to.be.within(300 * S, 330 * S);
    await runAt(next2);
    expect(receiver.deliveries).to.have.length(3);
    const ids = new Set(receiver.deliveries.map((d) => d.id));
    expect(ids.size).to.equal(1);
    // Each attempt is stamped with its own time and verifies as of it.
    expect(receiver.deliveries.map((d) => d.timestamp)).to.deep.equal(
      [t0, next1, next2].map((t) => Math.floor(t / 1000)),
    );
    receiver.deliveries.forEach((d) => verifyDelivery(secret, d, new Date(d.timestamp * 1000)));
    const d = await destination(id);
    expect(d.history.map((x: any) => [x.attempt, x.status])).to.deep.equal([
      [3, 'succeeded'],
      [2, 'retrying'],
      [1, 'retrying'],
    ]);
    expect(new Set(d.history.map((x: any) => x.deliveryId)).size).to.equal(1);
    expect(d.usage.last24h).to.deep.equal({ attempted: 3, succeeded: 1, failed: 2 });
    expect(webhookJobs()).to.deep.equal([]);
  });

  it('gives up after the last retry of the configured schedule', async () => {
    await server.close();
    server = await startTestServer({
      now: clock.now,
      overrides: { webhooks: { retryScheduleSeconds: [1, 2] } },
    });
    const { id } = await create();
    receiver.answer = () => ({ status: 500 });
    await server.api.post('/people', { name: 'Ana' });
    await settle();
    for (let i = 0; i < 2; i++) await runAt((await destination(id)).history[0].nextAttemptAt);
    expect(receiver.deliveries).to.have.length(3);
    const h = (await destination(id)).history;
    expect(h.map((x: any) => [x.attempt, x.status])).to.deep.equal([
      [3, 'failed'],
      [2, 'retrying'],
      [1, 'retrying'],
    ]);
    expect(h[0].nextAttemptAt).to.equal(null);
    expect(webhookJobs()).to.deep.equal([]);
    await runAt(clock.now().getTime() + DAY);
    expect(receiver.deliveries).to.have.length(3);
  });

  it('disables the destination on 410, logs why, and drops its pending retries', async () => {
    const { id } = await create();
    receiver.answer = (_d, n) => ({ status: n === 0 ? 500 : 410 });
    await server.api.post('/people', { name: 'First' });
    await settle();
    expect(webhookJobs()).to.have.length(1);
    const seq = (await changesAfter(server.api, 0)).at(-1).seq;
    await server.api.post('/people', { name: 'Second' });
    await settle();
    const d = await destination(id);
    expect(d).to.include({ enabled: false, disabledReason: 'receiver_gone' });
    expect(d.history[0]).to.include({ status: 'failed', responseStatus: 410 });
    const log = (await changesAfter(server.api, seq)).filter(
      (c: any) => c.type === 'webhook_destination.updated',
    );
    expect(log).to.have.length(1);
    expect(log[0].object).to.include({ id, enabled: false, disabledReason: 'receiver_gone' });
    expect(log[0].previous.enabled).to.equal(true);
    expect(log[0].actor).to.deep.equal({ keyId: null, personId: null });
    expect(webhookJobs()).to.deep.equal([]);
    await runAt(clock.now().getTime() + HOUR);
    await server.api.post('/people', { name: 'Third' });
    await settle();
    expect(receiver.deliveries).to.have.length(2);
  });

  it('honours Retry-After on 429 (seconds) and 503 (a date), and falls back to the schedule without it', async () => {
    const { id } = await create();
    const t0 = clock.now().getTime();
    const answers = [
      { status: 429, headers: { 'retry-after': '120' } },
      { status: 503, headers: { 'retry-after': new Date(t0 + 2 * HOUR).toUTCString() } },
      { status: 429 },
    ];
    receiver.answer = (_d, n) => answers[n];
    for (const name of ['A', 'B', 'C']) await server.api.post('/people', { name });
    await settle();
    const h = (await destination(id)).history;
    const delays: [number, number][] = h.map((x: any) => [
      x.responseStatus,
      Date.parse(x.nextAttemptAt) - t0,
    ]);
    const d429 = delays
      .filter(([st]) => st === 429)
      .map(([, ms]) => ms)
      .sort((a, b) => a - b);
    expect(d429[0]).to.be.within(5 * S, 5.5 * S);
    expect(d429[1]).to.equal(120 * S);
    expect(delays.find(([st]) => st === 503)![1]).to.be.within(2 * HOUR - S, 2 * HOUR);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const elsewhere = await startReceiver();
    try {
      const { id } = await create();
      receiver.answer = () => ({ status: 302, headers: { location: elsewhere.url } });
      await server.api.post('/people', { name: 'Ana' });
      await settle();
      expect((await destination(id)).history[0]).to.include({
        status: 'retrying',
        responseStatus: 302,
        error: 'redirect (302) not followed',
      });
      expect(elsewhere.connections).to.equal(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const { id, secret: old } = await create();
    const rotated = (await server.api.patch(`${path}/${id}`, { rotateSecret: true })).body
      .signingSecret as string;
    const t0 = clock.now().getTime();
    const send = async (name: string) => {
      await server.api.post('/people', { name });
      await settle();
      return receiver.deliveries.at(-1)!;
    };
    for (const at of [t0, t0 + DAY - S]) {
      clock.set(new Date(at));
      const d = await send(`at ${at}`);
      expect(d.signature.split(' ')).to.have.length(2);
      expect(d.signature).to.match(/^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/);
      expect(verifyDelivery(old, d, clock.now()).id).to.equal(d.id);
      expect(verifyDelivery(rotated, d, clock.now()).id).to.equal(d.id);
    }
    clock.set(new Date(t0 + DAY));
    const d = await send('after a day');
    expect(d.signature.split(' ')).to.have.length(1);
    expect(verifyDelivery(rotated, d, clock.now()).id).to.equal(d.id);
    expect(() => verifyDelivery(old, d, clock.now())).to.throw(/No matching signature/);
  });

  it('keeps the last 100 attempts, newest first, and counts usage over 24 hours and 30 days', async () => {
    const { id } = await create();
    receiver.answer = (_d, n) => ({ status: n % 5 === 0 ? 500 : 200 });
    for (let i = 0; i < 105; i++) await server.api.post(`${path}/${id}/test`);
    let d = await destination(id);
    expect(d.history).to.have.length(100);
    const times = d.history.map((x: any) => x.eventId);
    expect(times[0]).to.equal(receiver.deliveries.at(-1)!.id);
    expect(times.at(-1)).to.equal(receiver.deliveries[5].id);
    expect(d.usage.last24h).to.deep.equal({ attempted: 105, succeeded: 84, failed: 21 });
    // An hour short of a day later the attempts still count for 24 h; past it, for 30 days only.
    clock.advance(23 * HOUR);
    expect((await destination(id)).usage.last24h.attempted).to.equal(105);
    clock.advance(2 * HOUR);
    d = await destination(id);
    expect(d.usage).to.deep.equal({
      last24h: { attempted: 0, succeeded: 0, failed: 0 },
      last30d: { attempted: 105, succeeded: 84, failed: 21 },
    });
    clock.advance(29 * DAY);
    expect((await destination(id)).usage.last30d.attempted).to.equal(0);
    expect((await destination(id)).history).to.have.length(100);
  });

  it('disables a destination that failed every delivery for 5 days, counting from its last success', async () => {
    const { id } = await create();
    let ok = false;
    receiver.answer = () => ({ status: ok ? 200 : 500 });
    const t0 = clock.now().getTime();
    const event = async (at: number, name: string) => {
      clock.set(new Date(at));
      await server.api.post('/people', { name });
      await settle();
    };
    await event(t0, 'day 0');
    ok = true;
    await event(t0 + 3 * DAY, 'day 3 succeeds');
    ok = false;
    await event(t0 + 4 * DAY, 'day 4');
    await event(
      t0 + 6 * DAY,
      'day 6: 5 days after the first failure, but there was a success since',
    );
    expect((await destination(id)).enabled).to.equal(true);
    const seq = (await changesAfter(server.api, 0)).at(-1).seq;
    await event(t0 + 9 * DAY, 'day 9: 5 days after the first failure since the success');
    const d = await destination(id);
    expect(d).to.include({ enabled: false, disabledReason: 'failing' });
    // The record the household's notification hangs on.
    const log = (await changesAfter(server.api, seq)).filter(
      (c: any) => c.type === 'webhook_destination.updated',
    );
    expect(
      log.map((c: any) => [c.previous.enabled, c.object.enabled, c.object.disabledReason]),
    ).to.deep.equal([[true, false, 'failing']]);
    expect(webhookJobs()).to.deep.equal([]);
    // …and the household is told in the app, in the same commit.
    const notices = (await server.api.get('/notifications')).body.notifications.filter((n: any) =>
      /was turned off/.test(n.title),
    );
    expect(notices).to.have.length(1);
    expect(notices[0].channels).to.deep.equal(['in_app']);
    expect(notices[0].body).to.match(/has failed for 5 days/);
    expect(notices[0].body).to.not.include('/hook');
  });

  it('sends a due retry once even when two scheduler passes run at once', async () => {
    const { id } = await create();
    receiver.answer = (_d, n) => ({ status: n === 0 ? 500 : 200 });
    await server.api.post('/people', { name: 'Ana' });
    await settle();
    clock.set(new Date((await destination(id)).history[0].nextAttemptAt));
    await Promise.all([server.daemon.scheduler.runDue(), server.daemon.scheduler.runDue()]);
    await settle();
    await server.daemon.scheduler.runDue();
    await settle();
    expect(receiver.deliveries).to.have.length(2);
    expect((await destination(id)).history.map((x: any) => x.status)).to.deep.equal([
      'succeeded',
      'retrying',
    ]);
  });

  it('sends a retry owed across a restart once the daemon is back, even later than the catch-up window', async () => {
    const { id } = await create();
    receiver.answer = (_d, n) => ({ status: n === 0 ? 500 : 200 });
    await server.api.post('/people', { name: 'Ana' });
    await settle();
    expect(webhookJobs()).to.have.length(1);
    await server.close({ keepData: true });
    // Down for 10 hours: well past scheduler.catchUpMinutes (6 h).
    clock.advance(10 * HOUR);
    server = await startTestServer({ now: clock.now, dataDir: server.dataDir });
    await server.daemon.scheduler.runDue();
    await settle();
    expect(receiver.deliveries).to.have.length(2);
    expect(receiver.deliveries[1].id).to.equal(receiver.deliveries[0].id);
    expect((await destination(id)).history[0]).to.include({ attempt: 2, status: 'succeeded' });
    await server.daemon.scheduler.runDue();
    await settle();
    expect(receiver.deliveries).to.have.length(2);
    expect(webhookJobs()).to.deep.equal([]);
  });
});

/**
 * At most once, never lost: the real executable is killed (SIGKILL) or stopped (SIGTERM)
 * before, during and after a firing, with short real waits, and restarted on the same data.
 * An ntfy recorder on 127.0.0.1 counts what actually left the daemon.
 */
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, startTestServer, tempDataDir } from '../helpers/server.js';
import { spawnDaemon, type ChildDaemon } from '../helpers/child.js';
import { until as waitFor } from '../helpers/until.js';
import { startNtfy, type NtfyRecorder } from '../helpers/fakes/ntfy.js';
import { decideManualNotification } from '../../src/domain/notifications/manual.js';
import { SCHEDULER_CALLER } from '../../src/domain/shared/agenda.js';

describe('notifications across restarts of the daemon process', function () {
  this.timeout(60_000);
  let ntfy: NtfyRecorder;
  const dirs: string[] = [];
  before(async () => {
    ntfy = await startNtfy();
  });
  after(async () => {
    await ntfy.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  beforeEach(() => {
    ntfy.published.length = 0;
    ntfy.delayMs = 0;
    ntfy.status = 200;
  });

  async function start(dir: string): Promise<ChildDaemon> {
    const config = join(dir, 'test-config.json');
    writeFileSync(
      config,
      JSON.stringify({ egress: { transports: 'any' }, push: { ntfyUrl: ntfy.url } }),
    );
    return spawnDaemon(join(dir, 'data'), { HOUSEHOLD_CONFIG: config });
  }

  /** A check on an event a few minutes ahead, due `inMs` from now (leadHours takes fractions). */
  async function checkDueIn(
    api: Client,
    inMs: number,
  ): Promise<{ triggerId: string; runAt: string }> {
    const start = new Date(Math.ceil((Date.now() + 5 * 60_000) / 60_000) * 60_000);
    const ev = (
      await api.post('/calendar/events', {
        title: 'Match',
        date: start.toISOString().slice(0, 10),
        time: start.toISOString().slice(11, 16),
        responsibilityRequired: false,
      })
    ).body.entryId;
    const leadHours = (start.getTime() - (Date.now() + inMs)) / 3_600_000;
    const r = await api.post('/checks', {
      eventId: ev,
      leadHours,
      task: 'Bring the ball',
      channels: ['in_app', 'push'],
    });
    expect(r.status).to.equal(201);
    return r.body;
  }

  const notifications = async (api: Client, triggerId: string) =>
    (await api.get(`/notifications?triggerId=${triggerId}`)).body.notifications as any[];

  async function stop(
    d: ChildDaemon,
    signal: NodeJS.Signals,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    d.proc.kill(signal);
    return d.exited;
  }

  /**
   * A daemon with a check due soon, stopped by `signal` before the check is due. Whether the stop
   * came first is known, not hoped for: the signal is sent before `runAt` by this machine's clock
   * (the daemon fires at or after it). On a machine too loaded for that, the scenario starts over
   * in a new folder with twice the lead, so the test asserts what it means to on any machine.
   */
  async function stopBeforeDue(
    dir: string,
    signal: NodeJS.Signals,
  ): Promise<{ check: { triggerId: string; runAt: string }; key: string }> {
    for (let lead = 1_500; ; lead *= 2) {
      const first = await start(dir);
      const key = first.bootstrapKey!;
      const check = await checkDueIn(new Client(`${first.url}/api/v1/families/home`, key), lead);
      const signalledAt = Date.now();
      const exit = await stop(first, signal);
      expect(signal === 'SIGKILL' ? exit.signal : exit.code).to.equal(
        signal === 'SIGKILL' ? 'SIGKILL' : 0,
      );
      if (signalledAt < Date.parse(check.runAt) - 50) return { check, key };
      if (lead > 60_000) throw new Error('could not stop the daemon before a check was due');
      rmSync(join(dir, 'data'), { recursive: true, force: true });
      ntfy.published.length = 0;
    }
  }

  it('kill -9 before the firing: the check fires once at the next start, and a later kill -9 sends nothing again', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const { check, key } = await stopBeforeDue(dir, 'SIGKILL');
    expect(ntfy.published).to.have.length(0);
    await sleep(Math.max(0, Date.parse(check.runAt) - Date.now()) + 200);

    const second = await start(dir);
    const api = new Client(`${second.url}/api/v1/families/home`, key);
    const [n] = await waitFor('the check to fire after the restart', async () => {
      const list = await notifications(api, check.triggerId);
      return list.length && list[0].pending === 0 ? list : undefined;
    });
    expect(n.deliveries).to.deep.equal([
      { channel: 'in_app', status: 'delivered' },
      { channel: 'push', status: 'delivered' },
    ]);
    expect(ntfy.published.map((p) => p.title)).to.deep.equal(['Bring the ball']);

    // After the firing: killed and restarted again, nothing is sent twice.
    await stop(second, 'SIGKILL');
    const third = await start(dir);
    const api3 = new Client(`${third.url}/api/v1/families/home`, key);
    await sleep(500);
    expect(await notifications(api3, check.triggerId)).to.have.length(1);
    expect(ntfy.published).to.have.length(1);
    await stop(third, 'SIGTERM');
  });

  it('kill -9 during the send: never sent twice, and the record says it was interrupted', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const first = await start(dir);
    const key = first.bootstrapKey!;
    ntfy.delayMs = Infinity; // the publish arrives but is never answered
    const check = await checkDueIn(new Client(`${first.url}/api/v1/families/home`, key), 1_000);
    await waitFor('the publish to reach ntfy', () => ntfy.published.length === 1);
    await stop(first, 'SIGKILL');
    ntfy.delayMs = 0;

    const second = await start(dir);
    const api = new Client(`${second.url}/api/v1/families/home`, key);
    const [n] = await waitFor('the interrupted send to be settled at start', async () => {
      const list = await notifications(api, check.triggerId);
      return list.length && list[0].pending === 0 ? list : undefined;
    });
    expect(n.deliveries).to.deep.equal([
      { channel: 'in_app', status: 'delivered' },
      {
        channel: 'push',
        status: 'suppressed',
        reason: 'interrupted: the daemon stopped while sending; it may or may not have arrived',
      },
    ]);
    expect(await notifications(api, check.triggerId)).to.have.length(1);
    expect(ntfy.published).to.have.length(1);
    await stop(second, 'SIGTERM');
  });

  it('SIGTERM during the send: the send finishes and is recorded before the daemon exits, and is not repeated', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const first = await start(dir);
    const key = first.bootstrapKey!;
    ntfy.delayMs = 1_000;
    const check = await checkDueIn(new Client(`${first.url}/api/v1/families/home`, key), 1_000);
    await waitFor('the publish to reach ntfy', () => ntfy.published.length === 1);
    const exit = await stop(first, 'SIGTERM');
    expect(exit.code).to.equal(0);

    ntfy.delayMs = 0;
    const second = await start(dir);
    const api = new Client(`${second.url}/api/v1/families/home`, key);
    await sleep(500);
    const list = await notifications(api, check.triggerId);
    expect(list).to.have.length(1);
    expect(list[0].deliveries).to.deep.equal([
      { channel: 'in_app', status: 'delivered' },
      { channel: 'push', status: 'delivered' },
    ]);
    expect(ntfy.published).to.have.length(1);
    await stop(second, 'SIGTERM');
  });

  it('SIGTERM before the firing: the check fires once after the restart', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const { check, key } = await stopBeforeDue(dir, 'SIGTERM');
    await sleep(Math.max(0, Date.parse(check.runAt) - Date.now()) + 200);
    const second = await start(dir);
    const api = new Client(`${second.url}/api/v1/families/home`, key);
    await waitFor('the check to fire', async () =>
      (await notifications(api, check.triggerId))[0]?.pending === 0 ? true : undefined,
    );
    expect(ntfy.published.map((p) => p.title)).to.deep.equal(['Bring the ball']);
    await stop(second, 'SIGTERM');
  });
});

describe('a crash between the commit and the transports', () => {
  it('leaves the deliveries pending with their send job, and the next start sends them once', async () => {
    const ntfy = await startNtfy();
    const overrides = { push: { ntfyUrl: ntfy.url } };
    const server = await startTestServer({ overrides });
    // The record is committed exactly as POST /notifications commits it, and the transports are
    // never called: what a crash right after the commit leaves behind.
    const actor = await server.daemon.registry.get(server.daemon.store.getFamilyBySlug('home')!);
    const record = await actor.execute(
      (s, ctx) =>
        decideManualNotification(
          s,
          { title: 'Left behind', channels: ['in_app', 'push'] },
          server.daemon.notifier.transports,
          ctx,
        ),
      SCHEDULER_CALLER,
    );
    expect(record.deliveries.map((d) => d.status)).to.deep.equal(['delivered', 'pending']);
    await server.daemon.scheduler.stop();
    await server.close({ keepData: true });
    expect(ntfy.published).to.have.length(0);

    const again = await startTestServer({ dataDir: server.dataDir, overrides });
    try {
      await again.daemon.scheduler.runDue();
      const listed = (await again.api.get('/notifications')).body.notifications.find(
        (n: any) => n.id === record.id,
      );
      expect(listed.deliveries).to.deep.equal([
        { channel: 'in_app', status: 'delivered' },
        { channel: 'push', status: 'delivered' },
      ]);
      expect(ntfy.published.map((p) => p.title)).to.deep.equal(['Left behind']);
      await again.daemon.scheduler.runDue();
      expect(ntfy.published).to.have.length(1);
    } finally {
      await again.close();
      await ntfy.close();
    }
  });
});

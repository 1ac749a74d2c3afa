/**
 * Deliveries owed when the daemon is killed with SIGKILL are made after a restart, each accepted
 * exactly once: the real executable, a receiver on 127.0.0.1 that fails everything until the
 * restart, then accepts. Retries of an id before its first 2xx are fine (at least once); after a
 * 2xx the id must not arrive again.
 */
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, tempDataDir } from '../helpers/server.js';
import { spawnDaemon } from '../helpers/child.js';
import { changesAfter } from '../helpers/changes.js';
import { startReceiver, type Receiver } from '../helpers/fakes/receiver.js';

describe('webhook deliveries across kill -9', function () {
  this.timeout(60_000);
  let dir: string;
  let receiver: Receiver;
  before(async () => {
    dir = tempDataDir();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes every owed delivery after a restart, each accepted exactly once', async () => {
    const configFile = join(dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        egress: { webhooks: 'any' },
        webhooks: { timeoutMs: 2000, retryScheduleSeconds: [1, 1, 1] },
      }),
    );
    const env = { HOUSEHOLD_CONFIG: configFile };
    let accepting = false;
    receiver.answer = () => ({ status: accepting ? 200 : 500 });

    const first = await spawnDaemon(dir, env);
    const key = first.bootstrapKey!;
    const api = new Client(`${first.url}/api/v1/families/home`, key);
    const created = await api.post('/webhook-destinations', {
      name: 'receiver',
      url: receiver.url,
      eventTypes: ['person.created', 'tracker.entry.created'],
    });
    expect(created.status, created.text).to.equal(201);
    // Four writers; the daemon is killed right after the 60th acknowledgement, with writes,
    // enqueues and sends in flight.
    let acked = 0;
    let killed = false;
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; !killed; i++) {
          try {
            const r =
              w % 2
                ? await api.post('/people', { name: `p${w}-${i}` })
                : await api.post('/trackers/chores/entries', { title: `c${w}-${i}` });
            if (r.status === 201 && ++acked >= 60 && !killed) {
              killed = true;
              first.proc.kill('SIGKILL');
            }
          } catch {
            killed = true;
          }
        }
      }),
    );
    expect((await first.exited).signal).to.equal('SIGKILL');
    const beforeRestart = receiver.deliveries.length;
    expect(receiver.deliveries.every((d) => d.answered === 500)).to.equal(true);

    accepting = true;
    const second = await spawnDaemon(dir, env);
    try {
      const api2 = new Client(`${second.url}/api/v1/families/home`, key);
      const owed = (await changesAfter(api2, 0)).filter(
        (c: any) => c.type === 'person.created' || c.type === 'tracker.entry.created',
      );
      expect(owed.length).to.be.at.least(60);
      const want = new Set(owed.map((c: any) => c.id as string));
      const accepted = () =>
        new Set(receiver.deliveries.filter((d) => d.answered === 200).map((d) => d.id));
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && [...want].some((id) => !accepted().has(id))) await sleep(100);
      const missing = [...want].filter((id) => !accepted().has(id));
      expect(
        missing,
        `${missing.length} of ${want.size} events never accepted (${beforeRestart} attempts before the kill)`,
      ).to.deep.equal([]);
      // Past every retry that could still come: nothing is sent again after its 2xx.
      await sleep(2_500);
      const seen = new Map<string, number>();
      for (const d of receiver.deliveries) {
        if (seen.has(d.id)) expect.fail(`${d.id} arrived again after it was accepted`);
        if (d.answered === 200) seen.set(d.id, 1);
      }
      expect(seen.size).to.equal(want.size);
      const list = (await api2.get('/webhook-destinations')).body.destinations[0];
      expect(list.enabled).to.equal(true);
    } finally {
      second.proc.kill('SIGTERM');
      await second.exited;
    }
  });
});

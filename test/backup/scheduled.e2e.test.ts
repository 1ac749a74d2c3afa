/**
 * Scheduled backups through the running daemon (src/backup/scheduled.ts), moved by the
 * injected clock: the first at start, the next one `backup.every` later, the oldest pruned past
 * `backup.keep`, each a copy the daemon opens as its store; and the restore README.md and
 * docs/operations.md describe — the newest backup's file put in a fresh data folder and
 * served — gives back the same family, people, entries and change log.
 */
import { expect } from 'chai';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { changesAfter } from '../helpers/changes.js';
import { listBackups } from '../../src/backup/retention.js';

const HOUR = 3_600_000;

/** What a restore must give back: everything a client reads of the family. */
async function household(server: TestServer) {
  return {
    family: (await server.api.get('')).body.family,
    people: (await server.api.get('/people')).body,
    chores: (await server.api.get('/trackers/chores/entries?limit=50')).body,
    events: (await server.api.get('/calendar/events?limit=50')).body,
    log: await changesAfter(server.api, 0),
  };
}

describe('scheduled backups (backup.every, backup.keep, backup.dir)', function () {
  this.timeout(60_000);
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  let server: TestServer;
  let dir: string;
  let restored: TestServer | undefined;
  before(async () => {
    dir = join(mkdtempSync(join(tmpdir(), 'household-backup-dir-')), 'backups');
    server = await startTestServer({
      now: clock.now,
      overrides: { backup: { every: '6h', keep: 2, dir }, metrics: { enabled: true } },
    });
  });
  after(async () => {
    await server.close();
    await restored?.close();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  it('writes one at start, the next one every 6 hours by the clock, and keeps the newest 2', async () => {
    const backups = server.daemon.backups!;
    // The first is due at start (there is none yet); its timer may already be writing it.
    await backups.runDue();
    expect(listBackups(dir)).to.deep.equal(['20261122T083000Z']);
    await server.api.post('/people', { name: 'Ana', kind: 'adult' });
    // Not due again until six hours after the newest.
    clock.advance(5 * HOUR);
    expect(await backups.runDue()).to.equal(null);
    expect(listBackups(dir)).to.have.length(1);
    clock.advance(HOUR);
    await backups.runDue();
    expect(listBackups(dir)).to.deep.equal(['20261122T083000Z', '20261122T143000Z']);
    await server.api.post('/trackers/chores/entries', {
      title: 'Take out the bins',
      data: { due: '2026-11-24' },
    });
    await server.api.post('/calendar/events', {
      title: 'Dentist',
      date: '2026-12-03',
      time: '09:00',
    });
    clock.advance(6 * HOUR);
    await backups.runDue();
    expect(listBackups(dir)).to.deep.equal(['20261122T143000Z', '20261122T203000Z']);
    // Nothing but the backups themselves: no partial copy left behind.
    expect(readdirSync(dir).sort()).to.deep.equal(['20261122T143000Z', '20261122T203000Z']);
    expect(backups.nextAt()).to.deep.equal(new Date('2026-11-23T02:30:00.000Z'));
    const metrics = (await server.http.get('/metrics')).text;
    expect(metrics).to.include(
      `household_backup_last_success_timestamp_seconds ${Date.parse('2026-11-22T20:30:00Z') / 1000}`,
    );
    expect(metrics).to.include('household_backup_failures_total 0');
  });

  it('restores: the newest backup put in a fresh data folder is served with the same data', async () => {
    const expected = await household(server);
    expect(expected.people.people).to.have.length(1);
    expect(expected.chores.entries).to.have.length(1);
    expect(expected.log.map((r: { type: string }) => r.type)).to.include.members([
      'person.created',
    ]);
    // Written after the backup: not in it.
    await server.api.post('/people', { name: 'Ben', kind: 'child' });

    // docs/operations.md, "Restore": the daemon stopped (here: another folder), the file
    // copied in as the store, the daemon started on it.
    const fresh = tempDataDir();
    mkdirSync(fresh, { recursive: true });
    const newest = listBackups(dir).at(-1)!;
    copyFileSync(join(dir, newest, 'household.mdb'), join(fresh, 'household.mdb'));
    restored = await startTestServer({ dataDir: fresh, now: clock.now });
    const got = await household(restored);
    expect(got).to.deep.equal(expected);
    expect(got.people.people.map((p: { name: string }) => p.name)).to.deep.equal(['Ana']);
  });
});

describe('scheduled backups that cannot be written', function () {
  this.timeout(30_000);

  it('log the failure, count it on /metrics and try again later, leaving no partial copy', async () => {
    const clock = new FakeClock('2026-11-22T08:30:00.000Z');
    const parent = mkdtempSync(join(tmpdir(), 'household-backup-ro-'));
    // A file where the folder should be: nothing can be written under it.
    const dir = join(parent, 'not-a-folder');
    copyFileSync(new URL(import.meta.url), dir);
    const server = await startTestServer({
      now: clock.now,
      overrides: { backup: { every: '1d', keep: 3, dir }, metrics: { enabled: true } },
    });
    try {
      const backups = server.daemon.backups!;
      await backups.runDue().catch(() => null);
      expect(backups.failures).to.be.at.least(1);
      // Tried again ten minutes later, not at once.
      expect(backups.nextAt()).to.deep.equal(new Date('2026-11-22T08:40:00.000Z'));
      expect(await backups.runDue()).to.equal(null);
      const metrics = (await server.http.get('/metrics')).text;
      expect(metrics).to.match(/household_backup_failures_total [1-9]/);
      expect(readdirSync(parent)).to.deep.equal(['not-a-folder']);
    } finally {
      await server.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

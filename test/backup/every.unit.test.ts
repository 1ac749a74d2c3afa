/**
 * When scheduled backups are due (src/backup/every.ts) and which folders count as backups
 * (src/backup/retention.ts): one `every` after the newest backup, a cron pattern's next time
 * after it, a missed time due once at start; folders named by the UTC time, partial copies and
 * anything else left out, the oldest pruned past `keep`.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextBackupAt, parseEvery } from '../../src/backup/every.js';
import {
  backupName,
  backupTime,
  listBackups,
  newestBackup,
  pruneBackups,
} from '../../src/backup/retention.js';

const at = (iso: string) => new Date(iso);

describe('backup.every', () => {
  it('reads durations and cron patterns', () => {
    expect(parseEvery('6h')).to.deep.equal({ kind: 'interval', ms: 6 * 3_600_000 });
    expect(parseEvery('1d')).to.deep.equal({ kind: 'interval', ms: 86_400_000 });
    expect(parseEvery(' 0 3 * * * ')).to.deep.equal({ kind: 'cron', pattern: '0 3 * * *' });
    expect(parseEvery('3m'))
      .to.be.a('string')
      .and.match(/at least 5m/);
    expect(parseEvery('every night')).to.be.a('string');
  });

  it('is due at once with no backup yet, one interval after the newest, and once for a missed time', () => {
    const six = { kind: 'interval', ms: 6 * 3_600_000 } as const;
    const now = at('2026-11-22T08:30:00Z');
    expect(nextBackupAt(six, null, now)).to.deep.equal(now);
    expect(nextBackupAt(six, at('2026-11-22T06:00:00Z'), now)).to.deep.equal(
      at('2026-11-22T12:00:00Z'),
    );
    // Down for three days: due now, not three times.
    expect(nextBackupAt(six, at('2026-11-19T06:00:00Z'), now)).to.deep.equal(now);
  });

  it("follows a cron pattern in the machine's zone after the newest backup", () => {
    const nightly = { kind: 'cron', pattern: '0 3 * * *' } as const;
    const berlin = 'Europe/Berlin';
    const now = at('2026-11-22T08:30:00Z');
    // 03:00 in Berlin is 02:00 UTC in November.
    expect(nextBackupAt(nightly, at('2026-11-22T02:00:00Z'), now, berlin)).to.deep.equal(
      at('2026-11-23T02:00:00Z'),
    );
    // The night's backup was missed (the machine was off): due now.
    expect(nextBackupAt(nightly, at('2026-11-21T02:00:00Z'), now, berlin)).to.deep.equal(now);
  });
});

describe('the backup folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'household-backups-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const make = (name: string, complete = true) => {
    mkdirSync(join(dir, name));
    if (complete) writeFileSync(join(dir, name, 'household.mdb'), 'x');
  };

  it('names a backup by its UTC time, to the second', () => {
    expect(backupName(at('2026-11-24T02:00:09.731Z'))).to.equal('20261124T020009Z');
    expect(backupTime('20261124T020009Z')).to.deep.equal(at('2026-11-24T02:00:09Z'));
    expect(backupTime('nightly')).to.equal(null);
  });

  it('counts only complete backups with a time for a name, and keeps the newest ones', () => {
    expect(listBackups(join(dir, 'missing'))).to.deep.equal([]);
    for (const n of [
      '20261120T020000Z',
      '20261121T020000Z',
      '20261122T020000Z',
      '20261123T020000Z',
    ])
      make(n);
    make('20261124T020000Z', false); // a copy that never finished
    make('.partial-20261124T030000Z');
    make('by-hand');
    expect(listBackups(dir)).to.deep.equal([
      '20261120T020000Z',
      '20261121T020000Z',
      '20261122T020000Z',
      '20261123T020000Z',
    ]);
    expect(newestBackup(dir)).to.deep.equal(at('2026-11-23T02:00:00Z'));
    expect(pruneBackups(dir, 2)).to.deep.equal(['20261120T020000Z', '20261121T020000Z']);
    // Other folders stay; a partial copy is cleared away.
    expect(readdirSync(dir).sort()).to.deep.equal([
      '20261122T020000Z',
      '20261123T020000Z',
      '20261124T020000Z',
      'by-hand',
    ]);
  });
});

/**
 * Scheduled backups (`backup.every`, `backup.keep`, `backup.dir`; docs/operations.md): the
 * daemon writes the same consistent copy `household-organizer backup <dir>` writes, into a
 * new folder named by the time, then removes the oldest past `keep`.
 *
 * Backups belong to the whole store, not to a family, so they are not jobs of the family
 * agenda; the schedule is kept by the backups themselves: the next one is due one `every`
 * after the newest in the folder (a cron pattern: its next time after that). A restart, a
 * machine that slept or a daemon that was down past a due time therefore loses nothing and
 * runs one backup, not one per missed time. As the agenda's timer does, one unref'd timer
 * looks at most a minute ahead, so clock jumps cost at most a minute.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { StoreCopies } from '../store/ports.js';
import { backupDir, type Config } from '../config.js';
import type { Metrics } from '../metrics.js';
import { nextBackupAt, parseEvery, type BackupEvery } from './every.js';
import { registerBackupMetrics } from './metrics.js';
import { backupName, newestBackup, PARTIAL_PREFIX, pruneBackups } from './retention.js';

export interface ScheduledBackupDeps {
  store: StoreCopies;
  dir: string;
  every: BackupEvery;
  keep: number;
  now: () => Date;
  logger: Pick<Logger, 'info' | 'error'>;
  /** The zone a cron pattern is read in (default: the machine's). */
  timezone?: string;
}

const MAX_SLEEP_MS = 60_000;
/** A failed backup (a full disk) is tried again this much later, not at every minute. */
const RETRY_AFTER_MS = 10 * 60_000;

export class ScheduledBackups {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<string | null> | null = null;
  private retryAt = 0;
  private stopped = true;
  /** Backups that failed since the start (for /metrics). */
  failures = 0;

  constructor(private readonly d: ScheduledBackupDeps) {}

  /** When the newest complete backup in the folder was taken, or null (for /metrics). */
  newest(): Date | null {
    return newestBackup(this.d.dir);
  }

  /** When the next backup is due, by the injected clock. */
  nextAt(): Date {
    const now = this.d.now();
    const due = nextBackupAt(this.d.every, newestBackup(this.d.dir), now, this.d.timezone);
    return new Date(Math.max(due.getTime(), this.retryAt));
  }

  start(): void {
    this.stopped = false;
    this.arm();
  }

  /** Sets no more timers and waits for a backup being written. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running.catch(() => null);
  }

  /**
   * Writes a backup when one is due (tests that move a fake clock call this instead of waiting
   * for the timer). Answers the new backup's folder, or null when none was due.
   */
  async runDue(): Promise<string | null> {
    if (this.running) return this.running;
    if (this.nextAt() > this.d.now()) return null;
    this.running = this.write().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** 1. copy into a partial folder, 2. rename it complete, 3. prune past `keep`. */
  private async write(): Promise<string> {
    const at = this.d.now();
    const name = backupName(at);
    const partial = join(this.d.dir, `${PARTIAL_PREFIX}${name}`);
    const final = join(this.d.dir, name);
    try {
      mkdirSync(this.d.dir, { recursive: true, mode: 0o700 });
      rmSync(partial, { recursive: true, force: true });
      await this.d.store.backup(partial);
      renameSync(partial, final);
      const removed = pruneBackups(this.d.dir, this.d.keep);
      this.retryAt = 0;
      this.d.logger.info({ backup: final, removed }, 'scheduled backup written');
      return final;
    } catch (err) {
      try {
        rmSync(partial, { recursive: true, force: true });
      } catch {
        /* nothing was made where nothing can be made (the folder is not one) */
      }
      this.retryAt = at.getTime() + RETRY_AFTER_MS;
      this.d.logger.error(
        { err, dir: this.d.dir },
        'scheduled backup failed; trying again in 10 minutes',
      );
      this.failures += 1;
      throw err;
    }
  }

  private arm(): void {
    if (this.stopped) return;
    const delay = Math.min(
      MAX_SLEEP_MS,
      Math.max(0, this.nextAt().getTime() - this.d.now().getTime()),
    );
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runDue()
        .catch(() => null)
        .finally(() => this.arm());
    }, delay);
    this.timer.unref();
  }
}

/**
 * The daemon's scheduled backups from its configuration, started; null while `backup.every`
 * is null. Their figures join /metrics.
 */
export function scheduledBackups(
  config: Pick<Config, 'backup' | 'storage'>,
  d: {
    store: StoreCopies;
    now: () => Date;
    logger: Pick<Logger, 'info' | 'error'>;
    metrics: Pick<Metrics, 'extend'>;
  },
): ScheduledBackups | null {
  if (config.backup.every === null) return null;
  const every = parseEvery(config.backup.every);
  // The configuration was validated: a bad value stopped the start before this.
  if (typeof every === 'string') throw new Error(`backup.every ${every}`);
  const backups = new ScheduledBackups({
    store: d.store,
    dir: backupDir(config),
    every,
    keep: config.backup.keep,
    now: d.now,
    logger: d.logger,
  });
  d.metrics.extend((registry) => registerBackupMetrics(registry, backups));
  backups.start();
  return backups;
}

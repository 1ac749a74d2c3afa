/**
 * Scheduled backups on /metrics: when the newest backup was taken (alert when it is older than
 * `backup.every` allows) and how many failed since the start.
 */
import { Gauge, type Registry } from 'prom-client';

/** What the figures are read from (the daemon's ScheduledBackups). */
export interface BackupFigures {
  newest(): Date | null;
  readonly failures: number;
}

export function registerBackupMetrics(registry: Registry, backups: BackupFigures): void {
  const registers = [registry];
  new Gauge({
    name: 'household_backup_last_success_timestamp_seconds',
    help: 'Unix time of the newest complete scheduled backup in backup.dir (0: none yet)',
    registers,
    collect() {
      this.set((backups.newest()?.getTime() ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'household_backup_failures_total',
    help: 'Scheduled backups that failed since the daemon started',
    registers,
    collect() {
      this.set(backups.failures);
    },
  });
}

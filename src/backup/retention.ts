/**
 * The folder of scheduled backups: one sub-folder per backup, named by the UTC time it was
 * taken (`20261124T020000Z`, the name the README's cron example uses too), holding the store's
 * file. Only folders with that name and a complete copy count: a folder still being written is
 * `.partial-<name>`, and anything else in the folder is left alone.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { STORE_FILE } from '../store/store.js';

const NAME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
export const PARTIAL_PREFIX = '.partial-';

/** The folder name of a backup taken at `at`. */
export function backupName(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

/** The time a backup folder's name says, or null for any other name. */
export function backupTime(name: string): Date | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(t) ? null : new Date(t);
}

function complete(dir: string, name: string): boolean {
  try {
    return statSync(join(dir, name, STORE_FILE)).isFile();
  } catch {
    return false;
  }
}

/**
 * The complete backups in `dir`, oldest first. None when the folder cannot be read (not made
 * yet, or not a folder): the next backup is then due, and writing it reports the real cause.
 */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => backupTime(n) !== null && complete(dir, n)).sort();
}

/** When the newest complete backup in `dir` was taken, or null. */
export function newestBackup(dir: string): Date | null {
  const all = listBackups(dir);
  return all.length ? backupTime(all[all.length - 1]) : null;
}

/**
 * Removes the oldest backups beyond the newest `keep`, and copies left half-written by a
 * backup that was cut short (a crash, a full disk). Answers the names removed.
 */
export function pruneBackups(dir: string, keep: number): string[] {
  const all = listBackups(dir);
  const gone = all.slice(0, Math.max(0, all.length - keep));
  for (const name of gone) rmSync(join(dir, name), { recursive: true, force: true });
  for (const name of readdirSync(dir))
    if (name.startsWith(PARTIAL_PREFIX)) rmSync(join(dir, name), { recursive: true, force: true });
  return gone;
}

/**
 * Start-up failures the operator fixes outside the program — a port in use, an address this
 * machine does not have, a data folder that cannot be created or written. The command line
 * prints their message as one line and exits 78 (README, "Exit codes"), so the message must
 * name the cause and the port, address or folder on its own.
 */
import { constants } from 'node:os';

export class StartupError extends Error {}

const ERRNO_NAMES = new Map<number, string>(
  Object.entries(constants.errno).map(([name, n]) => [n, name]),
);

/** The errno name of a system error: Node's `code` ('EACCES'), or lmdb-js's numeric code (13). */
export function errnoName(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code)) return code;
  if (typeof code === 'number') return ERRNO_NAMES.get(code);
  return undefined;
}

/**
 * The first line of an error with no phrase of its own, ending with its errno name when it has
 * one and does not already say it.
 */
export function errorLine(err: unknown, name: string | undefined): string {
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return name && !message.includes(name) ? `${message} (${name})` : message;
}

/** Who the process runs as, for "must be writable by …" (the usual root-owned bind mount). */
function runningAs(): string {
  return typeof process.getuid === 'function'
    ? `uid ${process.getuid()}`
    : 'the user running Household Organizer';
}

/**
 * A short phrase for a file-system error, ending with its errno name: "permission denied …
 * (EACCES)".
 */
export function explainFsError(err: unknown): string {
  const name = errnoName(err);
  switch (name) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied; it must be writable by ${runningAs()} (${name})`;
    case 'ENOTDIR':
      return `a part of the path is a file, not a folder (${name})`;
    case 'EEXIST':
      return `a file of that name is in the way (${name})`;
    case 'EISDIR':
      return `it is a folder (${name})`;
    case 'EROFS':
      return `the file system is read-only (${name})`;
    case 'ENOSPC':
      return `no space left on the device (${name})`;
    case 'ENOENT':
      return `a folder on the path does not exist (${name})`;
    case undefined:
    default:
      return errorLine(err, name);
  }
}

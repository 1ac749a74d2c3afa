/**
 * Keeps a failed LMDB commit from ending the process. lmdb-js (3.x) creates promises of its own
 * for a commit that nobody can reach: the event-turn batch it starts before our transaction,
 * and the `commitError` promise it stamps on every failed write's error. When the disk refuses
 * a commit, they reject with no handler, and Node's default (`--unhandled-rejections=throw`)
 * turns that into an uncaught exception: the daemon answered one write 507 and then exited
 * (a known lmdb-js defect: nothing attaches a handler to those promises). The store's own
 * write path already receives every failure through the promise it awaits and classifies it
 * (env.ts), so these copies carry nothing new.
 *
 * The listener recognizes only rejections that lmdb-js's writer made; any other unhandled
 * rejection still ends the process as before (it is rethrown, unless something else — a test
 * runner — listens too and decides).
 */

let installed = false;

/** Installs the listener once per process (opening a second store adds nothing). */
export function guardCommitFailures(): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', onUnhandled);
}

function onUnhandled(reason: unknown): void {
  if (isLmdbCommitFailure(reason)) {
    const inner = (reason as { commitError?: Promise<unknown> }).commitError;
    if (inner && typeof inner.catch === 'function') inner.catch(() => undefined);
    return;
  }
  // Not ours: keep Node's default (end the process) unless another listener handles it.
  if (process.listenerCount('unhandledRejection') > 1) return;
  throw reason;
}

/** A rejection lmdb-js's writer made: its "Commit failed" wrapper or the system error under it. */
export function isLmdbCommitFailure(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  if ('commitError' in reason) return true;
  return /[\\/]lmdb[\\/](dist[\\/]index\.cjs|write\.js)/.test(reason.stack ?? '');
}

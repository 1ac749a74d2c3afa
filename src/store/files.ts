/**
 * The store's folder and files on disk: private to the user running the program (folder 0700,
 * files 0600 — the store holds key hashes, every family's records and the plaintext of live
 * plan-share tokens), and failures to create or open them as one line naming the folder.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { StartupError, explainFsError } from '../startup.js';

/** The data folder cannot be created, or the store in it cannot be opened or written. */
export class StoreAccessError extends StartupError {}

/**
 * Creates `dataDir` if missing (0700; an existing folder keeps the mode its owner gave it) and
 * runs `openEnv`, which creates the store's data and `-lock` files. lmdb-js documents no mode
 * option (its native code creates files 0664 less the umask), so the umask is narrowed to 077
 * for the duration of the call: the files are born private, with no moment in which another
 * user could open them. `openEnv` is synchronous, so no other code of this process runs under
 * the narrowed umask.
 */
export function openPrivately<T>(dataDir: string, openEnv: () => T): T {
  const folder = resolve(dataDir);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new StoreAccessError(`cannot create the data folder ${folder}: ${explainFsError(err)}`, {
      cause: err,
    });
  }
  const previous = process.umask(0o077);
  try {
    return openEnv();
  } catch (err) {
    throw new StoreAccessError(`cannot open the store in ${folder}: ${explainFsError(err)}`, {
      cause: err,
    });
  } finally {
    process.umask(previous);
  }
}

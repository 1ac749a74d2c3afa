/**
 * Files the command line writes (exports, backup folders) hold every record of a family and the
 * plaintext of live plan-share tokens (docs/storage.md), so they are private to the user running
 * the program: folders 0700, files 0600, whatever the umask. A path that cannot be written ends
 * the command with one line naming it (exit 1).
 */
import { closeSync, fchmodSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { explainFsError } from '../startup.js';
import { CliFailure, EXIT } from './exit.js';

/** Creates `dir` and any missing parents as 0700; an existing folder keeps its mode. */
export function makePrivateFolder(dir: string, what: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new CliFailure(
      EXIT.refused,
      `cannot create the ${what} ${resolve(dir)}: ${explainFsError(err)}`,
    );
  }
}

/**
 * Writes `text` to `file` as 0600. A file that already exists is truncated and narrowed to
 * 0600 before any of the text is written, so the content is never readable by others.
 */
export function writePrivateFile(file: string, text: string): void {
  makePrivateFolder(dirname(file), 'folder');
  let fd: number | undefined;
  try {
    fd = openSync(file, 'w', 0o600);
    fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
  } catch (err) {
    throw new CliFailure(EXIT.refused, `cannot write ${resolve(file)}: ${explainFsError(err)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

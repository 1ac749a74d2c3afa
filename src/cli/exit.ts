/**
 * How a command ends: its exit code and the text it leaves on stderr. Expected failures are one
 * line naming the cause and the folder, file or port; only a bug prints a stack trace.
 * The codes are the README's (section "Command line").
 */
import { ConfigError } from '../config.js';
import { StoreVersionError } from '../store/errors.js';
import { StartupError } from '../startup.js';
import { DomainError } from '../domain/shared/errors.js';
import { domainCode } from '../door/errors.js';

export const EXIT = {
  ok: 0,
  /**
   * The command was understood but refused or could not be carried out (slug taken, output not
   * writable).
   */
  refused: 1,
  /** The command line is wrong: unknown command, missing argument, no store where it points. */
  usage: 2,
  /** A bug: the message and stack trace are printed. */
  internal: 70,
  /**
   * Configuration, store version, or a start-up failure (port in use, data folder not writable).
   */
  config: 78,
} as const;

/** A wrong command line: the message and the usage text, exit 2. */
export class UsageError extends Error {}

/** An expected failure with its own exit code: one line, no usage text. */
export class CliFailure extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Writes what the failure says to stderr (stdout for domain refusals under --json) and returns the
 * exit code.
 */
export function reportFailure(e: unknown, opts: { json: boolean; usage: string }): number {
  const line = (text: string) => process.stderr.write(`${text}\n`);
  if (e instanceof UsageError) {
    line(`${e.message}\n\n${opts.usage}`);
    return EXIT.usage;
  }
  if (e instanceof CliFailure) {
    line(e.message);
    return e.exitCode;
  }
  if (e instanceof ConfigError || e instanceof StoreVersionError || e instanceof StartupError) {
    line(e.message);
    return EXIT.config;
  }
  if (e instanceof DomainError) {
    if (opts.json)
      process.stdout.write(
        `${JSON.stringify({ ok: false, error: e.message, code: domainCode(e.kind) })}\n`,
      );
    else line(e.message);
    return EXIT.refused;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  line(
    `household-organizer: unexpected error: ${err.message.split('\n')[0]} — this is a bug; please report it with the trace below`,
  );
  line(err.stack ?? String(e));
  return EXIT.internal;
}

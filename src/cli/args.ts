/**
 * Reading the command line: the options parseArgs accepts (every option of helpText.ts's table),
 * the check that a command is given only its own options and arguments, and the short usage a
 * usage error ends with.
 */
import { groupCommands, groupHelp, overview, usageLine } from './help.js';
import { COMMANDS, GLOBAL_OPTIONS, type CommandSpec } from './helpText.js';
import { UsageError } from './exit.js';
import { VERSION } from '../version.js';

/**
 * What parseArgs accepts: every option of the table in helpText.ts (a command's own are checked after).
 */
export const PARSE_OPTIONS = Object.fromEntries(
  [...GLOBAL_OPTIONS, ...COMMANDS.flatMap((c) => c.options)].map((o) => [
    o.name,
    {
      type: o.value ? ('string' as const) : ('boolean' as const),
      ...(o.name === 'help' ? { short: 'h' } : {}),
    },
  ]),
);

/** The options as main reads them (parseArgs types a derived option table loosely). */
export type Values = { [name: string]: string | boolean | undefined } & Partial<
  Record<
    | 'data-dir'
    | 'config'
    | 'port'
    | 'host'
    | 'name'
    | 'timezone'
    | 'scopes'
    | 'person'
    | 'out'
    | 'location'
    | 'locale',
    string
  >
> & { json?: boolean; help?: boolean; version?: boolean };

/**
 * The short usage a usage error ends with: the command's own line, its group's commands, or the
 * overview.
 */
export function usageFor(command: CommandSpec | undefined, firstWord?: string): string {
  if (command)
    return `Usage: ${usageLine(command)}\nRun 'household-organizer ${command.name} --help' for its options and examples.`;
  if (firstWord && groupCommands(firstWord).length) return groupHelp(firstWord);
  return overview(VERSION);
}

/**
 * Options given that `command` does not take, and positionals beyond its arguments: usage errors.
 */
export function checkArguments(
  command: CommandSpec,
  values: Record<string, unknown>,
  positionals: string[],
): void {
  const takes = new Set([...GLOBAL_OPTIONS, ...command.options].map((o) => o.name));
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !takes.has(name))
      throw new UsageError(`${command.name} does not take --${name}`);
  }
  const extra = positionals.slice(command.name.split(' ').length + command.args.length);
  if (!extra.length) return;
  // `npm start --port 8081`: npm keeps `--port` for itself (as npm_config_port) and hands over
  // only the value. Say how to pass it through rather than only that "8081" is unexpected.
  const keptByNpm = [...takes].find((n) => process.env[`npm_config_${n.replace(/-/g, '_')}`]);
  const hint = keptByNpm
    ? `: npm kept --${keptByNpm} for itself; write \`npm start -- --${keptByNpm} ${extra[0]}\``
    : '';
  throw new UsageError(`unexpected argument "${extra[0]}" for ${command.name}${hint}`);
}

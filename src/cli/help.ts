/**
 * The command line's help as text: `--help`, one command's help and a group's, written from the
 * tables of helpText.ts.
 */
import {
  BIN,
  COMMANDS,
  ENVIRONMENT,
  EXIT_CODES,
  GLOBAL_OPTIONS,
  type CommandSpec,
  type OptionSpec,
} from './helpText.js';

/** The command a list of positionals names (`['key', 'create', 'home']` → key create), if any. */
export function findCommand(positionals: readonly string[]): CommandSpec | undefined {
  const two = positionals.slice(0, 2).join(' ');
  return COMMANDS.find((c) => c.name === two) ?? COMMANDS.find((c) => c.name === positionals[0]);
}

/** Commands under a group word (`family`, `key`). */
export function groupCommands(word: string): CommandSpec[] {
  return COMMANDS.filter((c) => c.name.startsWith(`${word} `));
}

function flag(o: OptionSpec): string {
  return `--${o.name}${o.value ? ` ${o.value}` : ''}`;
}

function table(rows: [string, string][], indent = 2): string {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${' '.repeat(indent)}${a.padEnd(width)}  ${b}`).join('\n');
}

export function usageLine(c: CommandSpec): string {
  return [BIN, c.name, ...c.args, ...c.options.map((o) => `[${flag(o)}]`)].join(' ');
}

/**
 * `household-organizer --help`: every command, the common options, the environment and the exit
 * codes.
 */
export function overview(version: string): string {
  return [
    `${BIN} ${version}: a self-hosted household organizer (JSON REST API daemon)`,
    '',
    `Usage: ${BIN} <command> [options]`,
    '',
    'Commands:',
    table(COMMANDS.map((c) => [[c.name, ...c.args].join(' '), c.summary])),
    '',
    'Options for every command:',
    table(GLOBAL_OPTIONS.map((o) => [flag(o), o.text])),
    '',
    'Environment (config/default.json < --config file < environment < flags):',
    table(ENVIRONMENT),
    '',
    'Exit codes:',
    table(EXIT_CODES.map(([code, text]) => [String(code), text])),
    '',
    `Run '${BIN} <command> --help' for a command's options and examples.`,
  ].join('\n');
}

/** `household-organizer <command> --help`: usage, what it does, its options and examples. */
export function commandHelp(c: CommandSpec): string {
  const options = c.options.length
    ? ['Options:', table(c.options.map((o) => [flag(o), o.text])), '']
    : [];
  const environment = c.name === 'serve' ? ['Environment:', table(ENVIRONMENT), ''] : [];
  return [
    `Usage: ${usageLine(c)}`,
    '',
    ...c.details,
    '',
    ...options,
    `Options for every command: ${GLOBAL_OPTIONS.filter(
      (o) => o.name !== 'help' && o.name !== 'version',
    )
      .map(flag)
      .join(', ')}`,
    '',
    ...environment,
    'Examples:',
    ...c.examples.map((e) => `  ${e}`),
    '',
    `Exit codes: ${EXIT_CODES.map(([code, text]) => `${code} ${text.split(':')[0]}`).join(', ')} (${BIN} --help says more)`,
  ].join('\n');
}

/** `household-organizer family --help`: the commands of a group. */
export function groupHelp(word: string): string {
  const list = groupCommands(word);
  return [
    `Usage: ${BIN} ${word} <${list.map((c) => c.name.split(' ')[1]).join('|')}> …`,
    '',
    table(list.map((c) => [[c.name, ...c.args].join(' '), c.summary])),
    '',
    `Run '${BIN} ${word} <command> --help' for its options and examples.`,
  ].join('\n');
}

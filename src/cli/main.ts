/**
 * The command line (README.md): serve, family create|list, key create|list|revoke, backup,
 * export, import. `--json` for machine-readable output, `--data-dir` and `--config` everywhere.
 * Every command but `serve` opens the store briefly, so they work while `serve` runs.
 * Only `serve`, `family create` and `import` may start a new store: the others, pointed at a
 * folder without one (a mistyped `--data-dir`), refuse instead of reading an empty store.
 * Usage, options and examples of each command are in helpText.ts, which `--help` prints
 * (help.ts) and which says which options a command takes (any other is a usage error, so a typo
 * cannot pass).
 * Reading the arguments is in args.ts; `serve` in serve.ts; the commands in commands.ts, over
 * the topology the configuration names (topology.ts): with a cluster section every command
 * acts on the cluster; `backup` then writes one export per family, and `cluster
 * restore|import` (cli/cluster.ts) put whole families into a cluster.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { UsageError, EXIT, reportFailure } from './exit.js';
import { commandHelp, findCommand, groupCommands, groupHelp, overview } from './help.js';
import type { CommandSpec } from './helpText.js';
import { PARSE_OPTIONS, checkArguments, usageFor, type Values } from './args.js';
import { serve } from './serve.js';
import { VERSION } from '../version.js';

/** Words that start a group of commands (`family create`). */
const GROUPS = new Set(['family', 'key', 'grant', 'cluster']);

/** Whether every required argument of `spec` is there (else its case says which is missing). */
function argumentsGiven(spec: CommandSpec, pos: string[]): boolean {
  const required = spec.args.filter((a) => a.startsWith('<')).length;
  return pos.length - spec.name.split(' ').length >= required;
}

type Parsed = { values: Values; positionals: string[] };

/** The command line as parseArgs reads it, or the exit code of a usage error. */
function parse(argv: string[]): Parsed | number {
  try {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: PARSE_OPTIONS });
    return { values: parsed.values, positionals: parsed.positionals };
  } catch (e) {
    const words = argv.filter((a) => !a.startsWith('-'));
    // parseArgs explains an unknown option at length (how to pass a positional starting with -).
    const unknown =
      (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? /'(-[^']*)'/.exec((e as Error).message)
        : null;
    const message = unknown ? `unknown option ${unknown[1]}` : (e as Error).message;
    process.stderr.write(`${message}\n\n${usageFor(findCommand(words), words[0])}\n`);
    return EXIT.usage;
  }
}

/** `--version`, `help [command]`, `[command] --help`, or no command: the exit code, else null. */
function helpOrVersion(v: Values, pos: string[]): number | null {
  if (v.version) {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const helpWanted = v.help === true || pos[0] === 'help';
  const words = pos[0] === 'help' ? pos.slice(1) : pos;
  if (!helpWanted && pos.length > 0) return null;
  const command = findCommand(words);
  const text =
    words.length === 0
      ? overview(VERSION)
      : command
        ? commandHelp(command)
        : groupCommands(words[0]).length
          ? groupHelp(words[0])
          : null;
  if (text === null) {
    process.stderr.write(`unknown command "${words.join(' ')}"\n\n${overview(VERSION)}\n`);
    return EXIT.usage;
  }
  // Help that was asked for goes to stdout; the overview for no command at all is a usage error.
  if (helpWanted) process.stdout.write(`${text}\n`);
  else process.stderr.write(`${text}\n`);
  return helpWanted ? EXIT.ok : EXIT.usage;
}

/** The port option, checked. */
function portOf(v: Values): number | undefined {
  if (v.port === undefined) return undefined;
  const port = Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a port number, got "${v.port}"`);
  return port;
}

export async function main(argv: string[]): Promise<number> {
  // Everything this program writes — the store, backups, exports and their folders — holds the
  // household's data and live share tokens, so nothing it creates is readable by other users.
  process.umask(0o077);
  const parsed = parse(argv);
  if (typeof parsed === 'number') return parsed;
  const { values: v, positionals: pos } = parsed;
  const early = helpOrVersion(v, pos);
  if (early !== null) return early;
  const spec = findCommand(pos);
  const json = v.json === true;
  try {
    return await run(v, pos, spec, json);
  } catch (e) {
    return reportFailure(e, { json, usage: usageFor(spec, pos[0]) });
  }
}

/** A command, checked and run on the topology the configuration names. */
async function run(
  v: Values,
  pos: string[],
  spec: CommandSpec | undefined,
  json: boolean,
): Promise<number> {
  if (spec) checkArguments(spec, v, pos);
  else if (groupCommands(pos[0]).length) {
    throw new UsageError(
      `${pos[0]} needs a command: ${groupCommands(pos[0])
        .map((c) => c.name.split(' ')[1])
        .join(', ')}`,
    );
  }
  const config = loadConfig({
    configFile: v.config,
    flags: {
      port: portOf(v),
      host: v.host,
      dataDir: v['data-dir'],
      ...(v['no-setup'] === true ? { setup: false } : {}),
    },
  });
  const [cmd, sub, arg] = pos;
  if (cmd === 'serve') return await serve(config);
  // Loaded only for a command that runs one: `--help`, a usage error and `serve` do not pay for
  // the store, the cluster client and every command's modules at start.
  const [{ COMMAND_TABLE }, { openCommandTopology }] = await Promise.all([
    import('./commands.js'),
    import('./topology.js'),
  ]);
  const command = `${cmd} ${GROUPS.has(cmd) ? (sub ?? '') : ''}`.trim();
  const perform = Object.hasOwn(COMMAND_TABLE, command) ? COMMAND_TABLE[command] : undefined;
  if (!perform) throw new UsageError(`unknown command "${pos.join(' ')}"`);
  // With a cluster section, the command joins first unless an argument is missing (a usage
  // error next).
  const topology = await openCommandTopology(
    config,
    command,
    spec !== undefined && argumentsGiven(spec, pos),
  );
  try {
    const said = await perform({
      config,
      topology,
      v,
      arg,
      sub,
      json,
      write: (text) => process.stdout.write(text),
    });
    if (said) process.stdout.write(json ? `${JSON.stringify(said.machine)}\n` : `${said.human}\n`);
    return EXIT.ok;
  } finally {
    await topology.close();
  }
}

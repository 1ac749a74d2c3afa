/**
 * The command line (README.md): serve, family create|list, key create|list|revoke, backup,
 * export, import. `--json` for machine-readable output, `--data-dir` and `--config` everywhere.
 * Every command but `serve` opens the store briefly, so they work while `serve` runs.
 * Only `serve`, `family create` and `import` may start a new store: the others, pointed at a
 * folder without one (a mistyped `--data-dir`), refuse instead of reading an empty store.
 * Usage, options and examples of each command are in help.ts, which `--help` prints and which
 * says which options a command takes (any other is a usage error, so a typo cannot pass).
 * Reading the arguments is in args.ts; `serve` in serve.ts.
 * With a cluster section in the configuration every command acts on the cluster through a
 * temporary store that follows it (cluster/cliStore.ts); `backup` then writes one export per
 * family, and `cluster restore|import` (cli/cluster.ts) put whole families into a cluster.
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultFamilyZone, loadConfig, publicBase } from '../config.js';
import { HouseholdAccess } from '../family/access.js';
import { Store, STORE_FILE } from '../store/store.js';
import {
  createFamily,
  createKey,
  queueFamilyUpdate,
  revokeKey,
  waitForQueuedUpdate,
} from '../family/admin.js';
import { keyWithoutHash } from '../family/keys.js';
import { listGrants, revokeGrantInStore } from '../oauth/grantStore.js';
import { grantView } from '../domain/oauth/grants.js';
import { SCOPES } from '../family/scopes.js';
import { createIdGenerator } from '../domain/shared/ids.js';
import { Conflict, DomainError, NotFound } from '../domain/shared/errors.js';
import { exportFamily, importFamily } from '../store/portable.js';
import { openClusterStore, portableWhole, type ClusterStore } from '../cluster/cliStore.js';
import type { Scope } from '../store/types.js';
import { explainFsError } from '../startup.js';
import { CliFailure, EXIT, UsageError, reportFailure } from './exit.js';
import { makePrivateFolder, writePrivateFile } from './output.js';
import {
  commandHelp,
  findCommand,
  groupCommands,
  groupHelp,
  overview,
  type CommandSpec,
} from './help.js';
import { PARSE_OPTIONS, checkArguments, usageFor, type Values } from './args.js';
import { serve } from './serve.js';
import { clusterBackup, putFamilies, readBackup, readEmbeddedStore } from './cluster.js';
import { VERSION } from '../version.js';

/** How long `family update` waits for a running daemon to apply it (it polls every 100 ms). */
const QUEUED_UPDATE_WAIT_MS = 1_500;
/** On a cluster the owner may first have to take the family (catch its log up): longer. */
const QUEUED_UPDATE_WAIT_CLUSTER_MS = 5_000;
/**
 * Commands besides `serve` that may create a store where there is none: a new family, a restore.
 */
const MAY_CREATE_STORE = new Set(['family create', 'import']);

/**
 * The store for `command`, refusing (exit 2) to invent one where `command` only reads or adds to
 * one.
 */
function openStoreFor(command: string, dataDir: string): Store {
  if (!MAY_CREATE_STORE.has(command) && !Store.exists(dataDir)) {
    throw new CliFailure(
      EXIT.usage,
      `no store in ${resolve(dataDir)} (no ${STORE_FILE} there); check --data-dir, HOUSEHOLD_DATA_DIR or storage.dataDir ` +
        '(only serve, family create and import start a new store)',
    );
  }
  return Store.open(dataDir);
}

/** Words that start a group of commands (`family create`). */
const GROUPS = new Set(['family', 'key', 'grant', 'cluster']);

/** Whether every required argument of `spec` is there (else its case says which is missing). */
function argumentsGiven(spec: CommandSpec, pos: string[]): boolean {
  const required = spec.args.filter((a) => a.startsWith('<')).length;
  return pos.length - spec.name.split(' ').length >= required;
}

export async function main(argv: string[]): Promise<number> {
  // Everything this program writes — the store, backups, exports and their folders — holds the
  // household's data and live share tokens, so nothing it creates is readable by other users.
  process.umask(0o077);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: PARSE_OPTIONS });
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
  const v = parsed.values as Values;
  const pos = parsed.positionals;
  if (v.version) {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  // `help [command]` is `[command] --help`.
  const helpWanted = v.help === true || pos[0] === 'help';
  const words = pos[0] === 'help' ? pos.slice(1) : pos;
  if (helpWanted || pos.length === 0) {
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
  const spec = findCommand(pos);
  const json = v.json === true;
  const out = (human: string, machine: unknown) =>
    process.stdout.write(json ? `${JSON.stringify(machine)}\n` : `${human}\n`);
  try {
    if (spec) checkArguments(spec, v, pos);
    else if (groupCommands(pos[0]).length) {
      throw new UsageError(
        `${pos[0]} needs a command: ${groupCommands(pos[0])
          .map((c) => c.name.split(' ')[1])
          .join(', ')}`,
      );
    }
    let port: number | undefined;
    if (v.port !== undefined) {
      port = Number(v.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--port must be a port number, got "${v.port}"`);
    }
    const config = loadConfig({
      configFile: v.config,
      flags: {
        port,
        host: v.host,
        dataDir: v['data-dir'],
        ...(v['no-setup'] === true ? { setup: false } : {}),
      },
    });
    const [cmd, sub, arg] = pos;
    if (cmd === 'serve') return await serve(config);
    const command = `${cmd} ${GROUPS.has(cmd) ? (sub ?? '') : ''}`.trim();
    // Opened on first use, after the command's own arguments are checked.
    let opened: Store | undefined;
    // With a cluster section, every command acts on the cluster through a temporary store
    // (cluster/cliStore.ts); it joins first unless an argument is missing (a usage error next).
    let cs: ClusterStore | undefined;
    if (config.cluster && spec && argumentsGiven(spec, pos)) {
      cs = await openClusterStore(config.cluster);
      opened = cs.store;
    } else if (cmd === 'cluster' && spec && !config.cluster) {
      throw new CliFailure(
        EXIT.usage,
        `${command} acts on a cluster: give a configuration with a cluster section ` +
          '(or HOUSEHOLD_NATS_SERVERS, HOUSEHOLD_NODE_NAME, HOUSEHOLD_ADVERTISE_URL, ' +
          'HOUSEHOLD_CLUSTER_SECRET)',
      );
    }
    const store = () => (opened ??= openStoreFor(command, config.storage.dataDir));
    const now = new Date();
    const newId = createIdGenerator(
      () => Date.now(),
      (n) => randomBytes(n),
    );
    try {
      switch (command) {
        case 'family create': {
          if (!arg) throw new UsageError('family create needs a slug');
          const made = await createFamily(
            store(),
            { slug: arg, name: v.name, timezone: v.timezone },
            { now, newId, defaultTimezone: defaultFamilyZone(config), withKey: 'admin' },
          );
          const { id, slug, name, timezone } = made.family;
          out(
            `Created family "${slug}" (${name}, ${timezone}).\nAdmin API key (shown only once): ${made.apiKey}`,
            { family: { id, slug, name, timezone }, apiKey: made.apiKey },
          );
          return EXIT.ok;
        }
        case 'family update': {
          if (!arg) throw new UsageError('family update needs a slug');
          if (v.name === undefined && v.timezone === undefined && v.location === undefined) {
            throw new UsageError(
              'family update needs at least one of --name, --timezone, --location',
            );
          }
          const { family, queued } = await queueFamilyUpdate(
            store(),
            arg,
            { name: v.name, timezone: v.timezone, location: v.location },
            { now, id: randomBytes(10).toString('hex') },
          );
          // A running daemon applies it on the family's actor within a fraction of a second.
          const waitMs = cs ? QUEUED_UPDATE_WAIT_CLUSTER_MS : QUEUED_UPDATE_WAIT_MS;
          const applied = await waitForQueuedUpdate(store(), queued, waitMs);
          const { id, slug, name, timezone, location } = applied
            ? (store().getFamily(family.id) ?? family)
            : family;
          const what = `"${slug}" (${name}, ${timezone}${location ? `, ${location}` : ''})`;
          out(
            applied
              ? `Updated family ${what}; the running daemon re-planned its reminders and routines.`
              : `Queued the update of family ${what}: no running daemon took it within ${waitMs / 1000} s, so it is applied (with its re-planning) when the daemon next loads the family.`,
            { family: { id, slug, name, timezone, location: location ?? null }, applied },
          );
          return EXIT.ok;
        }
        case 'family list': {
          const families = store().listFamilies();
          out(
            families.map((f) => `${f.slug}\t${f.name}\t${f.timezone}\t${f.id}`).join('\n') ||
              '(no families)',
            { families },
          );
          return EXIT.ok;
        }
        case 'key create': {
          if (!arg) throw new UsageError('key create needs a family slug');
          const scopes = v.scopes
            ? (v.scopes
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean) as Scope[])
            : [...SCOPES];
          // The person is one of the family's records: on a cluster, read its log first.
          if (cs && v.person) await cs.catchUp(arg);
          const made = await createKey(
            store(),
            arg,
            { name: v.name, scopes, personId: v.person ?? null },
            now,
          );
          const k = made.record;
          out(
            `Created key ${k.id} "${k.name}" (${k.scopes.join(', ')}${k.personId ? `, acting for ${k.personId}` : ''}).\nAPI key (shown only once): ${made.apiKey}`,
            {
              key: { id: k.id, name: k.name, scopes: k.scopes, personId: k.personId },
              apiKey: made.apiKey,
            },
          );
          return EXIT.ok;
        }
        case 'open': {
          if (!sub) throw new UsageError('open needs a family slug');
          const link = await new HouseholdAccess(store()).createLink(sub, now);
          const base = config.server.publicUrl
            ? publicBase(config.server.publicUrl)
            : `http://localhost:${config.server.port}`;
          const url = `${base}/signin?link=${link.apiKey}`;
          out(`Open this link within 10 minutes to sign in to "${sub}" (it works once):\n${url}`, {
            url,
            expiresAt: link.expiresAt,
          });
          return EXIT.ok;
        }
        case 'key list': {
          if (!arg) throw new UsageError('key list needs a family slug');
          const family = store().getFamilyBySlug(arg);
          if (!family) throw new NotFound(`no family with slug "${arg}"`);
          const list = store().listKeys(family.id).map(keyWithoutHash);
          out(
            list
              .map(
                (k) =>
                  `${k.id}\t${k.name}\t${k.scopes.join(',')}\t${k.personId ?? '-'}\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\tlast used ${k.lastUsedAt ?? 'never'}`,
              )
              .join('\n') || '(no keys)',
            { keys: list },
          );
          return EXIT.ok;
        }
        case 'key revoke': {
          if (!arg) throw new UsageError('key revoke needs a key id');
          const k = await revokeKey(store(), arg, now);
          out(`Revoked key ${k.id} "${k.name}".`, { key: keyWithoutHash(k) });
          return EXIT.ok;
        }
        case 'grant list': {
          if (!arg) throw new UsageError('grant list needs a family slug');
          const family = store().getFamilyBySlug(arg);
          if (!family) throw new NotFound(`no family with slug "${arg}"`);
          const list = listGrants(store(), family.id).map(grantView);
          out(
            list
              .map(
                (g) =>
                  `${g.id}\t${g.clientName}\t${g.scopes.join(',')}\tapproved with key ${g.approvedByKeyId}\t${g.revokedAt ? `revoked ${g.revokedAt}` : 'active'}`,
              )
              .join('\n') || '(no grants)',
            { grants: list },
          );
          return EXIT.ok;
        }
        case 'grant revoke': {
          if (!arg) throw new UsageError('grant revoke needs a grant id');
          const outcome = await revokeGrantInStore(store(), arg, now);
          if (!outcome) throw new NotFound(`no grant "${arg}"`);
          if (outcome.already) throw new Conflict(`grant "${arg}" was already revoked`);
          out(`Revoked grant ${arg} of "${outcome.grant.clientName}".`, {
            grant: grantView(outcome.grant),
          });
          return EXIT.ok;
        }
        case 'backup': {
          if (!sub) throw new UsageError('backup needs a target directory');
          if (cs) {
            const made = await clusterBackup(cs, sub, now);
            out(
              `Backup of ${made.families.length} families written to ${resolve(sub)} (manifest ${made.manifest})`,
              { backup: resolve(sub), manifest: made.manifest, families: made.families },
            );
            return EXIT.ok;
          }
          const source = store();
          makePrivateFolder(sub, 'backup folder');
          let file: string;
          try {
            file = await source.backup(sub);
          } catch (e) {
            if (e instanceof DomainError) throw e;
            throw new CliFailure(
              EXIT.refused,
              `cannot write the backup to ${resolve(join(sub, STORE_FILE))}: ${explainFsError(e)}`,
            );
          }
          out(`Backup written to ${file}`, { backup: file });
          return EXIT.ok;
        }
        case 'export': {
          if (!sub) throw new UsageError('export needs a family slug');
          if (cs) await cs.catchUp(sub);
          const exported = exportFamily(store(), sub, now);
          const doc = JSON.stringify(cs ? portableWhole(exported) : exported, null, 1);
          if (v.out) {
            writePrivateFile(v.out, doc);
            if (!json) process.stderr.write(`Exported "${sub}" to ${v.out}\n`);
            else out('', { exported: sub, file: v.out });
          } else {
            process.stdout.write(`${doc}\n`);
          }
          return EXIT.ok;
        }
        case 'import': {
          if (!sub) throw new UsageError('import needs a file');
          let data: unknown;
          try {
            data = JSON.parse(readFileSync(sub, 'utf8'));
          } catch (e) {
            throw new UsageError(`cannot read ${sub}: ${(e as Error).message}`);
          }
          const family = await importFamily(store(), data);
          out(`Imported family "${family.slug}".`, { family });
          return EXIT.ok;
        }
        case 'cluster restore':
        case 'cluster import': {
          if (!arg) throw new UsageError(`${command} needs a folder`);
          const docs = sub === 'restore' ? readBackup(arg) : await readEmbeddedStore(arg);
          const put = await putFamilies(cs!, docs);
          const c = put.counts;
          out(
            `${sub === 'restore' ? 'Restored' : 'Imported'} ${c.families} families ` +
              `(${c.keys} keys, ${c.records} records, ${c.changes} changes) into the cluster` +
              (put.families.length ? `: ${put.families.map((f) => f.slug).join(', ')}` : ''),
            { families: put.families, counts: c },
          );
          return EXIT.ok;
        }
        default:
          throw new UsageError(`unknown command "${pos.join(' ')}"`);
      }
    } finally {
      await (cs ? cs.close() : opened?.close());
    }
  } catch (e) {
    return reportFailure(e, { json, usage: usageFor(spec, pos[0]) });
  }
}

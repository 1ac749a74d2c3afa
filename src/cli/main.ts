/**
 * The command line (DESIGN §12): serve, family create|list, key create|list|revoke, backup,
 * export, import. `--json` for machine-readable output, `--data-dir` and `--config` everywhere.
 * Every command but `serve` opens the store briefly, so they work while `serve` runs.
 */
import { parseArgs } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { loadConfig, ConfigError, type Config } from '../config.js';
import { Store, StoreVersionError } from '../store/store.js';
import { createFamily, createKey, revokeKey, publicKey, SCOPES, updateFamily } from '../family/keys.js';
import { createIdGenerator } from '../domain/shared/ids.js';
import { DomainError } from '../domain/shared/errors.js';
import { exportFamily, importFamily } from '../store/portable.js';
import type { Scope } from '../store/types.js';
import '../domain/register.js';

const USAGE = `household-organizer <command> [options]

Commands:
  serve                                   run the daemon
  family create <slug> [--name N] [--timezone TZ]
  family update <slug> [--name N] [--timezone TZ] [--location PLACE|lat,lon|""]
  family list
  key create <slug> [--scopes read,write,admin] [--person ID] [--name N]
  key list <slug>
  key revoke <keyId>
  backup <dir>                            consistent copy of the store (safe while serving)
  export <slug> [--out FILE]              one family as JSON (stdout without --out)
  import <file>                           restore a family export

Options everywhere: --data-dir DIR, --config FILE, --json
serve also takes: --port N, --host H`;

class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean', default: false },
        port: { type: 'string' }, host: { type: 'string' }, name: { type: 'string' }, timezone: { type: 'string' },
        scopes: { type: 'string' }, person: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' },
        location: { type: 'string' },
      },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values: v, positionals: pos } = parsed;
  if (v.help || pos.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return pos.length === 0 && !v.help ? 2 : 0;
  }
  const json = v.json === true;
  const out = (human: string, machine: unknown) => process.stdout.write(json ? `${JSON.stringify(machine)}\n` : `${human}\n`);
  try {
    let port: number | undefined;
    if (v.port !== undefined) {
      port = Number(v.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, got "${v.port}"`);
    }
    const config = loadConfig({ configFile: v.config, flags: { port, host: v.host, dataDir: v['data-dir'] } });
    const [cmd, sub, arg] = pos;
    if (cmd === 'serve') return await serve(config);
    const store = Store.open(config.storage.dataDir);
    const now = new Date();
    const newId = createIdGenerator(() => Date.now(), (n) => randomBytes(n));
    try {
      switch (`${cmd} ${cmd === 'family' || cmd === 'key' ? sub ?? '' : ''}`.trim()) {
        case 'family create': {
          if (!arg) throw new UsageError('family create needs a slug');
          const made = await createFamily(store, { slug: arg, name: v.name, timezone: v.timezone },
            { now, newId, defaultTimezone: config.families.defaultTimezone, withKey: 'admin' });
          const { id, slug, name, timezone } = made.family;
          out(`Created family "${slug}" (${name}, ${timezone}).\nAdmin API key (shown only once): ${made.apiKey}`,
            { family: { id, slug, name, timezone }, apiKey: made.apiKey });
          return 0;
        }
        case 'family update': {
          if (!arg) throw new UsageError('family update needs a slug');
          if (v.name === undefined && v.timezone === undefined && v.location === undefined) {
            throw new UsageError('family update needs at least one of --name, --timezone, --location');
          }
          const family = await updateFamily(store, arg, { name: v.name, timezone: v.timezone, location: v.location });
          const { id, slug, name, timezone, location } = family;
          out(`Updated family "${slug}" (${name}, ${timezone}${location ? `, ${location}` : ''}).`,
            { family: { id, slug, name, timezone, location: location ?? null } });
          return 0;
        }
        case 'family list': {
          const families = store.listFamilies();
          out(families.map((f) => `${f.slug}\t${f.name}\t${f.timezone}\t${f.id}`).join('\n') || '(no families)', { families });
          return 0;
        }
        case 'key create': {
          if (!arg) throw new UsageError('key create needs a family slug');
          const scopes = v.scopes ? v.scopes.split(',').map((s) => s.trim()).filter(Boolean) as Scope[] : [...SCOPES];
          const made = await createKey(store, arg, { name: v.name, scopes, personId: v.person ?? null }, now);
          const k = made.record;
          out(`Created key ${k.id} "${k.name}" (${k.scopes.join(', ')}${k.personId ? `, acting for ${k.personId}` : ''}).\nAPI key (shown only once): ${made.apiKey}`,
            { key: { id: k.id, name: k.name, scopes: k.scopes, personId: k.personId }, apiKey: made.apiKey });
          return 0;
        }
        case 'key list': {
          if (!arg) throw new UsageError('key list needs a family slug');
          const family = store.getFamilyBySlug(arg);
          if (!family) throw new UsageError(`no family with slug "${arg}"`);
          const list = store.listKeys(family.id).map(publicKey);
          out(list.map((k) => `${k.id}\t${k.name}\t${k.scopes.join(',')}\t${k.personId ?? '-'}\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\tlast used ${k.lastUsedAt ?? 'never'}`).join('\n') || '(no keys)', { keys: list });
          return 0;
        }
        case 'key revoke': {
          if (!arg) throw new UsageError('key revoke needs a key id');
          const k = await revokeKey(store, arg, now);
          out(`Revoked key ${k.id} "${k.name}".`, { key: publicKey(k) });
          return 0;
        }
        case 'backup': {
          if (!sub) throw new UsageError('backup needs a target directory');
          const file = await store.backup(sub);
          out(`Backup written to ${file}`, { backup: file });
          return 0;
        }
        case 'export': {
          if (!sub) throw new UsageError('export needs a family slug');
          const doc = JSON.stringify(exportFamily(store, sub, now), null, 1);
          if (v.out) {
            writeFileSync(v.out, doc);
            if (!json) process.stderr.write(`Exported "${sub}" to ${v.out}\n`);
            else out('', { exported: sub, file: v.out });
          } else {
            process.stdout.write(`${doc}\n`);
          }
          return 0;
        }
        case 'import': {
          if (!sub) throw new UsageError('import needs a file');
          let data: unknown;
          try { data = JSON.parse(readFileSync(sub, 'utf8')); } catch (e) { throw new UsageError(`cannot read ${sub}: ${(e as Error).message}`); }
          const family = await importFamily(store, data);
          out(`Imported family "${family.slug}".`, { family });
          return 0;
        }
        default:
          throw new UsageError(`unknown command "${pos.join(' ')}"`);
      }
    } finally {
      await store.close();
    }
  } catch (e) {
    if (e instanceof UsageError) { process.stderr.write(`${e.message}\n\n${USAGE}\n`); return 2; }
    if (e instanceof ConfigError || e instanceof StoreVersionError) { process.stderr.write(`${e.message}\n`); return 78; }
    if (e instanceof DomainError) {
      if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: e.message, code: e.code })}\n`);
      else process.stderr.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

async function serve(config: Config): Promise<number> {
  const { startDaemon } = await import('../server.js');
  const daemon = await startDaemon(config);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`received ${signal}, stopping\n`);
      // Orderly shutdown must finish within 10 s.
      setTimeout(() => { process.stderr.write('shutdown took too long; exiting\n'); process.exit(1); }, 10_000).unref();
      daemon.close().then(resolve, (err) => { process.stderr.write(`shutdown failed: ${String(err)}\n`); process.exit(1); });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

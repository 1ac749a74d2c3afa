/**
 * The commands besides `serve`, one function each, over whatever topology the configuration
 * names (topology.ts): each checks its own arguments, acts on the store, and says what it did
 * (a line for people, a document under --json). main.ts reads the command line and picks one.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { defaultFamilyZone, publicBase, type Config } from '../config.js';
import { HouseholdAccess } from '../family/access.js';
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
import { Conflict, NotFound } from '../domain/shared/errors.js';
import { exportFamily, importFamily } from '../store/portable.js';
import type { Scope } from '../store/types.js';
import { UsageError } from './exit.js';
import { familyLocale } from '../domain/shared/state.js';
import { writePrivateFile } from './output.js';
import type { Values } from './args.js';
import { readBackup, readEmbeddedStore } from './cluster.js';
import type { CommandTopology, Said } from './topology.js';

export interface CommandContext {
  config: Config;
  topology: CommandTopology;
  /** The option values and the words after the command's name (`family create home` → home). */
  v: Values;
  arg: string | undefined;
  /** The second word (`backup <dir>`, `export <slug>`, `import <file>`). */
  sub: string | undefined;
  json: boolean;
  /** Writes a command's own output (export's document) to stdout. */
  write(text: string): void;
}

type Command = (c: CommandContext) => Promise<Said | null>;

async function familyCreate({ topology, config, v, arg }: CommandContext): Promise<Said> {
  if (!arg) throw new UsageError('family create needs a slug');
  const now = new Date();
  const newId = createIdGenerator(
    () => Date.now(),
    (n) => randomBytes(n),
  );
  const made = await createFamily(
    topology.store(),
    { slug: arg, name: v.name, timezone: v.timezone, locale: v.locale },
    { now, newId, defaultTimezone: defaultFamilyZone(config), withKey: 'admin' },
  );
  const { id, slug, name, timezone } = made.family;
  const locale = familyLocale(made.family);
  return {
    human: `Created family "${slug}" (${name}, ${timezone}, ${locale}).\nAdmin API key (shown only once): ${made.apiKey}`,
    machine: { family: { id, slug, name, timezone, locale }, apiKey: made.apiKey },
  };
}

async function familyUpdate({ topology, v, arg }: CommandContext): Promise<Said> {
  if (!arg) throw new UsageError('family update needs a slug');
  if ([v.name, v.timezone, v.location, v.locale].every((x) => x === undefined)) {
    throw new UsageError(
      'family update needs at least one of --name, --timezone, --location, --locale',
    );
  }
  const store = topology.store();
  const { family, queued } = await queueFamilyUpdate(
    store,
    arg,
    { name: v.name, timezone: v.timezone, location: v.location, locale: v.locale },
    { now: new Date(), id: randomBytes(10).toString('hex') },
  );
  // A running daemon applies it on the family's actor within a fraction of a second.
  const waitMs = topology.queuedUpdateWaitMs;
  const applied = await waitForQueuedUpdate(store, queued, waitMs);
  const now = applied ? (store.getFamily(family.id) ?? family) : family;
  const { id, slug, name, timezone, location } = now;
  const locale = familyLocale(now);
  const what = `"${slug}" (${name}, ${timezone}${location ? `, ${location}` : ''}, ${locale})`;
  return {
    human: applied
      ? `Updated family ${what}; the running daemon re-planned its reminders and routines.`
      : `Queued the update of family ${what}: no running daemon took it within ${waitMs / 1000} s, so it is applied (with its re-planning) when the daemon next loads the family.`,
    machine: { family: { id, slug, name, timezone, location: location ?? null, locale }, applied },
  };
}

function familyList({ topology }: CommandContext): Promise<Said> {
  const families = topology.store().listFamilies();
  return Promise.resolve({
    human:
      families.map((f) => `${f.slug}\t${f.name}\t${f.timezone}\t${f.id}`).join('\n') ||
      '(no families)',
    machine: { families },
  });
}

async function keyCreate({ topology, v, arg }: CommandContext): Promise<Said> {
  if (!arg) throw new UsageError('key create needs a family slug');
  const scopes = v.scopes
    ? (v.scopes
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean) as Scope[])
    : [...SCOPES];
  // The person is one of the family's records: on a cluster, read its log first.
  if (v.person) await topology.catchUp(arg);
  const made = await createKey(
    topology.store(),
    arg,
    { name: v.name, scopes, personId: v.person ?? null },
    new Date(),
  );
  const k = made.record;
  return {
    human: `Created key ${k.id} "${k.name}" (${k.scopes.join(', ')}${k.personId ? `, acting for ${k.personId}` : ''}).\nAPI key (shown only once): ${made.apiKey}`,
    machine: {
      key: { id: k.id, name: k.name, scopes: k.scopes, personId: k.personId },
      apiKey: made.apiKey,
    },
  };
}

function keyList({ topology, arg }: CommandContext): Promise<Said> {
  if (!arg) throw new UsageError('key list needs a family slug');
  const family = topology.store().getFamilyBySlug(arg);
  if (!family) throw new NotFound(`no family with slug "${arg}"`);
  const list = topology.store().listKeys(family.id).map(keyWithoutHash);
  return Promise.resolve({
    human:
      list
        .map(
          (k) =>
            `${k.id}\t${k.name}\t${k.scopes.join(',')}\t${k.personId ?? '-'}\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\tlast used ${k.lastUsedAt ?? 'never'}`,
        )
        .join('\n') || '(no keys)',
    machine: { keys: list },
  });
}

async function keyRevoke({ topology, arg }: CommandContext): Promise<Said> {
  if (!arg) throw new UsageError('key revoke needs a key id');
  const k = await revokeKey(topology.store(), arg, new Date());
  return { human: `Revoked key ${k.id} "${k.name}".`, machine: { key: keyWithoutHash(k) } };
}

function grantList({ topology, arg }: CommandContext): Promise<Said> {
  if (!arg) throw new UsageError('grant list needs a family slug');
  const family = topology.store().getFamilyBySlug(arg);
  if (!family) throw new NotFound(`no family with slug "${arg}"`);
  const list = listGrants(topology.store(), family.id).map(grantView);
  return Promise.resolve({
    human:
      list
        .map(
          (g) =>
            `${g.id}\t${g.clientName}\t${g.scopes.join(',')}\tapproved with key ${g.approvedByKeyId}\t${g.revokedAt ? `revoked ${g.revokedAt}` : 'active'}`,
        )
        .join('\n') || '(no grants)',
    machine: { grants: list },
  });
}

async function grantRevoke({ topology, arg }: CommandContext): Promise<Said> {
  if (!arg) throw new UsageError('grant revoke needs a grant id');
  const outcome = await revokeGrantInStore(topology.store(), arg, new Date());
  if (!outcome) throw new NotFound(`no grant "${arg}"`);
  if (outcome.already) throw new Conflict(`grant "${arg}" was already revoked`);
  return {
    human: `Revoked grant ${arg} of "${outcome.grant.clientName}".`,
    machine: { grant: grantView(outcome.grant) },
  };
}

/** `open <slug>`: a one-time admin sign-in link for the household pages (docs/pages.md). */
async function open({ topology, config, sub }: CommandContext): Promise<Said> {
  if (!sub) throw new UsageError('open needs a family slug');
  const link = await new HouseholdAccess(topology.store()).createLink(sub, new Date());
  const base = config.server.publicUrl
    ? publicBase(config.server.publicUrl)
    : `http://localhost:${config.server.port}`;
  const url = `${base}/signin?link=${link.apiKey}`;
  return {
    human: `Open this link within 10 minutes to sign in to "${sub}" (it works once):\n${url}`,
    machine: { url, expiresAt: link.expiresAt },
  };
}

function backup({ topology, sub }: CommandContext): Promise<Said> {
  if (!sub) throw new UsageError('backup needs a target directory');
  return topology.backup(sub, new Date());
}

async function exportCommand(c: CommandContext): Promise<Said | null> {
  const { topology, sub, v } = c;
  if (!sub) throw new UsageError('export needs a family slug');
  await topology.catchUp(sub);
  const doc = JSON.stringify(
    topology.portable(exportFamily(topology.store(), sub, new Date())),
    null,
    1,
  );
  if (!v.out) {
    c.write(`${doc}\n`);
    return null;
  }
  writePrivateFile(v.out, doc);
  if (!c.json) {
    process.stderr.write(`Exported "${sub}" to ${v.out}\n`);
    return null;
  }
  return { human: '', machine: { exported: sub, file: v.out } };
}

async function importCommand({ topology, sub }: CommandContext): Promise<Said> {
  if (!sub) throw new UsageError('import needs a file');
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(sub, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read ${sub}: ${(e as Error).message}`);
  }
  const family = await importFamily(topology.store(), data);
  return { human: `Imported family "${family.slug}".`, machine: { family } };
}

/** `cluster restore <dir>` and `cluster import <dataDir>`: whole families into a cluster. */
async function clusterPut({ topology, sub, arg }: CommandContext): Promise<Said> {
  const command = `cluster ${sub}`;
  if (!arg) throw new UsageError(`${command} needs a folder`);
  const put = await topology.putFamilies(command, async () =>
    sub === 'restore' ? readBackup(arg) : readEmbeddedStore(arg),
  );
  const c = put.counts;
  return {
    human:
      `${sub === 'restore' ? 'Restored' : 'Imported'} ${c.families} families ` +
      `(${c.keys} keys, ${c.records} records, ${c.changes} changes) into the cluster` +
      (put.families.length ? `: ${put.families.map((f) => f.slug).join(', ')}` : ''),
    machine: { families: put.families, counts: c },
  };
}

/** Every command besides `serve`, by its name. */
export const COMMAND_TABLE: Readonly<Record<string, Command>> = {
  'family create': familyCreate,
  'family update': familyUpdate,
  'family list': familyList,
  'key create': keyCreate,
  'key list': keyList,
  'key revoke': keyRevoke,
  'grant list': grantList,
  'grant revoke': grantRevoke,
  open,
  backup,
  export: exportCommand,
  import: importCommand,
  'cluster restore': clusterPut,
  'cluster import': clusterPut,
};

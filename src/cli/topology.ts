/**
 * What a command works with, whichever topology the configuration names: the store, and the few
 * things that differ between an embedded store and a cluster. An embedded command opens the
 * store under `storage.dataDir` on first use (and refuses to invent one where the command only
 * reads or adds to one); on a cluster it runs against a temporary store that follows the
 * cluster (src/cluster/cliStore.ts), its writes going through the replicated log. The commands
 * (commands.ts) never ask which it is.
 */
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { openClusterStore, portableWhole } from '../cluster/cliStore.js';
import type { HouseholdStore, WholeFamily } from '../store/ports.js';
import { Store, STORE_FILE } from '../store/store.js';
import { DomainError } from '../domain/shared/errors.js';
import { explainFsError } from '../startup.js';
import { clusterBackup, putFamilies, type PutCounts } from './cluster.js';
import { CliFailure, EXIT } from './exit.js';
import { makePrivateFolder } from './output.js';

/** How long `family update` waits for a running daemon to apply it (it polls every 100 ms). */
const QUEUED_UPDATE_WAIT_MS = 1_500;
/** On a cluster the owner may first have to take the family (catch its log up): longer. */
const QUEUED_UPDATE_WAIT_CLUSTER_MS = 5_000;

/**
 * Commands besides `serve` that may create a store where there is none: a new family, a restore.
 */
const MAY_CREATE_STORE = new Set(['family create', 'import']);

/** A command's answer: a line for people and a document under --json. */
export interface Said {
  human: string;
  machine: unknown;
}

export interface CommandTopology {
  /** The store (opened on first use). */
  store(): HouseholdStore;
  /** Makes sure the family's records and log are here (a cluster: replays its log). */
  catchUp(slug: string): Promise<void>;
  /** How long `family update` waits for a running daemon to apply it. */
  readonly queuedUpdateWaitMs: number;
  /** A backup into `folder`: the store's file, or one export per family and a manifest. */
  backup(folder: string, now: Date): Promise<Said>;
  /** A whole family as it leaves this store (without what only makes sense here). */
  portable<T extends WholeFamily>(doc: T): T;
  /** Puts whole families in (`cluster restore|import`); refused where that means nothing. */
  putFamilies(
    command: string,
    docs: () => Promise<WholeFamily[]>,
  ): Promise<{ families: { id: string; slug: string }[]; counts: PutCounts }>;
  close(): Promise<void>;
}

/**
 * The topology a command runs on. `join` false (its arguments are incomplete: a usage error
 * comes next) keeps a cluster command from joining the cluster first.
 */
export async function openCommandTopology(
  config: Config,
  command: string,
  join: boolean,
): Promise<CommandTopology> {
  if (config.cluster && join) return clusterCommands(await openClusterStore(config.cluster));
  return embeddedCommands(config.storage.dataDir, command);
}

function embeddedCommands(dataDir: string, command: string): CommandTopology {
  let opened: Store | undefined;
  const store = (): Store => {
    if (opened) return opened;
    if (!MAY_CREATE_STORE.has(command) && !Store.exists(dataDir)) {
      throw new CliFailure(
        EXIT.usage,
        `no store in ${resolve(dataDir)} (no ${STORE_FILE} there); check --data-dir, HOUSEHOLD_DATA_DIR or storage.dataDir ` +
          '(only serve, family create and import start a new store)',
      );
    }
    return (opened = Store.open(dataDir));
  };
  return {
    store,
    // The store holds every family's records and log already.
    catchUp: () => Promise.resolve(),
    queuedUpdateWaitMs: QUEUED_UPDATE_WAIT_MS,
    async backup(folder) {
      const source = store();
      makePrivateFolder(folder, 'backup folder');
      let file: string;
      try {
        file = await source.backup(folder);
      } catch (e) {
        if (e instanceof DomainError) throw e;
        throw new CliFailure(
          EXIT.refused,
          `cannot write the backup to ${resolve(folder, STORE_FILE)}: ${explainFsError(e)}`,
        );
      }
      return { human: `Backup written to ${file}`, machine: { backup: file } };
    },
    portable: (doc) => doc,
    putFamilies: (command) =>
      Promise.reject(
        new CliFailure(
          EXIT.usage,
          `${command} acts on a cluster: give a configuration with a cluster section ` +
            '(or HOUSEHOLD_NATS_SERVERS, HOUSEHOLD_NODE_NAME, HOUSEHOLD_ADVERTISE_URL, ' +
            'HOUSEHOLD_CLUSTER_SECRET)',
        ),
      ),
    close: async () => {
      await opened?.close();
    },
  };
}

function clusterCommands(cs: Awaited<ReturnType<typeof openClusterStore>>): CommandTopology {
  return {
    store: () => cs.store,
    catchUp: async (slug) => {
      await cs.catchUp(slug);
    },
    queuedUpdateWaitMs: QUEUED_UPDATE_WAIT_CLUSTER_MS,
    async backup(folder, now) {
      const made = await clusterBackup(cs, folder, now);
      return {
        human: `Backup of ${made.families.length} families written to ${resolve(folder)} (manifest ${made.manifest})`,
        machine: { backup: resolve(folder), manifest: made.manifest, families: made.families },
      };
    },
    portable: portableWhole,
    putFamilies: async (_command, docs) => putFamilies(cs, await docs()),
    close: () => cs.close(),
  };
}
